// webparse's channel in a page, run at the start of every document in the page's main world before the page's own
// scripts: returns `run(script, body)`, which runs a user script's body with `webparse` ({emit, done}) and `window`
// where and when the script's settings say, or undefined when the page has no webparse channel. With
// settings.capturesConsole, console methods and uncaught errors are reported too.
//
// Strict mode: a page's function that this code calls cannot reach it through `caller`. The token goes only into
// messages built on null-prototype objects whose values are checked primitives, serialised with the JSON.stringify
// taken here: no setter, getter, toJSON or Symbol.toPrimitive a page puts on Object.prototype is ever called with a
// message, and every built-in used after the page's scripts have run is one taken before they ran.
//
// token: the page's own token, which no page script can read. settings: { emitTimeoutMs, capturesConsole }.
(token, settings) => {
  "use strict";
  const handler = window.webkit && window.webkit.messageHandlers && window.webkit.messageHandlers.webparse;
  if (!handler) return undefined;
  const { emitTimeoutMs, capturesConsole } = settings;
  const post = handler.postMessage.bind(handler);
  const stringify = JSON.stringify, ErrorType = Error, TypeErrorType = TypeError, PromiseType = Promise, RegExpType = RegExp;
  const StringType = String;
  const setTimer = setTimeout, clearTimer = clearTimeout, freeze = Object.freeze, apply = Reflect.apply;
  const uncurry = (method) => (target, ...values) => apply(method, target, values);
  const then = uncurry(PromiseType.prototype.then), sliceText = uncurry(StringType.prototype.slice);
  const splitText = uncurry(StringType.prototype.split), exec = uncurry(RegExpType.prototype.exec);
  const text = (value) => typeof value === "string" ? value : null;
  const number = (value) => typeof value === "number" ? value : null;
  const send = (message) => post(stringify(message));
  const ownSource = new ErrorType().sourceURL;
  const rejected = (error) => new PromiseType((_, reject) => reject(error));

  const emit = (value) => {
    let json;
    try { json = stringify(value); } catch (error) { return rejected(error); }
    if (json === undefined) return rejected(new TypeErrorType("webparse.emit: the value has no JSON form"));
    return new PromiseType((resolve, reject) => {
      const timer = setTimer(() => reject(new ErrorType("webparse.emit: webparse did not confirm the value in time")), emitTimeoutMs);
      then(send({ __proto__: null, token, kind: "emit", value: json }), () => { clearTimer(timer); resolve(); }, (error) => { clearTimer(timer); reject(error); });
    });
  };
  const done = () => then(send({ __proto__: null, token, kind: "finished" }), () => undefined);
  const webparse = freeze({ emit, done });

  const describeError = (error) => {
    try { return text(StringType(error)) ?? "an exception"; } catch (_) { return "an exception"; }
  };
  const failed = (script, error) => {
    let line = null;
    try {
      const errorLine = error !== null && typeof error === "object" && error.sourceURL === ownSource ? number(error.line) : null;
      if (errorLine !== null && errorLine >= script.offset && errorLine < script.offset + script.lines) line = errorLine - script.offset + 1;
    } catch (_) {}
    send({ __proto__: null, token, kind: "userScriptFailed", script: script.name, message: describeError(error), line });
  };
  const run = (script, body) => {
    const href = location.href;
    const matches = (pattern) => new RegExpType(pattern.source, pattern.flags).test(href);
    if (script.include.length > 0 && !script.include.some(matches)) return;
    if (script.exclude.some(matches)) return;
    const start = () => {
      try {
        then(apply(body, window, [webparse, window]), undefined, (error) => failed(script, error));
      } catch (error) {
        failed(script, error);
      }
    };
    const later = script.runAt === "document-idle" ? () => setTimer(start, 0) : start;
    if (script.runAt === "document-start") start();
    else if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", later, { once: true });
    else later();
  };

  // Console methods and unhandled errors, reported with the place in the page's code they come from.
  const captureConsole = () => {
    const format = (value) => {
      if (typeof value === "string") return value;
      if (value instanceof ErrorType) return describeError(value);
      if (value !== null && typeof value === "object") {
        try { const json = stringify(value); if (json !== undefined) return json; } catch (_) {}
      }
      return describeError(value);
    };
    const where = (stack) => {
      const frames = splitText(typeof stack === "string" ? stack : "", "\n");
      for (let index = 1; index < frames.length; index++) {
        const found = exec(/^(?:[^@]*@)?(.+):(\d+):(\d+)$/, frames[index]);
        if (found) return { __proto__: null, url: text(found[1]), line: number(+found[2]), column: number(+found[3]) };
      }
      return null;
    };
    const place = (url, line, column) =>
      text(url) ? { __proto__: null, url: text(url), line: number(line), column: number(column) } : null;
    const report = (level, message, source) => {
      try { send({ __proto__: null, token, kind: "console", level, text: sliceText(text(message) ?? "", 0, 4000), source }); } catch (_) {}
    };
    for (const level of ["log", "info", "warn", "error", "debug"]) {
      const original = console[level];
      console[level] = function (...values) {
        let line = "";
        for (let index = 0; index < values.length; index++) line += (index > 0 ? " " : "") + format(values[index]);
        report(level, line, where(new ErrorType().stack));
        return apply(original, this, values);
      };
    }
    addEventListener("error", (event) => {
      if (!(event instanceof ErrorEvent)) return;
      const error = event.error;
      const message = error !== undefined && error !== null ? format(error) : text(event.message) ?? "";
      report("error", "Uncaught " + message, place(event.filename, event.lineno, event.colno));
    }, true);
    addEventListener("unhandledrejection", (event) => report("error", "Unhandled rejection: " + format(event.reason), null));
  };
  if (capturesConsole) captureConsole();
  return run;
}
