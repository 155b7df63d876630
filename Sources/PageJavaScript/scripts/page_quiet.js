// The page's quiet state: whether its data requests are in flight (webparse tells it of all but the document's own
// load, which the page knows ended once its parser has read all of it and its deferred scripts ran), since when none
// is, and whether anything can
// still change the document. The state lives on the window under `settings.key` (not
// enumerable), made afresh in every document.
//
// settings: { key, workKey, lookAheadMs, longLivedMs }. Returns:
// - pageQuiet(busy, stillness, refreshMs): records what is given and returns the state
//   {busy, since, created, wakers, stillness, refreshMs}; a change of `busy` calls every waker (`busy` and `since`
//   count the document as a request until DOMContentLoaded's listeners ran);
// - isStill(): the document has loaded and nothing can change it any more;
// - pendingWork(): what the web process extension finds pending in the page's frames, {busy, dueIn, never}, with a
//   refresh of the document due within lookAhead; null when it cannot tell (no extension);
// - workDone(): nothing pending and nothing that stays;
// - quietFor(ms): the page has been quiet that long (always for 0; for a still document or one whose work is done,
//   once no request is in flight), or, for a page that is never quiet, the document is as old as a long request;
// - quietIn(ms): in how many ms quietFor(ms) holds if nothing changes;
// - nextChange(ms, byQuiet): a Promise that resolves at the document's next change, after ms, or (with byQuiet)
//   when requests start or stop being in flight, the loading state changes or DOMContentLoaded ended, whichever
//   comes first;
// - lookAheadMs: how far ahead pending work counts.
(settings) => {
  const { key, workKey, lookAheadMs, longLivedMs } = settings;
  // What can change the document once loaded: a frame or plugin (its document is another's) or a refresh; and, when
  // the page's scripts run, a script element, an element with a shadow root, a custom element (whose declarative
  // shadow root, closed, can hold scripts no page script can see) or an event handler attribute (any attribute whose
  // name begins with "on", in any case), found by a selector and one walk over the elements (an XPath over every
  // attribute was five times slower on large documents).
  const changers = "iframe, frame, object, embed, meta[http-equiv='refresh' i]";
  const runsScripts = () => {
    if (document.querySelector("script") !== null) return true;
    const all = document.getElementsByTagName("*");
    for (let index = 0; index < all.length; index++) {
      const element = all[index];
      if (element.localName.includes("-") || element.shadowRoot) return true;
      if (!element.hasAttributes()) continue;
      for (const name of element.getAttributeNames()) {
        if (name.length > 1 && (name.charCodeAt(0) | 32) === 111 && (name.charCodeAt(1) | 32) === 110) return true;
      }
    }
    return false;
  };

  // Whether the document is still being read or its deferred scripts have yet to run: until DOMContentLoaded's
  // listeners ran (without a navigation entry, while it is "loading"); and when that ended (0 before).
  const navigation = () => performance.getEntriesByType("navigation")[0];
  const reading = () => {
    const state = document.readyState;
    if (state !== "interactive") return state === "loading";
    const timing = navigation();
    return timing !== undefined && !(timing.domContentLoadedEventEnd > 0);
  };
  const readAt = () => {
    const timing = navigation();
    return timing ? Math.max(timing.domInteractive, timing.domContentLoadedEventEnd) : 0;
  };
  const pageQuiet = (busy, stillness, refreshMs) => {
    let state = window[key];
    if (!state) {
      const now = performance.now();
      state = {
        requests: false, requestsSince: now, created: now, wakers: new Set(), stillness: "never", refreshMs: -1,
        get busy() { return this.requests || reading(); },
        get since() { return Math.max(this.requestsSince, readAt()); },
      };
      Object.defineProperty(window, key, { value: state, configurable: true, writable: true, enumerable: false });
    }
    if (stillness !== undefined) state.stillness = stillness;
    if (refreshMs !== undefined) state.refreshMs = refreshMs;
    if (busy !== undefined && state.requests !== busy) {
      state.requests = busy;
      if (!busy) state.requestsSince = performance.now();
      for (const wake of [...state.wakers]) wake();
    }
    return state;
  };

  const isStill = () => {
    const stillness = pageQuiet().stillness;
    if (stillness === "never" || document.readyState !== "complete") return false;
    try {
      return document.querySelector(changers) === null && (stillness === "loaded" || !runsScripts());
    } catch {
      return false;
    }
  };

  const refreshIn = () => {
    let delay = pageQuiet().refreshMs;
    const meta = document.querySelector('meta[http-equiv="refresh" i]');
    const seconds = meta ? parseFloat(meta.getAttribute("content") ?? "") : NaN;
    if (seconds >= 0) delay = delay < 0 ? seconds * 1000 : Math.min(delay, seconds * 1000);
    if (delay < 0) return null;
    const timing = performance.getEntriesByType("navigation")[0];
    const loaded = timing && timing.loadEventEnd > 0 ? timing.loadEventEnd : performance.now();
    const left = loaded + delay - performance.now();
    return left <= lookAheadMs && left > -1000 ? Math.max(0, left) : null;
  };

  const pendingWork = () => {
    let work;
    try {
      const read = window[workKey];
      work = typeof read === "function" ? read(lookAheadMs) : null;
      if (work === null || typeof work !== "object") return null;
    } catch {
      return null;
    }
    const refresh = work.busy === null ? refreshIn() : null;
    return refresh === null ? work : { busy: `a refresh due in ${Math.round(refresh)} ms`, dueIn: refresh, never: work.never };
  };

  const workDone = () => {
    const work = pendingWork();
    return work !== null && work.busy === null && work.never === null;
  };

  const quietFor = (ms) => {
    const state = pageQuiet(), now = performance.now();
    return ms <= 0 || !state.busy && (now - state.since >= ms || isStill() || workDone())
      || now - state.created >= Math.max(ms, longLivedMs);
  };

  const quietIn = (ms) => {
    const state = pageQuiet(), now = performance.now();
    const byAge = Math.max(ms, longLivedMs) - (now - state.created);
    return Math.max(0, state.busy ? byAge : isStill() || workDone() ? 0 : Math.min(ms - (now - state.since), byAge));
  };

  const nextChange = (ms, byQuiet) => new Promise((resume) => {
    const state = pageQuiet();
    const observer = new MutationObserver(() => done());
    const timer = setTimeout(() => done(), ms);
    const done = () => {
      observer.disconnect();
      clearTimeout(timer);
      state.wakers.delete(done);
      document.removeEventListener("readystatechange", done);
      document.removeEventListener("DOMContentLoaded", afterRead);
      resume();
    };
    // DOMContentLoaded's end is known once its listeners ran, in a task after them.
    const afterRead = () => setTimeout(done, 0);
    if (byQuiet) {
      state.wakers.add(done);
      document.addEventListener("readystatechange", done);
      document.addEventListener("DOMContentLoaded", afterRead);
    }
    observer.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
  });

  return { __proto__: null, pageQuiet, isStill, pendingWork, workDone, quietFor, quietIn, nextChange, lookAheadMs };
}
