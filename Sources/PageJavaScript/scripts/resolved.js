// resolved(value): a Promise of {value}, the value awaited if it is a promise or thenable of its own. A page may
// make every object thenable (Object.prototype.then = function () {}), and a Promise resolved with such an object
// never settles: so data (what inherits `then` from Object.prototype) is not awaited, and what webparse's calls
// answer or pass between their own promises is an object without a prototype.
async (v) => ({
  __proto__: null,
  value: v !== null && (typeof v === "object" || typeof v === "function") && typeof v.then === "function"
    && v.then !== Object.prototype.then ? await v : v,
})
