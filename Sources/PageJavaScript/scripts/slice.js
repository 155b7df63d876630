// A job's script in the page: `attempt` settles waitFor, then the script, then checks and serialises the result;
// `slice` repeats it on DOM changes, on changes of the page's quiet state and every pollMs until the answer has
// settled or sliceMs is over; `slice`, `probe` and `setResponses` are kept on the window under settings.key (not
// enumerable) for the next calls.
//
// script, waitFor: the job's two parts, functions of no argument whose value may be a function of the responses.
// settings: { key, sourceName, sliceMs, pollMs, busyMs, lookAheadMs, emptyHoldMs, waitForSelector, final,
// emptyIsAnswer, emptyText, links, linksHoldMs }. quiet: what page_quiet.js returns. resolved: resolved.js.
(script, waitFor, settings, quiet, resolved) => {
  const { key, sourceName, sliceMs, pollMs, busyMs, lookAheadMs, emptyHoldMs } = settings;
  const { waitForSelector, final, emptyIsAnswer, emptyText, links, linksHoldMs } = settings;
  const { pageQuiet, isStill, pendingWork, nextChange } = quiet;
  let responses = [];

  const settle = (part) => {
    const value = part();
    return resolved(typeof value === "function" ? value(responses) : value);
  };
  const failure = (error) => {
    const own = error?.sourceURL === sourceName;
    return { __proto__: null, kind: "error", message: String(error), line: own ? error.line : null, column: own ? error.column : null };
  };
  // What a value that is not data is, in words; null for data.
  const describe = (v) => {
    if (typeof v === "function") return "a function";
    if (typeof v === "symbol") return "a Symbol";
    if (typeof v !== "object" || v === null) return null;
    if (typeof Window === "function" && v instanceof Window) return "the window object";
    if (typeof Node === "function" && v instanceof Node)
      return v.nodeType === 1 ? `a DOM element (<${v.localName}>); return its textContent or attributes instead`
        : `a DOM node (${v.nodeName})`;
    if ((typeof NodeList === "function" && v instanceof NodeList)
      || (typeof HTMLCollection === "function" && v instanceof HTMLCollection))
      return "a list of DOM nodes; map it to data, e.g. Array.from(list, e => e.textContent)";
    if (v instanceof Map || v instanceof Set || v instanceof WeakMap || v instanceof WeakSet)
      return `a ${v.constructor.name}; convert it, e.g. Object.fromEntries(map) or Array.from(set)`;
    return null;
  };
  const preview = (v) => {
    let text;
    try { text = typeof v === "string" ? JSON.stringify(v) : String(JSON.stringify(v) ?? v); } catch { text = String(v); }
    return text.length > 80 ? text.slice(0, 77) + "..." : text;
  };
  const pending = (text) => ({ __proto__: null, kind: "pending", text });
  const unsupported = (text) => ({ __proto__: null, kind: "unsupported", text });

  // The links to read, as JSON text: each matching element's absolute href, once.
  const linksNow = () => {
    const found = new Set();
    for (const element of document.querySelectorAll(links)) {
      const href = element.href ?? element.getAttribute?.("href");
      const value = typeof href === "string" ? href : href?.baseVal;
      if (typeof value === "string" && value !== "") found.add(value);
    }
    return JSON.stringify(Array.from(found));
  };
  // With links to read, the answer is {"result": …, "links": […]}.
  const withLinks = (json, found) => '{"result":' + json + ',"links":' + found + "}";
  // Once the wait holds, an empty answer is the result (undefined is JSON's null); before, it means "not yet".
  const empty = (text) => final || emptyIsAnswer ? (text === "undefined" ? "null" : text)
    : pending(emptyText ?? `the script returned ${text} (empty; an empty answer is the result only once waitFor or waitForSelector holds)`);

  // The answer now: its JSON text, or an object saying why there is none (pending, error, unsupported).
  const attempt = async () => {
    let value;
    try {
      if (waitForSelector !== null) {
        let found;
        try { found = document.querySelector(waitForSelector); }
        catch { return { __proto__: null, kind: "error", message: `${JSON.stringify(waitForSelector)} is not a valid CSS selector`, part: "waitForSelector" }; }
        if (!found) return pending(`no element matched waitForSelector ${JSON.stringify(waitForSelector)}`);
      }
      const ready = (await settle(waitFor)).value;
      if (!ready || (Array.isArray(ready) && ready.length === 0)) return pending(`waitFor returned ${preview(ready)}`);
      value = (await settle(script)).value;
    } catch (error) {
      // While the document is still being parsed, an error is most likely a missing element (document.body is
      // null): try again when the DOM changes. Once parsed, an error is the script's.
      if (document.readyState === "loading") return pending(`the script threw ${String(error)} while the page loaded`);
      return failure(error);
    }
    if (value === undefined || value === null) return empty(String(value));
    const top = describe(value);
    if (top) return unsupported(top);
    let json;
    try {
      json = JSON.stringify(value, function (key, v) {
        const what = key === "" ? null : describe(v);
        if (what && typeof v === "object") throw { webparseUnsupported: `${what}, at key "${key}"` };
        return v;
      });
    } catch (error) {
      if (error && error.webparseUnsupported) return unsupported(error.webparseUnsupported);
      return unsupported(`a value JSON cannot hold (${String(error)})`);
    }
    if (json === "{}" && typeof value === "object" && !Array.isArray(value)
      && ![Object.prototype, null].includes(Object.getPrototypeOf(value)))
      return unsupported(`a ${value.constructor?.name ?? "special"} object, which JSON can only show as {}`);
    if (json === undefined) return empty("undefined");
    if (json === "null" || json === '""' || json === "[]" || json === "{}") return empty(json);
    return json;
  };

  // The answer last seen and since when (performance.now()); an empty answer forgets it. And when the document last
  // changed: an answer that changes while the document does not (it holds a time) has settled once the document has
  // been still for the settle time, as an answer that stays the same on a page that keeps changing (a clock, a
  // carousel) has once the answer has.
  const seen = { answer: undefined, since: 0 };
  const dom = { since: performance.now() };
  new MutationObserver(() => { dom.since = performance.now(); })
    .observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
  const settled = (value, by) => ({ __proto__: null, kind: "settled", value, text: by, title: String(document.title) });

  const judged = (reply, settling = 0) => ({ __proto__: null, reply, settling });
  // `answer`, an answer's JSON text, judged: settled, or pending with why and in how many ms to look again. With links
  // to read (a crawl's), they are read once the page is complete, whatever made the answer final: an answer final at
  // once (waitFor held, settle 0) is kept, and given with the links once they have settled as an answer does.
  const judge = (answer, settleMs, quietState, now) => {
    // An empty answer that counts (an extraction's empty list) holds longer: a page often renders its list a moment
    // after it loaded, from a timer.
    const hold = emptyIsAnswer && (["[]", "{}", "null", '""'].includes(answer) || /^\[null(,null)*\]$/.test(answer))
      ? Math.max(settleMs, emptyHoldMs) : settleMs;
    const first = final ? "waitFor held" : hold <= 0 ? "settle 0: the first answer" : null;
    if (links === null) return first === null ? still(answer, hold, quietState, now) : judged(settled(answer, first));
    if (first === null) return still(withLinks(answer, linksNow()), hold, quietState, now);
    seen.kept ??= answer;
    const found = linksNow();
    const { reply, settling } = still(found, Math.max(hold, linksHoldMs), quietState, now, "the page's links");
    if (reply.kind !== "settled") return judged(reply, settling);
    return judged(settled(withLinks(seen.kept, found), `${first}; its links once ${reply.text}`));
  };
  // `reply` (what the script returned, or `what`) judged by how still the page and it are, to be final after `hold` ms.
  const still = (reply, hold, quietState, now, what = "the script") => {
    if (reply !== seen.answer) { seen.answer = reply; seen.since = now; }
    // What the page still has pending (null: webparse cannot tell); what it waits for is waited for, as long as
    // lookAhead at most.
    const work = quietState.busy ? null : pendingWork();
    if (work !== null && work.busy !== null) {
      if (seen.workSince === undefined) seen.workSince = now;
      seen.waitedFor ??= work.busy;
    } else {
      seen.workSince = undefined;
    }
    const waited = seen.waitedFor === undefined ? "" : `, after ${seen.waitedFor}`;
    // A document nothing can change any more, or a page with nothing pending, has settled once no request is in
    // flight.
    if (!quietState.busy && isStill()) return judged(settled(reply, "the document cannot change" + waited));
    if (work !== null && work.busy === null && work.never === null) return judged(settled(reply, "nothing pending" + waited));
    const waiting = work !== null && work.busy !== null && now - seen.workSince < lookAheadMs;
    const quietFor = Math.min(now - quietState.since, Math.max(now - seen.since, now - dom.since));
    const keeps = work === null ? "" : ` (${work.never ?? work.busy})`;
    if (!quietState.busy && !waiting && quietFor >= hold) return judged(settled(reply, `the answer stayed the same for ${hold} ms` + keeps));
    // A page that never stays quiet (it polls its server several times a second) has settled once the answer stayed
    // the same as long as a request may count as in flight.
    const longest = Math.max(hold, busyMs);
    if (now - seen.since >= longest) return judged(settled(reply, `the answer stayed the same for ${longest} ms while the page was never quiet`));
    const shown = reply.length > 80 ? reply.slice(0, 77) + "..." : reply;
    const said = what === "the script" ? `the script returned ${shown}` : `${what} were ${shown}`;
    return judged(
      pending(quietState.busy ? `${said}, but the page was still loading data`
        : waiting ? `${said}, but the page was waiting for ${work.busy}`
        : `${said}, which had not stayed the same for ${hold} ms${keeps} (a page that never settles, such as a clock: "settle": 0 takes the first answer)`),
      quietState.busy ? pollMs : waiting ? Math.max(1, Math.min(work.dueIn, pollMs)) : hold - quietFor);
  };

  const slice = async (settleMs, busy, stillness, refreshMs) => {
    const quietState = pageQuiet(busy, stillness, refreshMs);
    const sliceEnd = performance.now() + sliceMs;
    for (;;) {
      let reply = await attempt();
      let settling = 0;
      const now = performance.now();
      if (typeof reply === "string") {
        ({ reply, settling } = judge(reply, settleMs, quietState, now));
      } else {
        seen.answer = undefined;
      }
      const remaining = sliceEnd - now;
      // A navigation the page scheduled (a location.replace as it loaded) starts from a timer of WebKit's that is
      // due now: one turn of the page's timers lets it start, and WebKit asks to navigate before this answer is back.
      if (reply.kind === "settled" && typeof setTimeout === "function") {
        await new Promise((resume) => { try { setTimeout(resume, 0); } catch { resume(); } });
      }
      if (reply.kind !== "pending" || remaining <= 0) return reply;
      // Only an answer waiting to settle wakes when the page's requests start or stop: a script that acts on the
      // page (submits a form) must not run again at every request that its own action starts.
      await nextChange(Math.max(1, Math.min(pollMs, remaining, settling || Infinity)), settling > 0);
    }
  };
  const probe = async () => {
    try { const reply = await attempt(); return typeof reply === "string" ? reply : null; } catch { return null; }
  };
  const setResponses = (list) => { responses = list; };
  Object.defineProperty(window, key, { value: { slice, probe, setResponses }, configurable: true, writable: true, enumerable: false });
}
