// One call of a job's step in the page. A step on an element waits inside the page for what it acts on (an element
// that exists, is visible and is enabled, on a page whose data requests have been quiet for the settle time and
// which has run what it scheduled within lookAhead, lookAhead at most; re-checked on every DOM change and every
// 100 ms), then acts itself (fill, select, submit, scroll, evaluate) or answers where the view must click, or that the
// element has the focus for a key; an answer that acts after its element was there says how long the step waited
// for the page's requests and scheduled work, and for what ({waited, waitedFor}). A call that waited a whole slice
// without acting answers why it waits ({kind: "waiting", text}), and is made again.
//
// step: { kind, sliceMs, settle, selector, value, option, checked, condition }, what the kind needs (settle in ms:
// the quiet time an element waits for, an `if`'s decision time, or how long a scroll must not grow the page).
// Kinds: click, fill, select, check, press, submit, scrollBottom, scrollTo, scrollUntilStable, waitFor,
// waitForSelector, evaluate, if, nextPage (the next page's URL, or where to click its button), clickCheck (whether
// the last click landed on its element).
// quiet: what page_quiet.js returns, told of the page's requests (null for nextPage).
// own: { code, probe, resolved }: the job's own code for the step (evaluate, waitFor, an `if` or next script; null
// for the others), a function whose value is a Promise of the job's answer now (null: none is read), resolved.js.
(step, quiet, own) => {
  const { pageQuiet, quietFor, quietIn, isStill, workDone, pendingWork, nextChange, lookAheadMs } = quiet ?? {};
  const { kind, selector, settle, sliceMs } = step;
  const reply = (fields) => ({ __proto__: null, ...fields });
  const error = (message) => reply({ kind: "error", message });
  const done = (before) => reply({ kind: "done", before });

  // What the step still waits for, and what `until` rejects with once the call's slice is over.
  let why = "";
  const stillWaiting = {};
  let sliceEnd = 0;
  const sliced = async (body) => {
    try {
      return await body();
    } catch (thrown) {
      if (thrown === stillWaiting) return reply({ kind: "waiting", text: why });
      throw thrown;
    }
  };

  // The value of `promise`, or null once `ms` have gone by, whichever comes first; the timer is cleared either way:
  // one left behind would be work the page has pending for the next step.
  const within = async (promise, ms) => {
    let timer = null;
    try {
      return await Promise.race([promise, new Promise((resolve) => { timer = setTimeout(() => resolve(null), ms); })]);
    } finally {
      clearTimeout(timer);
    }
  };

  // The job's answer just before the step acts, read for at most 250 ms: a script still waiting for what only the
  // steps bring must not hold the step up.
  const readBefore = async () => own.probe === null ? null : within(own.probe(), 250);

  // `check` is tried again at every DOM change, whenever requests start or stop being in flight, 100 ms after the
  // last try, or sooner when a check says by `settledIn` when the page will have been quiet long enough.
  let wakeIn = 100;
  const settledIn = (ms) => { wakeIn = Math.min(wakeIn, quietIn(ms)); };
  // A Promise of {value}, check()'s first truthy value (an exception counts as not yet); rejects with stillWaiting
  // once the slice is over, with `why` saying what was missing.
  const until = (check) => new Promise((resolve, reject) => {
    const state = pageQuiet();
    let observer = null, timer = null, finished = false;
    const stop = () => { finished = true; if (observer) observer.disconnect(); clearTimeout(timer); state.wakers.delete(test); };
    const test = () => {
      if (finished) return true;
      clearTimeout(timer);
      let value = null;
      wakeIn = 100;
      try { value = check(); } catch (thrown) { value = null; why = String(thrown && thrown.message || thrown); }
      if (value) { stop(); resolve({ __proto__: null, value }); return true; }
      const now = performance.now();
      if (now >= sliceEnd) { stop(); reject(stillWaiting); return true; }
      timer = setTimeout(test, Math.max(1, Math.min(wakeIn, sliceEnd - now)));
      return false;
    };
    if (test()) return;
    observer = new MutationObserver(test);
    observer.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
    state.wakers.add(test);
  });

  // An element's name (tag#id.class), why it is not visible ("" when it is), why it cannot be used.
  const describe = (el) => el.localName + (el.id ? "#" + el.id : "") + Array.from(el.classList).slice(0, 3).map((c) => "." + c).join("");
  const hidden = (el) => {
    if (el.tagName === "OPTION" || el.tagName === "OPTGROUP") el = el.closest("select") || el;
    for (let node = el; node && node.nodeType === 1; node = node.parentElement) {
      if (getComputedStyle(node).display === "none") return "it is not visible (display: none" + (node === el ? ")" : " on " + describe(node) + ")");
    }
    const visibility = getComputedStyle(el).visibility;
    if (visibility === "hidden" || visibility === "collapse") return "it is not visible (visibility: " + visibility + ")";
    const rect = el.getBoundingClientRect();
    if (rect.width === 0 || rect.height === 0) return "it is not visible (it has no size)";
    return "";
  };
  const shown = (el) => { const reason = hidden(el); if (reason) why = "an element matches, but " + reason; return !reason; };
  const disabled = (el) => el.disabled ? "it is disabled" : el.closest("fieldset[disabled]") ? "it is disabled (in a disabled fieldset)"
    : el.getAttribute("aria-disabled") === "true" ? "it is disabled (aria-disabled)" : "";

  // The element the selector matches, if any (saying in `why` when none does); whether the page has been quiet for
  // the settle time; the element once it is visible and enabled on a settled page.
  let matched = false;
  const found = () => {
    const el = document.querySelector(selector);
    if (el) matched = true;
    else why = matched ? "the element it matched was removed from the page (detached), and none matches now" : "no element matches " + JSON.stringify(selector);
    return el;
  };
  // What the step waited for once its element was there: since when, whether for the page's requests, the first of
  // its scheduled work and since when; kept in the document, for the calls after a slice.
  const stepWait = () => pageQuiet().stepWait ??= { __proto__: null, since: performance.now(), requests: false, work: null, workSince: null };
  // What the page has scheduled that could change how the element behaves (a handler a timer attaches, an app
  // hydrated once its bundle has loaded) runs before the step acts: while anything is pending within lookAhead,
  // lookAhead at most.
  const scheduled = () => {
    const work = pendingWork();
    if (work === null || work.busy === null) return false;
    const now = performance.now();
    const wait = stepWait();
    wait.work ??= work.busy;
    wait.workSince ??= now;
    if (now - wait.workSince >= lookAheadMs) return false;
    wakeIn = Math.min(wakeIn, Math.max(20, work.dueIn));
    why = "the element is ready, but the page was waiting for " + work.busy;
    return true;
  };
  const settled = () => {
    if (settle === 0) return true;
    if (!quietFor(settle)) {
      if (pageQuiet().busy) stepWait().requests = true;
      settledIn(settle);
      why = "the element is ready, but the page was still loading data";
      return false;
    }
    return !scheduled();
  };
  const ready = () => {
    const el = found();
    if (!el || !shown(el)) return null;
    const reason = disabled(el);
    if (reason) { why = "an element matches, but " + reason; return null; }
    return settled() ? el : null;
  };
  const invalidSelector = () => {
    try { document.querySelector(selector); return null; } catch (_) { return error("not a valid CSS selector: " + selector); }
  };
  // The answer before the step acts, once the element is known to be still there.
  const answerBefore = async (el) => {
    const before = await readBefore();
    if (!el.isConnected) { why = "the element it matched was removed from the page (detached)"; throw stillWaiting; }
    return before;
  };

  // Waits until the middle of the element, scrolled into view, is that element itself (or inside it, or its label)
  // and not a banner or dialog over it, then answers that point: a user clicks what they see. The point is found
  // again after the answer before the step is read.
  const clickPoint = async () => {
    let aimed = null;
    const target = () => {
      const el = ready();
      if (!el) return null;
      aimed = el;
      el.scrollIntoView({ block: "center", inline: "center" });
      const rect = el.getBoundingClientRect();
      const x = rect.left + rect.width / 2, y = rect.top + rect.height / 2;
      if (x < 0 || y < 0 || x >= innerWidth || y >= innerHeight) { why = "an element matches, but it is off-screen, and scrolling does not bring it into view"; return null; }
      const hit = document.elementFromPoint(x, y);
      const mine = hit && (hit === el || el.contains(hit) || Array.from(el.labels || []).some((label) => label.contains(hit)));
      if (!mine) { why = "an element matches, but it is covered by " + (hit ? describe(hit) : "nothing WebKit can hit there"); return null; }
      return reply({ kind: "clickAt", x, y });
    };
    await until(target);
    const before = await readBefore();
    const point = target();
    if (!point) throw stillWaiting;
    // Where the view's click lands, for clickCheck: on the element (or its label), or, when a re-render replaced it
    // before the click arrived, on the element that matches now; else on something else.
    const aim = pageQuiet().click = { __proto__: null, landed: null };
    const within = (el, hit) => !!el && (el.contains(hit) || Array.from(el.labels || []).some((label) => label.contains(hit)));
    aim.arrived = new Promise((resolve) => addEventListener("click", (event) => {
      aim.landed = within(aimed, event.target) || (!aimed.isConnected && within(document.querySelector(selector), event.target));
      resolve();
    }, { capture: true, once: true }));
    // The release, which a click follows at once: when the page re-rendered between the press and the release (a
    // busy machine delivers them apart), they reached two elements, and no click came at all.
    aim.released = new Promise((resolve) => addEventListener("mouseup", () => resolve(true), { capture: true, once: true }));
    return reply({ ...point, before });
  };

  // An `if` step's condition, decided once its answer has stayed the same on a page quiet for the settle time; what
  // was seen is kept in the document, for the calls after a slice.
  const decide = async (holds) => {
    const seen = (pageQuiet().conditions ??= {})[step.condition] ??= { since: 0 };
    for (;;) {
      let value = false;
      try { value = await holds(); } catch (_) { value = false; }
      const now = performance.now();
      if (value !== seen.value) { seen.value = value; seen.since = now; }
      if (quietFor(settle) && (now - seen.since >= settle || isStill() || workDone())) return reply({ kind: "decided", holds: value });
      why = pageQuiet().busy ? "the page was still loading data" : `the condition had not given the same answer for ${settle} ms`;
      if (now >= sliceEnd) throw stillWaiting;
      await nextChange(50, true);
    }
  };

  const onElement = (body) => sliced(async () => invalidSelector() ?? body());

  const actions = {
    __proto__: null,
    click: () => onElement(clickPoint),
    fill: () => onElement(async () => {
      const el = (await until(() => { const el = ready(); if (el && el.readOnly) { why = "an element matches, but it is read-only"; return null; } return el; })).value;
      const proto = el instanceof HTMLTextAreaElement ? HTMLTextAreaElement.prototype
        : el instanceof HTMLInputElement ? HTMLInputElement.prototype : null;
      if (!proto && !el.isContentEditable) return error("the element is not a text field (" + el.tagName.toLowerCase() + ")");
      const value = step.value;
      const before = await answerBefore(el);
      el.focus();
      if (proto) Object.getOwnPropertyDescriptor(proto, "value").set.call(el, value); else el.textContent = value;
      el.dispatchEvent(new InputEvent("input", { bubbles: true, inputType: "insertText", data: value }));
      el.dispatchEvent(new Event("change", { bubbles: true }));
      return done(before);
    }),
    select: () => onElement(async () => {
      const wanted = step.option;
      const pick = (el) => Array.from(el.options || []).find((o) => o.value === wanted || o.label.trim() === wanted || o.text.trim() === wanted);
      const el = (await until(() => { const el = ready(); if (el && el instanceof HTMLSelectElement && !pick(el)) { why = "the <select> has no option " + JSON.stringify(wanted) + " yet"; return null; } return el; })).value;
      if (!(el instanceof HTMLSelectElement)) return error("the element is not a <select> (" + el.tagName.toLowerCase() + ")");
      const before = await answerBefore(el);
      el.value = pick(el).value;
      el.dispatchEvent(new Event("input", { bubbles: true }));
      el.dispatchEvent(new Event("change", { bubbles: true }));
      return done(before);
    }),
    check: () => onElement(async () => {
      const box = (await until(ready)).value;
      if (!("checked" in box)) return error("the element is not a checkbox or radio button (" + box.tagName.toLowerCase() + ")");
      if (box.checked === step.checked) return reply({ kind: "done", acted: false });
      return clickPoint();
    }),
    press: () => selector === null
      ? sliced(async () => {
        await until(settled);
        return reply({ kind: "focused", before: await readBefore() });
      })
      : onElement(async () => {
        const el = (await until(ready)).value;
        const before = await answerBefore(el);
        el.focus();
        return reply({ kind: "focused", before });
      }),
    submit: () => onElement(async () => {
      const el = (await until(() => { const el = document.querySelector(selector); if (!el) why = "no element matches " + JSON.stringify(selector); return el && settled() ? el : null; })).value;
      const form = el instanceof HTMLFormElement ? el : (el.form || el.closest("form"));
      if (!form) return error("the element is not a form, nor in one");
      const before = await answerBefore(el);
      if (form.requestSubmit) form.requestSubmit(); else form.submit();
      return done(before);
    }),
    scrollBottom: async () => {
      window.scrollTo(0, document.scrollingElement.scrollHeight);
      return reply({ kind: "done" });
    },
    scrollTo: () => onElement(async () => {
      const el = (await until(() => { const el = document.querySelector(selector); if (!el) why = "no element matches " + JSON.stringify(selector); return el; })).value;
      el.scrollIntoView({ block: "center" });
      return reply({ kind: "done" });
    }),
    // Stable means the page stopped growing: a clock or a carousel changing the page does not count.
    scrollUntilStable: async () => {
      const height = () => document.scrollingElement.scrollHeight;
      let last = -1, changed = Date.now();
      while (Date.now() - changed < settle) {
        window.scrollTo(0, height());
        await new Promise((resolve) => setTimeout(resolve, 100));
        if (height() !== last) { last = height(); changed = Date.now(); }
      }
      return reply({ kind: "done" });
    },
    waitFor: () => sliced(async () => {
      await until(() => { const value = own.code(); if (!value) why = "the expression returned " + String(value); return value; });
      return reply({ kind: "done" });
    }),
    waitForSelector: () => onElement(async () => {
      await until(() => { const el = found(); return el && shown(el) ? el : null; });
      return reply({ kind: "done" });
    }),
    evaluate: async () => {
      const before = await readBefore();
      try {
        await own.code();
      } catch (thrown) {
        return error(String(thrown && thrown.message || thrown));
      }
      return done(before);
    },
    if: () => selector === null
      ? sliced(() => decide(async () => {
        let value = own.code();
        if (typeof value === "function") value = value();
        return Boolean((await own.resolved(value)).value);
      }))
      : onElement(() => decide(async () => document.querySelector(selector) !== null)),
    nextPage: async () => {
      if (selector === null) {
        let value = own.code();
        if (typeof value === "function") value = value();
        value = (await own.resolved(value)).value;
        if (value === null || value === undefined || value === "") return reply({ kind: "lastPage" });
        return reply({ kind: "nextPage", url: new URL(String(value), location.href).href });
      }
      const invalid = invalidSelector();
      if (invalid) return invalid;
      const el = ready();
      if (!el) return reply({ kind: "lastPage" });
      const href = el.tagName === "A" ? el.href : "";
      const here = location.href.split("#")[0];
      if (/^https?:/i.test(href) && href.split("#")[0] !== here) return reply({ kind: "nextPage", url: href });
      const attribute = el.getAttribute("href");
      if (href.split("#")[0] === here && attribute && !attribute.startsWith("#") && !/^javascript:/i.test(attribute)) return reply({ kind: "lastPage" });
      el.scrollIntoView({ block: "center", inline: "center" });
      const rect = el.getBoundingClientRect();
      return reply({ kind: "clickAt", x: rect.left + rect.width / 2, y: rect.top + rect.height / 2 });
    },
    // Answers once the page has run what the action set off: the view's click arrived (WebKit queues its events, so
    // a call can overtake them; 1 s at most), or its release came without it, its default action ran, and two more
    // turns of the event loop went by. A click the page stopped before webparse's listener counts as landed, so
    // that nothing is clicked twice; a release without a click is a click that missed, made again.
    clickCheck: async () => {
      const aim = pageQuiet().click;
      pageQuiet().click = null;
      const turn = () => new Promise((resolve) => setTimeout(resolve, 0));
      let released = false;
      if (aim && aim.landed === null) await within(Promise.race([aim.arrived, aim.released.then(() => { released = true; return turn(); })]), 1000);
      await turn();
      await turn();
      const missed = aim && (aim.landed === false || aim.landed === null && released);
      return reply({ kind: "clickCheck", holds: !missed });
    },
  };

  // A step runs as a user acts, on a page that has appeared: once the document is parsed and its own scripts ran
  // (DOMContentLoaded), then after its load event for up to 3 s more, once per document, so that handlers a page
  // attaches once it is ready or loaded are there.
  const documentReady = async () => {
    if (pageQuiet().ready) return;
    if (document.readyState === "loading") await new Promise((resolve) => document.addEventListener("DOMContentLoaded", resolve, { once: true }));
    if (document.readyState !== "complete") await within(new Promise((resolve) => window.addEventListener("load", resolve, { once: true })), 3000);
    pageQuiet().ready = true;
  };

  // A reply that is not "waiting" ends the step's wait, and says what it was.
  const told = (answer) => {
    const wait = pageQuiet().stepWait;
    if (answer.kind === "waiting" || !wait) return answer;
    pageQuiet().stepWait = null;
    const what = [wait.requests ? "the page's requests" : null, wait.work].filter((part) => part !== null).join(" and ");
    return reply({ ...answer, waited: Math.round(performance.now() - wait.since), waitedFor: what });
  };

  return (async () => {
    if (kind === "nextPage" || kind === "clickCheck") return actions[kind]();
    await documentReady();
    sliceEnd = performance.now() + sliceMs;
    return told(await actions[kind]());
  })();
}
