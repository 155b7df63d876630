// conditionClock(): removes the clock from the global object of a job's `when` condition (not a page's), so that a
// condition says the same of the same item at any time: Date.now(), new Date() and Date() throw; new Date(text),
// Date.parse and Date.UTC read dates as ever.
() => {
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
}
