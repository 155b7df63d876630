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

    /// The body of the async function that does `step` in the page (`step.js`), once the document is ready, after
    /// `preamble` (`PageQuiet.preamble`): an action on an element waits for the page to have been quiet for
    /// `settle`, and with a `probe` (a JavaScript expression whose value is a Promise of the job's answer), the
    /// answer just before the step acts comes back as `before`. Nil for a step the page has no part in (`sleep`,
    /// `waitForNavigation`). The job's own code (of `evaluate`, `waitFor`, an `if` script) sees none of webparse's
    /// names, which could hide the page's globals it reads.
    static func body(of step: Step, settle: Duration, probe: String? = nil, preamble: String) -> String? {
        guard let spec = spec(of: step, settle: settle) else { return nil }
        return ownCode(of: step) + "return await (async () => {\n" + preamble
            + "return await " + call(spec, quiet: "quiet", hasCode: ownCode(of: step) != "", probe: probe) + ";\n})();\n"
    }

    /// The job's own code in `step`, as a function (`stepCode`) defined before webparse's code, in a scope without
    /// its names; "" for a step without code of the job's.
    private static func ownCode(of step: Step) -> String {
        switch step {
        case .evaluate(let script): "const stepCode = async () => {\n\(script)\n};\n"
        case .waitFor(let script), .when(.script(let script), _, _): "const stepCode = () => (\n\(script)\n);\n"
        default: ""
        }
    }

    /// A call of `step.js` with `spec`, the page's quiet functions under the name `quiet` (or "null"), the job's code
    /// (`stepCode`) when it has some, and the `probe` of its answer.
    private static func call(_ spec: [(key: String, value: JSONText.Value)], quiet: String, hasCode: Bool, probe: String? = nil)
        -> String
    {
        let settings = JSONText.text(.object([("sliceMs", .integer(Int(slice.milliseconds)))] + spec))
        let own =
            "{ __proto__: null, code: \(hasCode ? "stepCode" : "null"), probe: \(probe.map { "() => \($0)" } ?? "null"), "
            + "resolved: \(ScriptSource.resolved) }"
        return ScriptSource.call(ScriptSource.step, settings, quiet, own)
    }

    /// What `step.js` is told of `step`: its kind, the selector (null for none), what it types, picks or checks,
    /// and its settle time in ms (what an element waits for to be quiet, an `if`'s decision time, a scroll's
    /// stillness).
    private static func spec(of step: Step, settle: Duration) -> [(key: String, value: JSONText.Value)]? {
        let settle = Int(settle.milliseconds)
        func on(_ kind: String, _ selector: String?, settle: Int = settle, _ more: [(key: String, value: JSONText.Value)] = [])
            -> [(key: String, value: JSONText.Value)]
        {
            [("kind", .string(kind)), ("selector", selector.map(JSONText.Value.string) ?? .null), ("settle", .integer(settle))] + more
        }
        switch step {
        case .click(let selector): return on("click", selector)
        case .fill(let selector, let value): return on("fill", selector, [("value", .string(value))])
        case .select(let selector, let option): return on("select", selector, [("option", .string(option))])
        case .check(let selector, let checked): return on("check", selector, [("checked", .bool(checked))])
        case .press(_, let selector): return on("press", selector)
        case .submit(let selector): return on("submit", selector)
        case .scroll(.bottom): return on("scrollBottom", nil)
        case .scroll(.element(let selector)): return on("scrollTo", selector, settle: 0)
        case .scroll(.untilStable(let stable)): return on("scrollUntilStable", nil, settle: Int(stable.milliseconds))
        case .waitFor: return on("waitFor", nil)
        case .waitForSelector(let selector): return on("waitForSelector", selector, settle: 0)
        case .evaluate: return on("evaluate", nil)
        case .when(let condition, _, _):
            let selector: String? = if case .selector(let selector) = condition { selector } else { nil }
            return on("if", selector, [("condition", .string(condition.description))])
        case .sleep, .waitForNavigation: return nil
        }
    }

    /// The body of the async function that finds the next page: its URL (a link to a web page, or what the
    /// job's script for it returns), the point where the view must click its button, or that there is none
    /// (`PageAnswer.lastPage`).
    static func nextPage(_ next: Pagination.Next) -> String {
        switch next {
        case .selector(let selector):
            return "return await "
                + call([("kind", .string("nextPage")), ("selector", .string(selector)), ("settle", .integer(0))], quiet: "null", hasCode: false)
                + ";\n"
        case .script(let script):
            return "const stepCode = () => (\n\(script)\n);\n"
                + "return await " + call([("kind", .string("nextPage")), ("selector", .null), ("settle", .integer(0))], quiet: "null", hasCode: true)
                + ";\n"
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
        "return await (async () => {\n" + preamble + "return await "
            + call([("kind", .string("clickCheck")), ("selector", .null), ("settle", .integer(0))], quiet: "quiet", hasCode: false) + ";\n})();\n"
    }

    /// What `reply`, the page's answer to a step's call, means.
    static func meaning(of reply: JavaScriptReply) -> Reply {
        switch reply {
        case .json(let data):
            switch PageAnswer.read(data)?.answer {
            case .error(let failure)?: return .failed(failure.message)
            case .waiting(let why)?: return .waiting(why)
            case .decided(let holds)?: return .decided(holds)
            case .clickAt(let x, let y, _, _)?: return .clickAt(x: x, y: y)
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
    /// already checked), the job's answer just before it acted, as JSON text, when the call was made with a
    /// probe and the answer was not empty, and what the step waited for before it acted, when the page had work
    /// scheduled.
    static func effect(of reply: JavaScriptReply) -> (acted: Bool, answerBefore: Data?, waited: StepWait?) {
        guard case .json(let data) = reply else { return (true, nil, nil) }
        switch PageAnswer.read(data)?.answer {
        case .done(let acted, let before, let waited)?: return (acted, before.map { Data($0.utf8) }, waited)
        case .clickAt(_, _, let before, let waited)?, .focused(let before, let waited)?: return (true, before.map { Data($0.utf8) }, waited)
        default: return (true, nil, nil)
        }
    }
}
