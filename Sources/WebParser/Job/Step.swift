import FoundationEssentials

/// An action on the page, run once, in order, after the page commits and before the job's script is evaluated
/// (Playwright's `click`, `fill`, `press`…). Actions on an element wait for it to exist, be visible and be
/// enabled; an action that makes the page navigate has the next step run in the new document once it has
/// committed. Clicks and keys reach the page as a user's input through the view (`event.isTrusted` is true).
public enum Step: Sendable, Equatable, CustomStringConvertible {
    /// Clicks the middle of the element `selector` matches, scrolled into view.
    case click(selector: String)
    /// Gives the text field `selector` matches the text `value`, as typing it would (`input` and `change`
    /// events); the value is never shown in messages.
    case fill(selector: String, value: String)
    /// Chooses the option whose value or label is `option` in the `<select>` `selector` matches.
    case select(selector: String, option: String)
    /// Clicks the checkbox or radio button `selector` matches unless it is already `checked` so.
    case check(selector: String, checked: Bool)
    /// Presses and releases `key` (`Enter`, `Tab`, `ArrowDown`, `a`…), on the element `selector` matches (which
    /// gets the focus first) or on whatever has the focus.
    case press(key: String, selector: String?)
    /// Submits the form `selector` matches (or the form of the element it matches), as its submit button does.
    case submit(selector: String)
    /// Scrolls the page.
    case scroll(Scroll)
    /// Waits until the JavaScript expression `script` is truthy.
    case waitFor(script: String)
    /// Waits until an element matches `selector` and is visible.
    case waitForSelector(String)
    /// Waits until a navigation that started after the previous step has committed.
    case waitForNavigation
    /// Runs `script` (statements; `await` allowed) once in the page.
    case evaluate(script: String)
    /// Waits for `duration` (prefer the other waits: a fixed sleep is too short on a slow day, too long on
    /// others).
    case sleep(Duration)
    /// Runs the steps `then` when `condition` holds, else the steps `otherwise`, decided once, when the page has
    /// settled (see `Evaluation.settle`): a login form that is there is filled, one that is not costs no wait.
    indirect case when(Condition, then: [Step], otherwise: [Step])

    /// What an `if` step asks of the page.
    public enum Condition: Sendable, Equatable, CustomStringConvertible {
        /// An element matches the CSS selector.
        case selector(String)
        /// The JavaScript expression (or function) is truthy.
        case script(String)

        /// The condition for messages: `"#login"`, `script "…"`.
        public var description: String {
            switch self {
            case .selector(let selector): Step.quoted(selector)
            case .script(let script): "script " + Step.quoted(script)
            }
        }
    }

    /// Where a `scroll` step goes.
    public enum Scroll: Sendable, Equatable {
        /// To the bottom of the page, once.
        case bottom
        /// The element `selector` matches into view.
        case element(String)
        /// To the bottom again and again until nothing new has arrived for `settle` (infinite scroll).
        case untilStable(settle: Duration)
    }

    /// Whether the step changes the page as a user would (a click, typing, a submit, a script), rather than only
    /// waiting or scrolling.
    var actsOnPage: Bool {
        switch self {
        case .click, .fill, .select, .check, .press, .submit, .evaluate: true
        case .scroll, .waitFor, .waitForSelector, .waitForNavigation, .sleep, .when: false
        }
    }

    /// How long `untilStable` waits for new content by default.
    public static let defaultSettle: Duration = .seconds(1)

    /// The step's action and what it acts on, for messages: `click "#next"`; never a filled value.
    public var description: String {
        switch self {
        case .click(let selector): "click \(Self.quoted(selector))"
        case .fill(let selector, _): "fill \(Self.quoted(selector))"
        case .select(let selector, let option): "select \(Self.quoted(option)) in \(Self.quoted(selector))"
        case .check(let selector, let checked): "\(checked ? "check" : "uncheck") \(Self.quoted(selector))"
        case .press(let key, let selector): "press \(key)" + (selector.map { " on \(Self.quoted($0))" } ?? "")
        case .submit(let selector): "submit \(Self.quoted(selector))"
        case .scroll(.bottom): "scroll to the bottom"
        case .scroll(.element(let selector)): "scroll to \(Self.quoted(selector))"
        case .scroll(.untilStable): "scroll until nothing new loads"
        case .waitFor(let script): "waitFor \(Self.quoted(script))"
        case .waitForSelector(let selector): "waitForSelector \(Self.quoted(selector))"
        case .waitForNavigation: "waitForNavigation"
        case .evaluate: "evaluate"
        case .sleep(let duration): "sleep \(Double(duration.milliseconds) / 1000) s"
        case .when(let condition, _, _): "if \(condition)"
        }
    }

    fileprivate static func quoted(_ text: String) -> String {
        "\"" + (text.count > 60 ? text.prefix(60) + "…" : text) + "\""
    }
}
