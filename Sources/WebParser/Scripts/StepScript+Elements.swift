import FoundationEssentials

/// The steps' code that finds what a step acts on: waiting for an element to match, be visible, enabled and on a
/// settled page (`element`), and the point where the view clicks it (`clickPoint`, `middlePoint`).
extension StepScript {
    /// `until(check)`: a Promise of `{value}`, `check()`'s first truthy value, checked now, on every DOM change and
    /// every 100 ms (an exception counts as not yet); it rejects with `stillWaiting` once the call's slice is over,
    /// with `why` saying what was missing. `describe` names an element (`tag#id.class`); `hidden` says why an
    /// element is not visible ("" when it is), `disabled` why it cannot be used.
    static let helpers = """
        const sliceEnd = performance.now() + \(slice.milliseconds);
        // `check` is tried again at every DOM change, whenever requests start or stop being in flight, 100 ms
        // after the last try, or sooner when a check says by `settledIn` when the page will have been quiet long
        // enough.
        let wakeIn = 100;
        const settledIn = (ms) => { wakeIn = Math.min(wakeIn, quietIn(ms)); };
        const until = (check) => new Promise((resolve, reject) => {
          const state = pageQuiet();
          let observer = null, timer = null, done = false;
          const stop = () => { done = true; if (observer) observer.disconnect(); clearTimeout(timer); state.wakers.delete(test); };
          const test = () => {
            if (done) return true;
            let value = null;
            wakeIn = 100;
            try { value = check(); } catch (error) { value = null; why = String(error && error.message || error); }
            if (value) { stop(); resolve({ __proto__: null, value }); return true; }
            const now = performance.now();
            if (now >= sliceEnd) { stop(); reject(stillWaiting); return true; }
            clearTimeout(timer);
            timer = setTimeout(test, Math.max(1, Math.min(wakeIn, sliceEnd - now)));
            return false;
          };
          if (test()) return;
          observer = new MutationObserver(test);
          observer.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
          state.wakers.add(test);
        });
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

        """

    /// The helpers, `selector` (refused at once when it is not CSS), `found()` (the element it matches, if any;
    /// saying in `why` when none does), `settled()` (whether the page has been quiet for `settle` ms) and
    /// `ready()`: the element, once visible and enabled on a settled page.
    static func element(_ selector: String, settle: Int64) -> String {
        helpers + """
            const selector = \(JavaScriptSyntax.literal(selector));
            try { document.querySelector(selector); } catch (_) { return { __proto__: null, kind: "error", message: "not a valid CSS selector: " + selector }; }
            let matched = false;
            const found = () => {
              const el = document.querySelector(selector);
              if (el) matched = true;
              else why = matched ? "the element it matched was removed from the page (detached), and none matches now" : "no element matches " + JSON.stringify(selector);
              return el;
            };
            const settled = () => { if (\(settle == 0 ? "true" : "quietFor(\(settle))")) return true; settledIn(\(settle)); why = "the element is ready, but the page was still loading data"; return false; };
            const ready = () => {
              const el = found();
              if (!el || !shown(el)) return null;
              const reason = disabled(el);
              if (reason) { why = "an element matches, but " + reason; return null; }
              return settled() ? el : null;
            };

            """
    }

    /// Waits until the middle of the element `ready()` gives, scrolled into view, is that element itself (or
    /// inside it, or its label) and not a banner or dialog over it, then answers that point: a user clicks what
    /// they see. The point is found again after the answer before the step is read.
    static let clickPoint = """
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
          return { __proto__: null, kind: "clickAt", x, y };
        };
        await until(target);
        const before = await readBefore();
        const point = target();
        if (!point) throw stillWaiting;
        // Where the view's click lands, for actionCheck: on the element (or its label), or, when a re-render replaced
        // it before the click arrived, on the element that matches now; else on something else.
        const aim = pageQuiet().click = { __proto__: null, landed: null };
        const within = (el, hit) => !!el && (el.contains(hit) || Array.from(el.labels || []).some((label) => label.contains(hit)));
        aim.arrived = new Promise((resolve) => addEventListener("click", (event) => {
          aim.landed = within(aimed, event.target) || (!aimed.isConnected && within(document.querySelector(selector), event.target));
          resolve();
        }, { capture: true, once: true }));
        return { __proto__: null, ...point, before };

        """

    /// Scrolls `el` into view and answers the middle of it.
    static let middlePoint = """
        el.scrollIntoView({ block: "center", inline: "center" });
        const rect = el.getBoundingClientRect();
        return { __proto__: null, kind: "clickAt", x: rect.left + rect.width / 2, y: rect.top + rect.height / 2 };

        """
}
