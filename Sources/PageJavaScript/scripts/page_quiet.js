// The page's quiet state: whether its data requests are in flight (webparse tells it of all but the document's own
// load, which the page knows ended once its parser has read all of it), since when none is, and whether anything can
// still change the document. The state lives on the window under `settings.key` (not
// enumerable), made afresh in every document.
//
// settings: { key, workKey, lookAheadMs, longLivedMs }. Returns:
// - pageQuiet(busy, stillness, refreshMs): records what is given and returns the state
//   {busy, since, created, wakers, stillness, refreshMs}; a change of `busy` calls every waker (`busy` and `since`
//   count the document as a request until it is no longer "loading");
// - isStill(): the document has loaded and nothing can change it any more;
// - pendingWork(): what the web process extension finds pending in the page's frames, {busy, dueIn, never}, with a
//   refresh of the document due within lookAhead; null when it cannot tell (no extension);
// - workDone(): nothing pending and nothing that stays;
// - quietFor(ms): the page has been quiet that long (always for 0; for a still document or one whose work is done,
//   once no request is in flight), or, for a page that is never quiet, the document is as old as a long request;
// - quietIn(ms): in how many ms quietFor(ms) holds if nothing changes;
// - nextChange(ms, byQuiet): a Promise that resolves at the document's next change, after ms, or (with byQuiet)
//   when requests start or stop being in flight or the loading state changes, whichever comes first;
// - lookAheadMs: how far ahead pending work counts.
(settings) => {
  const { key, workKey, lookAheadMs, longLivedMs } = settings;
  // True when the document holds what can change it once loaded: a frame or plugin (its document is another's), a
  // refresh, and when the page's scripts run, a script element, an event handler attribute or a custom element
  // (whose declarative shadow root, closed, can hold scripts no page script can see; an open one is looked for
  // apart).
  const frames = "//*[local-name()='iframe' or local-name()='frame' or local-name()='object' or local-name()='embed']";
  const refresh = "//*[local-name()='meta'][translate(@http-equiv, 'REFSH', 'refsh') = 'refresh']";
  const scripts = "//*[local-name()='script' or contains(local-name(), '-')] | //@*[starts-with(translate(name(), 'ON', 'on'), 'on')]";
  const changers = {
    loaded: `boolean(${frames} | ${refresh})`,
    withoutScripts: `boolean(${frames} | ${refresh} | ${scripts})`,
  };

  // When the parser had read the whole document (0 while it has not).
  const parsedAt = () => {
    const timing = performance.getEntriesByType("navigation")[0];
    return timing && timing.domInteractive > 0 ? timing.domInteractive : 0;
  };
  const pageQuiet = (busy, stillness, refreshMs) => {
    let state = window[key];
    if (!state) {
      const now = performance.now();
      state = {
        requests: false, requestsSince: now, created: now, wakers: new Set(), stillness: "never", refreshMs: -1,
        get busy() { return this.requests || document.readyState === "loading"; },
        get since() { return Math.max(this.requestsSince, parsedAt()); },
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
      if (document.evaluate(changers[stillness], document, null, XPathResult.BOOLEAN_TYPE, null).booleanValue) return false;
      return stillness === "loaded" || !Array.prototype.some.call(document.getElementsByTagName("*"), (element) => element.shadowRoot);
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
      resume();
    };
    if (byQuiet) {
      state.wakers.add(done);
      document.addEventListener("readystatechange", done);
    }
    observer.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
  });

  return { __proto__: null, pageQuiet, isStill, pendingWork, workDone, quietFor, quietIn, nextChange, lookAheadMs };
}
