// conditionPrelude(limit): readies the global object of a job's `when` condition (not a page's). The clock is removed,
// so that a condition says the same of the same item at any time: Date.now(), new Date() and Date() throw; new
// Date(text), Date.parse and Date.UTC read dates as ever. And no string or buffer larger than `limit` bytes is made in
// one call (String.prototype.repeat, padStart and padEnd, ArrayBuffer and the typed arrays): the watchdog that bounds
// a condition's memory looks between calls, and one such call could take gigabytes before it looks.
(limit) => {
  const RealDate = Date;
  const noClock = () => {
    throw new TypeError("a condition has no clock: compare the item's own dates, such as new Date(item.date) < new Date('2026-01-01')");
  };
  const ConditionDate = function (...values) {
    if (!new.target || values.length === 0) noClock();
    return Reflect.construct(RealDate, values, new.target);
  };
  ConditionDate.prototype = RealDate.prototype;
  Object.defineProperty(RealDate.prototype, "constructor", { value: ConditionDate });
  ConditionDate.parse = RealDate.parse;
  ConditionDate.UTC = RealDate.UTC;
  ConditionDate.now = noClock;
  globalThis.Date = ConditionDate;

  const tooLarge = (bytes) => {
    if (bytes > limit) throw new RangeError(`a condition makes no value larger than ${limit / 1048576} MiB at once`);
  };
  for (const name of ["repeat", "padStart", "padEnd"]) {
    const real = String.prototype[name];
    Object.defineProperty(String.prototype, name, {
      configurable: true, writable: true,
      value: { [name](count, filler) {
        tooLarge(2 * (name === "repeat" ? String(this).length * Number(count) : Number(count)));
        return Reflect.apply(real, this, arguments);
      } }[name],
    });
  }
  const typed = ["ArrayBuffer", "SharedArrayBuffer", "Int8Array", "Uint8Array", "Uint8ClampedArray", "Int16Array", "Uint16Array",
    "Int32Array", "Uint32Array", "Float32Array", "Float64Array", "BigInt64Array", "BigUint64Array"];
  for (const name of typed) {
    const real = globalThis[name];
    if (typeof real !== "function") continue;
    const size = real.BYTES_PER_ELEMENT || 1;
    globalThis[name] = new Proxy(real, {
      construct(target, values, newTarget) {
        const first = values[0];
        const count = typeof first === "number" ? first : first && typeof first.length === "number" ? first.length : 0;
        tooLarge(count * size);
        return Reflect.construct(target, values, newTarget);
      },
    });
  }
}
