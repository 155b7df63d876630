// Keeps the page's last uncaught exception or unhandled rejection, as the console would show it, and puts a
// function that returns it (null: none) on the window under `key`, not writable. It runs at the start of every
// top-level document, before the page's own scripts, in webparse's own script world, and takes the built-ins it
// uses before any of the page's scripts ran.
(key) => {
  "use strict";
  if (Object.getOwnPropertyDescriptor(window, key)) return;
  const text = String, ErrorEventType = ErrorEvent, slice = String.prototype.slice, apply = Reflect.apply;
  let last = null;
  const keep = (message) => { last = apply(slice, message, [0, 1000]); };
  addEventListener("error", (event) => {
    if (!(event instanceof ErrorEventType)) return;
    try {
      const place = event.filename ? ` (${event.filename}:${event.lineno}:${event.colno})` : "";
      keep("Uncaught " + text(event.message) + place);
    } catch { keep("Uncaught exception"); }
  }, true);
  addEventListener("unhandledrejection", (event) => {
    let reason;
    try { reason = text(event.reason); } catch { reason = "a value"; }
    keep("Unhandled rejection: " + reason);
  });
  Object.defineProperty(window, key, { value: () => last, enumerable: false, configurable: false, writable: false });
}
