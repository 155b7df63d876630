import FoundationEssentials

/// The JavaScript of a job's steps, and what the page's replies to it mean.
///
/// Each step that needs the page is one call: it waits inside the page for what it acts on (an element that
/// exists, is visible and is enabled, on a page whose data requests have been quiet for the settle time;
/// re-checked on every DOM change and every 100 ms), then either acts itself (fill, select, submit, scroll,
/// evaluate) or says where the view must click, or that the element has the focus for a key. A call that waited
/// a whole slice without acting answers why it waits, and is made again. A call the page interrupts (it navigated
/// away) has not acted, and is made again in the new document. Every call starts with `PageQuiet.preamble`,
/// which the attempt adds.
enum StepScript {
    /// The name the steps' code has in JavaScript error messages.
    static let sourceName = "webparse-step"

    /// How long one call waits for what its step needs before it answers why it still waits.
    static let slice: Duration = .milliseconds(500)

    /// What a step's call answered.
    enum Reply: Equatable {
        /// Click the view at this point of the viewport, in CSS pixels.
        case clickAt(x: Double, y: Double)
        /// The element has the focus: press the step's key.
        case focused
        /// The step acted in the page and is done.
        case done
        /// The last click landed on its element (or cannot be told), or missed it.
        case clickLanded(Bool)
        /// An `if` step's condition, decided on the settled page.
        case decided(Bool)
        /// The step waited a whole slice without acting, for the reason given: call it again.
        case waiting(String)
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
    /// `documentReady`), after `preamble` (`PageQuiet.preamble`): an action on an element waits for the page to
    /// have been quiet for `settle`, and with a `probe` (a JavaScript expression whose value is a Promise of the
    /// job's answer), the answer just before the step acts comes back as `before`. Nil for a step the page has
    /// no part in (`sleep`, `waitForNavigation`). The job's own code (of `evaluate`, `waitFor`, an `if` script)
    /// sees none of webparse's names, which could hide the page's globals it reads.
    static func body(of step: Step, settle: Duration, probe: String? = nil, preamble: String) -> String? {
        guard let action = action(step, settle: settle.milliseconds) else { return nil }
        // The answer before the step acts, read for at most 250 ms: a script still waiting for what only the steps
        // bring must not hold the step up.
        let readBefore =
            probe.map { "const readBefore = () => Promise.race([\($0), new Promise((resolve) => setTimeout(() => resolve(null), 250))]);\n" }
            ?? "const readBefore = async () => null;\n"
        return ownCode(of: step) + "return await (async () => {\n" + preamble + prologue + readBefore + documentReady + action + "})();\n"
    }

    /// The job's own code in `step`, as a function defined before webparse's code (in a scope without its names).
    private static func ownCode(of step: Step) -> String {
        switch step {
        case .evaluate(let script): "const evaluateStep = async () => {\n\(script)\n};\n"
        case .waitFor(let script): "const waitForStep = () => (\n\(script)\n);\n"
        case .when(.script(let script), _, _): "const condition = () => (\n\(script)\n);\n"
        default: ""
        }
    }

    /// What every call's code starts with: `why` (what a step still waits for) and `stillWaiting` (what `until`
    /// rejects with once the call's slice is over), at the top of the function, where `sliced` can read them.
    private static let prologue = "let why = \"\";\nconst stillWaiting = {};\n"

    /// Waits until the document is parsed and its own scripts ran (DOMContentLoaded), then for its load event
    /// for up to 3 s more, once per document, so that handlers a page attaches once it is ready or loaded are
    /// there: a step runs as a user acts, on a page that has appeared, not while it is still arriving.
    private static let documentReady = """
        if (!pageQuiet().ready) {
        if (document.readyState === "loading") await new Promise((resolve) => document.addEventListener("DOMContentLoaded", resolve, { once: true }));
        if (document.readyState !== "complete") await new Promise((resolve) => { window.addEventListener("load", resolve, { once: true }); setTimeout(resolve, 3000); });
        pageQuiet().ready = true;
        }

        """

    /// Reads the answer before the step acts (`readBefore`), then checks that the element `el` is still there.
    private static let readAnswer = """
        const before = await readBefore();
        if (!el.isConnected) { why = "the element it matched was removed from the page (detached)"; throw stillWaiting; }

        """

    private static func action(_ step: Step, settle: Int64) -> String? {
        switch step {
        case .click(let selector):
            return sliced(element(selector, settle: settle) + clickPoint)
        case .fill(let selector, let value):
            return sliced(
                element(selector, settle: settle) + """
                    const el = (await until(() => { const el = ready(); if (el && el.readOnly) { why = "an element matches, but it is read-only"; return null; } return el; })).value;
                    const proto = el instanceof HTMLTextAreaElement ? HTMLTextAreaElement.prototype
                      : el instanceof HTMLInputElement ? HTMLInputElement.prototype : null;
                    if (!proto && !el.isContentEditable) return { __proto__: null, kind: "error", message: "the element is not a text field (" + el.tagName.toLowerCase() + ")" };
                    const value = \(JavaScriptSyntax.literal(value));
                    \(readAnswer)el.focus();
                    if (proto) Object.getOwnPropertyDescriptor(proto, "value").set.call(el, value); else el.textContent = value;
                    el.dispatchEvent(new InputEvent("input", { bubbles: true, inputType: "insertText", data: value }));
                    el.dispatchEvent(new Event("change", { bubbles: true }));
                    return { __proto__: null, kind: "done", before };
                    """)
        case .select(let selector, let option):
            return sliced(
                element(selector, settle: settle) + """
                    const wanted = \(JavaScriptSyntax.literal(option));
                    const pick = (el) => Array.from(el.options || []).find((o) => o.value === wanted || o.label.trim() === wanted || o.text.trim() === wanted);
                    const el = (await until(() => { const el = ready(); if (el && el instanceof HTMLSelectElement && !pick(el)) { why = "the <select> has no option " + JSON.stringify(wanted) + " yet"; return null; } return el; })).value;
                    if (!(el instanceof HTMLSelectElement)) return { __proto__: null, kind: "error", message: "the element is not a <select> (" + el.tagName.toLowerCase() + ")" };
                    \(readAnswer)el.value = pick(el).value;
                    el.dispatchEvent(new Event("input", { bubbles: true }));
                    el.dispatchEvent(new Event("change", { bubbles: true }));
                    return { __proto__: null, kind: "done", before };
                    """)
        case .check(let selector, let checked):
            return sliced(
                element(selector, settle: settle) + """
                    const box = (await until(ready)).value;
                    if (!("checked" in box)) return { __proto__: null, kind: "error", message: "the element is not a checkbox or radio button (" + box.tagName.toLowerCase() + ")" };
                    if (box.checked === \(checked)) return { __proto__: null, kind: "done", acted: false };

                    """ + clickPoint)
        case .press(_, let selector?):
            return sliced(
                element(selector, settle: settle)
                    + "const el = (await until(ready)).value;\n\(readAnswer)el.focus();\nreturn { __proto__: null, kind: \"focused\", before };\n")
        case .press(_, nil):
            let wait =
                settle == 0 ? "" : "await until(() => quietFor(\(settle)) || (settledIn(\(settle)), (why = \"the page was still loading data\"), null));\n"
            return sliced(helpers + wait + "const before = await readBefore();\nreturn { __proto__: null, kind: \"focused\", before };\n")
        case .submit(let selector):
            return sliced(
                element(selector, settle: settle) + """
                    const el = (await until(() => { const el = document.querySelector(selector); if (!el) why = "no element matches " + JSON.stringify(selector); return el && settled() ? el : null; })).value;
                    const form = el instanceof HTMLFormElement ? el : (el.form || el.closest("form"));
                    if (!form) return { __proto__: null, kind: "error", message: "the element is not a form, nor in one" };
                    \(readAnswer)if (form.requestSubmit) form.requestSubmit(); else form.submit();
                    return { __proto__: null, kind: "done", before };
                    """)
        case .scroll(.bottom):
            return "window.scrollTo(0, document.scrollingElement.scrollHeight);\nreturn { __proto__: null, kind: \"done\" };\n"
        case .scroll(.element(let selector)):
            return sliced(
                element(selector, settle: 0) + """
                    const el = (await until(() => { const el = document.querySelector(selector); if (!el) why = "no element matches " + JSON.stringify(selector); return el; })).value;
                    el.scrollIntoView({ block: "center" });
                    return { __proto__: null, kind: "done" };
                    """)
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
                return { __proto__: null, kind: "done" };
                """
        case .waitFor:
            return sliced(
                helpers + """
                    await until(() => { const value = waitForStep(); if (!value) why = "the expression returned " + String(value); return value; });
                    return { __proto__: null, kind: "done" };
                    """)
        case .waitForSelector(let selector):
            return sliced(
                element(selector, settle: 0)
                    + "await until(() => { const el = found(); return el && shown(el) ? el : null; });\nreturn { __proto__: null, kind: \"done\" };\n")
        case .evaluate:
            return """
                const before = await readBefore();
                try {
                  await evaluateStep();
                } catch (error) {
                  return { __proto__: null, kind: "error", message: String(error && error.message || error) };
                }
                return { __proto__: null, kind: "done", before };
                """
        case .when(let condition, _, _):
            let holds =
                switch condition {
                case .selector(let selector):
                    "const selector = \(JavaScriptSyntax.literal(selector));\n"
                        + "try { document.querySelector(selector); } catch (_) { return { __proto__: null, kind: \"error\", message: \"not a valid CSS selector: \" + selector }; }\n"
                        + "const holds = async () => document.querySelector(selector) !== null;\n"
                case .script:
                    JavaScriptSyntax.resolvedDefinition
                        + "const holds = async () => { let value = condition(); if (typeof value === \"function\") value = value(); return Boolean((await resolved(value)).value); };\n"
                }
            return sliced(
                helpers + holds + """
                    // Decided once the answer has stayed the same on a page quiet for the settle time; what was seen is
                    // kept in the document, for the calls after a slice.
                    const seen = (pageQuiet().conditions ??= {})[\(JavaScriptSyntax.literal(condition.description))] ??= { since: 0 };
                    for (;;) {
                      let value = false;
                      try { value = await holds(); } catch (_) { value = false; }
                      const now = performance.now();
                      if (value !== seen.value) { seen.value = value; seen.since = now; }
                      if (quietFor(\(settle)) && (now - seen.since >= \(settle) || isStill() || workDone())) return { __proto__: null, kind: "decided", holds: value };
                      why = pageQuiet().busy ? "the page was still loading data" : "the condition had not given the same answer for \(settle) ms";
                      if (now >= sliceEnd) throw stillWaiting;
                      await nextChange(50, true);
                    }
                    """)
        case .sleep, .waitForNavigation:
            return nil
        }
    }

    /// `body` made to answer `waiting` (`PageAnswer`) with `why` when what it waits for has not come within a slice (`why` and
    /// `stillWaiting` are the `prologue`'s).
    private static func sliced(_ body: String) -> String {
        "try {\n" + body + "\n} catch (error) {\nif (error === stillWaiting) return { __proto__: null, kind: \"waiting\", text: why };\nthrow error;\n}\n"
    }

    /// The body of the async function that finds the next page: its URL (a link to a web page, or what the
    /// job's script for it returns), the point where the view must click its button, or that there is none (`PageAnswer.lastPage`).
    static func nextPage(_ next: Pagination.Next) -> String {
        switch next {
        case .selector(let selector):
            return prologue + element(selector, settle: 0) + """
                const el = ready();
                if (!el) return { __proto__: null, kind: "lastPage" };
                const href = el.tagName === "A" ? el.href : "";
                if (/^https?:/i.test(href) && href.split("#")[0] !== location.href.split("#")[0]) return { __proto__: null, kind: "nextPage", url: href };
                if (href.split("#")[0] === location.href.split("#")[0] && el.getAttribute("href") && !el.getAttribute("href").startsWith("#") && !/^javascript:/i.test(el.getAttribute("href"))) return { __proto__: null, kind: "lastPage" };

                """ + middlePoint
        case .script(let script):
            return """
                const nextScript = () => (
                \(script)
                );
                \(JavaScriptSyntax.resolvedDefinition)return await (async () => {
                let value = nextScript();
                if (typeof value === "function") value = value();
                value = (await resolved(value)).value;
                if (value === null || value === undefined || value === "") return { __proto__: null, kind: "lastPage" };
                return { __proto__: null, kind: "nextPage", url: new URL(String(value), location.href).href };
                })();
                """
        }
    }

    /// The body of the call made after a step acted, after `preamble` (`PageQuiet.preamble`). It answers once the
    /// page has run what the action set off: the view's click arrived (WebKit queues its events, so a call can
    /// overtake them; 1 s at most), its event's default action ran, and two more turns of the event loop went by,
    /// in which WebKit starts the navigations a link, a form or a script's `location` scheduled, asking the UI
    /// process before this answer. It says whether the last click landed on its element: false only when the
    /// click reached the page on something else; when it did not reach webparse's listener at all (the page
    /// stopped it), it counts as landed, so that nothing is clicked twice.
    static func actionCheck(preamble: String) -> String {
        "return await (async () => {\n" + preamble + """
            const aim = pageQuiet().click;
            pageQuiet().click = null;
            const turn = () => new Promise((resolve) => setTimeout(resolve, 0));
            if (aim && aim.landed === null) await Promise.race([aim.arrived, new Promise((resolve) => setTimeout(resolve, 1000))]);
            await turn();
            await turn();
            return { __proto__: null, kind: "clickCheck", holds: !aim || aim.landed !== false };
            })();

            """
    }

    /// What `reply`, the page's answer to a step's call, means.
    static func meaning(of reply: JavaScriptReply) -> Reply {
        switch reply {
        case .json(let data):
            switch PageAnswer.read(data)?.answer {
            case .error(let failure)?: return .failed(failure.message)
            case .waiting(let why)?: return .waiting(why)
            case .decided(let holds)?: return .decided(holds)
            case .clickAt(let x, let y, _)?: return .clickAt(x: x, y: y)
            case .focused?: return .focused
            case .lastPage?: return .lastPage
            case .nextPage(let url)?: return URL(string: url).map(Reply.load) ?? .failed("the next page's URL is not valid: \(url)")
            case .done?: return .done
            case .clickChecked(let landed)?: return .clickLanded(landed)
            default: return .failed("the page gave an unexpected answer")
            }
        case .failed(let error):
            // The step's JavaScript does not parse; anything else: the document went away during the call.
            return error.kind == .scriptFailed ? .failed(error.message) : .interrupted
        default:
            return .failed("the page gave an unexpected answer")
        }
    }

    /// The GDK name of `key`, given as Playwright and the DOM name keys (`Enter`, `ArrowDown`) or as GDK does.
    static func keyName(_ key: String) -> String {
        let names = [
            "Enter": "Return", "ArrowDown": "Down", "ArrowUp": "Up", "ArrowLeft": "Left", "ArrowRight": "Right",
            "Backspace": "BackSpace", "PageDown": "Page_Down", "PageUp": "Page_Up", "Space": "space", " ": "space",
            "Esc": "Escape"
        ]
        return names[key] ?? key
    }

    /// What a step's reply says of its effect: whether it acted (false when it found nothing to do, such as a box
    /// already checked), and the job's answer just before it acted, as JSON text, when the call was made with a
    /// probe and the answer was not empty.
    static func effect(of reply: JavaScriptReply) -> (acted: Bool, answerBefore: Data?) {
        guard case .json(let data) = reply else { return (true, nil) }
        switch PageAnswer.read(data)?.answer {
        case .done(let acted, let before)?: return (acted, before.map { Data($0.utf8) })
        case .clickAt(_, _, let before)?, .focused(let before)?: return (true, before.map { Data($0.utf8) })
        default: return (true, nil)
        }
    }
}
