import FoundationEssentials

/// The decisions about a job's steps within one attempt, made without a page or a clock: which step runs, in
/// which document, and when the next may start. Each step runs once: a call that the page interrupted had not
/// acted and is made again in the next document. After a step acted, the runner asks the page once its event
/// loop has run what the action set off (`checkAction`): WebKit asks to navigate before that answer comes back
/// when the action navigates (a link, a form, a script's `location`), and the runner then waits for the new
/// document; otherwise the next step runs at once. An `if` step's branch takes its place once the page has
/// decided it.
struct StepRunner {
    /// What the attempt does for the steps.
    enum Command: Equatable {
        /// Calls `step`'s code (`StepScript.body`) in the current document (number `document`); its reply comes
        /// to `received`. With `probes`, the call reads the job's answer before it acts, so the job's script must be
        /// in the document.
        case call(Step, document: Int, probes: Bool)
        /// Clicks the view at this point of the viewport.
        case click(x: Double, y: Double)
        /// Asks the current document (number `document`), once what the last action set off has run, whether
        /// the last click landed on its element (`StepScript.actionCheck`); the reply comes to `received`.
        case checkAction(document: Int)
        /// Presses the key with this GDK name.
        case press(key: String)
        /// Calls `due(timer)` after the duration.
        case later(Duration, timer: Int)
        /// The step `place` failed.
        case fail(place: String, Step, reason: String)
        /// An `if` step chose a branch: say so.
        case decided(place: String, Step, branch: Bool)
        /// The step `place` waited for the page's requests or scheduled work before it acted: say so.
        case waited(place: String, Step, StepWait)
        /// Every step is done: the job's script may run.
        case finished
    }

    /// How long a navigation WebKit was asked for is waited for to start in the page's own frame, before it is
    /// taken for a frame's or one that will not start.
    static let navigationStart: Duration = .seconds(1)
    /// How long after an interrupted call without a new document the call is made again.
    static let retryDelay: Duration = .milliseconds(100)
    /// How many times a click that landed on something else than its element (which moved away before the
    /// click arrived) is made again.
    static let clickRetries = 3

    /// A step with its place among the job's steps: `3`, or `2.then.1` for the first of an `if`'s branch.
    struct Placed: Equatable {
        var place: String
        var step: Step
    }

    /// The steps to run, the branches of decided `if` steps in their place.
    private(set) var steps: [Placed]
    /// Whether the job's answer is read just before the first step that acts.
    private let readsAnswerBefore: Bool
    /// The step running, from 0; `steps.count` once all are done.
    private(set) var index = 0
    /// What the runner waits for, with the timer that ends the wait, when one does.
    private enum Phase: Equatable {
        /// A document in which to call the current step; with `retry`, the timer after which the call is made
        /// again in the document the page shows.
        case waitingForDocument(retry: Int?)
        /// The current step's call.
        case calling
        /// The page's answer whether the last action's click landed.
        case checkingAction
        /// A navigation WebKit was asked for to start, until `timer`.
        case waitingForStart(timer: Int)
        /// A `sleep` step's `timer`.
        case sleeping(timer: Int)
        case finished
    }

    /// A step's click, to be checked once the page has run what it set off (if no document replaced the page):
    /// the step, and whether the click missed its element.
    private struct Click: Equatable {
        var step: Int
        var missed = false
    }

    private var phase = Phase.waitingForDocument(retry: nil)
    /// Documents committed so far, and how many there were when a step last acted.
    private var documents = 0
    private var documentsAtLastAct = 0
    /// A load started and has not committed yet.
    private var navigating = false
    /// WebKit was asked to navigate (the page or one of its frames) since the current step's call, and no load of
    /// the page or change of its URL followed yet.
    private var askedToNavigate = false
    /// The last step's click, and how many clicks of the step missed.
    private var click: Click?
    private var missedClicks = 0
    /// The number of the last timer set.
    private var timers = 0
    /// Whether a step has acted on the page (clicked, typed, submitted, run a script): an attempt that fails
    /// after that is not retried.
    private(set) var hasActed = false
    /// The job's answer just before the first step acted, as JSON text, if it was not empty.
    private(set) var answerBefore: Data?
    /// Why the running step has not acted yet, as its last call said.
    private(set) var waitingFor: String?

    /// The runner of `steps`, reading the job's answer just before the first step that acts when
    /// `readsAnswerBefore`.
    init(steps: [Step], readsAnswerBefore: Bool = false) {
        self.steps = steps.enumerated().map { Placed(place: String($0.offset + 1), step: $0.element) }
        self.readsAnswerBefore = readsAnswerBefore
        if steps.isEmpty { phase = .finished }
    }

    var isFinished: Bool { phase == .finished }

    /// Whether a document has committed, so that the steps are running on a page (and not waiting for its server).
    var hasDocument: Bool { documents > 0 }

    /// The step running, if any, with its place.
    var current: Placed? { index < steps.count ? steps[index] : nil }

    /// A load that started ended without a document (replaced, stopped or refused): the current step runs
    /// again in the document the page still shows, if it was waiting for one.
    mutating func loadAbandoned() -> [Command] {
        navigating = false
        askedToNavigate = false
        if case .waitingForStart = phase { return proceed() }
        guard case .waitingForDocument = phase, let current else { return [] }
        if case .waitForNavigation = current.step { return [] }
        return begin()
    }

    /// A load of the page began.
    mutating func loadStarted() {
        navigating = true
        askedToNavigate = false
        if case .waitingForStart = phase { phase = .waitingForDocument(retry: nil) }
    }

    /// WebKit was asked to navigate the page or one of its frames, and the navigation was allowed.
    mutating func navigationAsked() {
        askedToNavigate = true
    }

    /// The page's URL changed without a new document (a fragment, `history.pushState`): a navigation asked for
    /// was one within the document.
    mutating func urlChanged() -> [Command] {
        askedToNavigate = false
        if case .waitingForStart = phase { return proceed() }
        return []
    }

    /// A new document committed; the current step (again, if its call was cut short) runs in it.
    mutating func committed() -> [Command] {
        documents += 1
        navigating = false
        askedToNavigate = false
        click = nil
        switch phase {
        case .finished, .sleeping: return []
        default: break
        }
        if phase == .calling, case .evaluate = current?.step {
            // The script was running when its document went: it ran, and does not run again.
            hasActed = true
            documentsAtLastAct = documents - 1
            index += 1
        }
        return begin()
    }

    /// The reply of the call made in `document`.
    mutating func received(_ reply: JavaScriptReply, document: Int) -> [Command] {
        let meaning = StepScript.meaning(of: reply)
        if phase == .checkingAction, document == documents {
            switch meaning {
            case .clickLanded(let landed):
                click?.missed = !landed
                return proceed()
            case .interrupted:
                // The document is going away: its successor's commit runs the next step.
                return waitForDocument()
            default:
                return failed("the page gave an unexpected answer")
            }
        }
        guard phase == .calling, document == documents, let current else { return [] }
        switch meaning {
        case .clickAt(let x, let y):
            click = Click(step: index)
            return [.click(x: x, y: y)] + acted(reply)
        case .clickLanded:
            return failed("the page gave an unexpected answer")
        case .focused:
            guard case .press(let key, _) = current.step else { return acted(reply) }
            return [.press(key: StepScript.keyName(key))] + acted(reply)
        case .done:
            return acted(reply)
        case .decided(let holds):
            guard case .when(_, let then, let otherwise) = current.step else { return failed("the page gave an unexpected answer") }
            let branch = (holds ? then : otherwise).enumerated().map {
                Placed(place: "\(current.place).\(holds ? "then" : "else").\($0.offset + 1)", step: $0.element)
            }
            steps.insert(contentsOf: branch, at: index + 1)
            index += 1
            waitingFor = nil
            return [.decided(place: current.place, current.step, branch: holds)] + begin()
        case .waiting(let reason):
            waitingFor = reason
            return begin()
        case .failed(let reason):
            return failed(reason)
        case .load, .lastPage:
            return failed("the page gave an unexpected answer")
        case .interrupted:
            return waitForDocument()
        }
    }

    /// Waits for the document that replaces the page, or when no load has started, calls again a moment later.
    private mutating func waitForDocument() -> [Command] {
        guard !navigating else {
            phase = .waitingForDocument(retry: nil)
            return []
        }
        let timer = newTimer()
        phase = .waitingForDocument(retry: timer)
        return [.later(Self.retryDelay, timer: timer)]
    }

    /// A timer's number, never used before.
    private mutating func newTimer() -> Int {
        timers += 1
        return timers
    }

    /// The page ran what the last action set off: a load that started brings the next document; a navigation
    /// WebKit was asked for is given `navigationStart` to start; otherwise the next step runs, or a click that
    /// missed its element is made again, `clickRetries` times at most.
    private mutating func proceed() -> [Command] {
        if navigating {
            phase = .waitingForDocument(retry: nil)
            return []
        }
        if askedToNavigate {
            let timer = newTimer()
            phase = .waitingForStart(timer: timer)
            return [.later(Self.navigationStart, timer: timer)]
        }
        guard let missed = click, missed.missed else {
            click = nil
            missedClicks = 0
            return begin()
        }
        click = nil
        missedClicks += 1
        index = missed.step
        guard missedClicks <= Self.clickRetries else {
            return failed("its element moved away from each of \(missedClicks) clicks before the click arrived")
        }
        return begin()
    }

    /// The timer `timer` went off.
    mutating func due(timer: Int) -> [Command] {
        switch phase {
        case .waitingForStart(timer):
            // Not the page's own frame, or a navigation that did not start.
            askedToNavigate = false
            return proceed()
        case .waitingForDocument(retry: timer):
            if navigating { return [] }
            if click != nil {
                phase = .checkingAction
                return [.checkAction(document: documents)]
            }
            return begin()
        case .sleeping(timer):
            index += 1
            return begin()
        default:
            return []
        }
    }

    /// The key of the `press` step that acted last (`key`) is no key of the keyboard: the steps fail there.
    mutating func keyUnknown(_ key: String) -> [Command] {
        let pressed = steps[max(index - 1, 0)]
        phase = .finished
        return [.fail(place: pressed.place, pressed.step, reason: "no key is named \"\(key)\"")]
    }

    private mutating func failed(_ reason: String) -> [Command] {
        phase = .finished
        guard let current else { return [] }
        return [.fail(place: current.place, current.step, reason: reason)]
    }

    /// Runs the current step in the current document.
    private mutating func begin() -> [Command] {
        guard let current else {
            phase = .finished
            return [.finished]
        }
        switch current.step {
        case .sleep(let duration):
            let timer = newTimer()
            phase = .sleeping(timer: timer)
            return [.later(duration, timer: timer)]
        case .waitForNavigation:
            guard documents > documentsAtLastAct else {
                phase = .waitingForDocument(retry: nil)
                return []
            }
            index += 1
            return begin()
        default:
            phase = .calling
            askedToNavigate = false
            return [.call(current.step, document: documents, probes: readsAnswerBefore && !hasActed && current.step.actsOnPage)]
        }
    }

    /// The current step is done: after one that acts on the page, the page is asked once it has run what the
    /// action set off; after one that only waited or scrolled, the next step runs.
    private mutating func acted(_ reply: JavaScriptReply) -> [Command] {
        let effect = StepScript.effect(of: reply)
        var told: [Command] = []
        if let waited = effect.waited, let current { told.append(.waited(place: current.place, current.step, waited)) }
        let acts = current?.step.actsOnPage == true
        if acts, effect.acted {
            if !hasActed { answerBefore = effect.answerBefore }
            hasActed = true
        }
        waitingFor = nil
        documentsAtLastAct = documents
        index += 1
        guard acts else { return told + begin() }
        phase = .checkingAction
        return told + [.checkAction(document: documents)]
    }
}
