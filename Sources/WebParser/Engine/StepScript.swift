import Foundation

/// The JavaScript of a job's steps, and what the page's replies to it mean.
///
/// Each step that needs the page is one call: it waits inside the page for what it acts on (an element that
/// exists, is visible and is enabled; re-checked on every DOM change and every 100 ms), then either acts
/// itself (fill, select, submit, scroll, evaluate) or says where the view must click, or that the element has
/// the focus for a key. A call the page interrupts (it navigated away) has not acted, and is made again in the
/// new document.
enum StepScript {
    /// The name the steps' code has in JavaScript error messages.
    static let sourceName = "webparse-step"

    /// What a step's call answered.
    enum Reply: Equatable {
        /// Click the view at this point of the viewport, in CSS pixels.
        case clickAt(x: Double, y: Double)
        /// The element has the focus: press the step's key.
        case focused
        /// The step acted in the page and is done.
        case done
        /// The next page is at this URL: load it.
        case load(URL)
        /// There is no next page.
        case lastPage
        /// The step cannot be done, and says why.
        case failed(String)
        /// The page went away while the call waited: make it again in the next document.
        case interrupted
    }

    /// The body of the async function that does `step` in the page, once the document is ready (see
    /// `documentReady`); nil for a step the page has no part in (`sleep`, `waitForNavigation`).
    static func body(of step: Step) -> String? {
        action(step).map { documentReady + $0 }
    }

    /// Waits until the document is parsed and its own scripts ran (DOMContentLoaded), then for its load event
    /// for up to 3 s more, so that handlers a page attaches once it is ready or loaded are there: a step runs
    /// as a user acts, on a page that has appeared, not while it is still arriving.
    private static let documentReady = """
        if (document.readyState === "loading") await new Promise((resolve) => document.addEventListener("DOMContentLoaded", resolve, { once: true }));
        if (document.readyState !== "complete") await new Promise((resolve) => { window.addEventListener("load", resolve, { once: true }); setTimeout(resolve, 3000); });

        """

    private static func action(_ step: Step) -> String? {
        switch step {
        case .click(let selector):
            return element(selector) + "const el = await until(ready);\n" + uncoveredClickPoint
        case .fill(let selector, let value):
            return element(selector) + """
                const el = await until(() => { const el = ready(); return el && !el.readOnly ? el : null; });
                const proto = el instanceof HTMLTextAreaElement ? HTMLTextAreaElement.prototype
                  : el instanceof HTMLInputElement ? HTMLInputElement.prototype : null;
                if (!proto && !el.isContentEditable) return { error: "the element is not a text field (" + el.tagName.toLowerCase() + ")" };
                const value = \(JavaScriptSyntax.literal(value));
                el.focus();
                if (proto) Object.getOwnPropertyDescriptor(proto, "value").set.call(el, value); else el.textContent = value;
                el.dispatchEvent(new InputEvent("input", { bubbles: true, inputType: "insertText", data: value }));
                el.dispatchEvent(new Event("change", { bubbles: true }));
                return { done: true };
                """
        case .select(let selector, let option):
            return element(selector) + """
                const wanted = \(JavaScriptSyntax.literal(option));
                const pick = (el) => Array.from(el.options || []).find((o) => o.value === wanted || o.label.trim() === wanted || o.text.trim() === wanted);
                const el = await until(() => { const el = ready(); return el && (!(el instanceof HTMLSelectElement) || pick(el)) ? el : null; });
                if (!(el instanceof HTMLSelectElement)) return { error: "the element is not a <select> (" + el.tagName.toLowerCase() + ")" };
                el.value = pick(el).value;
                el.dispatchEvent(new Event("input", { bubbles: true }));
                el.dispatchEvent(new Event("change", { bubbles: true }));
                return { done: true };
                """
        case .check(let selector, let checked):
            return element(selector) + """
                const el = await until(ready);
                if (!("checked" in el)) return { error: "the element is not a checkbox or radio button (" + el.tagName.toLowerCase() + ")" };
                if (el.checked === \(checked)) return { done: true };

                """ + uncoveredClickPoint
        case .press(_, let selector?):
            return element(selector) + "const el = await until(ready);\nel.focus();\nreturn { focused: true };\n"
        case .press(_, nil):
            return "return { focused: true };\n"
        case .submit(let selector):
            return element(selector) + """
                const el = await until(() => document.querySelector(selector));
                const form = el instanceof HTMLFormElement ? el : (el.form || el.closest("form"));
                if (!form) return { error: "the element is not a form, nor in one" };
                if (form.requestSubmit) form.requestSubmit(); else form.submit();
                return { done: true };
                """
        case .scroll(.bottom):
            return "window.scrollTo(0, document.scrollingElement.scrollHeight);\nreturn { done: true };\n"
        case .scroll(.element(let selector)):
            return element(selector) + """
                const el = await until(() => document.querySelector(selector));
                el.scrollIntoView({ block: "center" });
                return { done: true };
                """
        case .scroll(.untilStable(let settle)):
            return helpers + """
                // Stable means the page stopped growing: a clock or a carousel changing the page does not count.
                const height = () => document.scrollingElement.scrollHeight;
                let last = -1, changed = Date.now();
                while (Date.now() - changed < \(settle.milliseconds)) {
                  window.scrollTo(0, height());
                  await new Promise((resolve) => setTimeout(resolve, 100));
                  if (height() !== last) { last = height(); changed = Date.now(); }
                }
                return { done: true };
                """
        case .waitFor(let script):
            return helpers + "await until(() => (\n\(script)\n));\nreturn { done: true };\n"
        case .waitForSelector(let selector):
            return element(selector) + "await until(() => { const el = document.querySelector(selector); return el && visible(el) ? el : null; });\nreturn { done: true };\n"
        case .evaluate(let script):
            return """
                try {
                  await (async () => {
                \(script)
                  })();
                } catch (error) {
                  return { error: String(error && error.message || error) };
                }
                return { done: true };
                """
        case .sleep, .waitForNavigation:
            return nil
        }
    }

    /// The body of the async function that finds the next page: its URL (a link to a web page, or what the
    /// job's script for it returns), the point where the view must click its button, or `{last: true}`.
    static func nextPage(_ next: Pagination.Next) -> String {
        switch next {
        case .selector(let selector):
            return element(selector) + """
                const el = ready();
                if (!el) return { last: true };
                const href = el.tagName === "A" ? el.href : "";
                if (/^https?:/i.test(href) && href.split("#")[0] !== location.href.split("#")[0]) return { url: href };
                if (href.split("#")[0] === location.href.split("#")[0] && el.getAttribute("href") && !el.getAttribute("href").startsWith("#") && !/^javascript:/i.test(el.getAttribute("href"))) return { last: true };

                """ + clickPoint
        case .script(let script):
            return """
                let value = (
                \(script)
                );
                if (typeof value === "function") value = value();
                value = await value;
                if (value === null || value === undefined || value === "") return { last: true };
                return { url: new URL(String(value), location.href).href };
                """
        }
    }

    /// What `reply`, the page's answer to a step's call, means.
    static func meaning(of reply: JavaScriptReply) -> Reply {
        switch reply {
        case .json(let data):
            guard let answer = try? JSONDecoder().decode(Answer.self, from: data) else { return .failed("the page gave an unexpected answer") }
            if let error = answer.error { return .failed(error) }
            if let point = answer.at, point.count == 2 { return .clickAt(x: point[0], y: point[1]) }
            if answer.focused == true { return .focused }
            if answer.last == true { return .lastPage }
            if let url = answer.url { return URL(string: url).map(Reply.load) ?? .failed("the next page's URL is not valid: \(url)") }
            return answer.done == true ? .done : .failed("the page gave an unexpected answer")
        case .failed(_, let code, let message):
            // 699: the step's JavaScript does not parse; anything else: the document went away during the call.
            return code == 699 ? .failed(message) : .interrupted
        default:
            return .failed("the page gave an unexpected answer")
        }
    }

    /// The GDK name of `key`, given as Playwright and the DOM name keys (`Enter`, `ArrowDown`) or as GDK does.
    static func keyName(_ key: String) -> String {
        let names = ["Enter": "Return", "ArrowDown": "Down", "ArrowUp": "Up", "ArrowLeft": "Left", "ArrowRight": "Right",
                     "Backspace": "BackSpace", "PageDown": "Page_Down", "PageUp": "Page_Up", "Space": "space", " ": "space",
                     "Esc": "Escape"]
        return names[key] ?? key
    }

    private struct Answer: Decodable {
        var at: [Double]?
        var focused: Bool?
        var done: Bool?
        var error: String?
        var url: String?
        var last: Bool?
    }

    /// `until(check)`: a Promise of `check()`'s first truthy value, checked now, on every DOM change and
    /// every 100 ms (an exception counts as not yet); `visible` and `enabled` as a user sees an element.
    private static let helpers = """
        const until = (check) => new Promise((resolve) => {
          let observer = null, timer = null;
          const test = () => {
            let value = null;
            try { value = check(); } catch (_) { value = null; }
            if (!value) return false;
            if (observer) observer.disconnect();
            if (timer) clearInterval(timer);
            resolve(value);
            return true;
          };
          if (test()) return;
          observer = new MutationObserver(test);
          observer.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
          timer = setInterval(test, 100);
        });
        const visible = (el) => {
          if (el.tagName === "OPTION" || el.tagName === "OPTGROUP") el = el.closest("select") || el;
          if (!el.isConnected) return false;
          const rect = el.getBoundingClientRect();
          const style = getComputedStyle(el);
          return rect.width > 0 && rect.height > 0 && style.visibility !== "hidden" && style.display !== "none";
        };
        const enabled = (el) => !el.disabled && !el.closest("fieldset[disabled]") && el.getAttribute("aria-disabled") !== "true";

        """

    /// The helpers, `selector` (refused at once when it is not CSS), and `ready()`: the element it matches,
    /// once visible and enabled.
    private static func element(_ selector: String) -> String {
        helpers + """
            const selector = \(JavaScriptSyntax.literal(selector));
            try { document.querySelector(selector); } catch (_) { return { error: "not a valid CSS selector: " + selector }; }
            const ready = () => { const el = document.querySelector(selector); return el && visible(el) && enabled(el) ? el : null; };

            """
    }

    /// Waits until the middle of `el`, scrolled into view, is `el` itself (or inside it, or its label) and not a
    /// banner or dialog over it, then answers that point: a user clicks what they see.
    private static let uncoveredClickPoint = """
        return await until(() => {
          if (!el.isConnected) return null;
          el.scrollIntoView({ block: "center", inline: "center" });
          const rect = el.getBoundingClientRect();
          const x = rect.left + rect.width / 2, y = rect.top + rect.height / 2;
          const hit = document.elementFromPoint(x, y);
          const mine = hit && (hit === el || el.contains(hit) || Array.from(el.labels || []).some((label) => label.contains(hit)));
          return mine ? { at: [x, y] } : null;
        });

        """

    /// Scrolls `el` into view and answers the middle of it.
    private static let clickPoint = """
        el.scrollIntoView({ block: "center", inline: "center" });
        const rect = el.getBoundingClientRect();
        return { at: [rect.left + rect.width / 2, rect.top + rect.height / 2] };

        """
}
