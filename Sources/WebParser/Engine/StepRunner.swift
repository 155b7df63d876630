/// The decisions about a job's steps within one attempt, made without a page or a clock: which step runs, in
/// which document, and when the next may start. Each step runs once: a call that the page interrupted had not
/// acted and is made again in the next document; after a step acted, the runner waits a moment for the
/// navigation it may have started, and when one starts, for its document to commit.
struct StepRunner {
    /// What the attempt does for the steps.
    enum Command: Equatable {
        /// Calls `body` in the current document (number `document`); its reply comes to `received`.
        case call(body: String, document: Int)
        /// Clicks the view at this point of the viewport.
        case click(x: Double, y: Double)
        /// Presses the key with this GDK name.
        case press(key: String)
        /// Calls `due(timer)` after the duration.
        case later(Duration, timer: Int)
        /// The step at `index` failed.
        case fail(index: Int, reason: String)
        /// Every step is done: the job's script may run.
        case finished
    }

    /// How long after a step acted a navigation it caused is waited for before the next step runs.
    static let settle: Duration = .milliseconds(150)
    /// How long after an interrupted call without a new document the call is made again.
    static let retryDelay: Duration = .milliseconds(100)

    let steps: [Step]
    /// The step running, from 0; `steps.count` once all are done.
    private(set) var index = 0
    private enum Phase: Equatable { case waitingForDocument, calling, settling, sleeping, finished }
    private var phase = Phase.waitingForDocument
    /// Documents committed so far, and how many there were when a step last acted.
    private var documents = 0
    private var documentsAtLastAct = 0
    /// A load started and has not committed yet.
    private var navigating = false
    /// The timer that counts; earlier ones are stale.
    private var timer = 0
    /// Whether a step has acted on the page (clicked, typed, submitted, run a script): an attempt that fails
    /// after that is not retried.
    private(set) var hasActed = false

    init(steps: [Step]) {
        self.steps = steps
        if steps.isEmpty { phase = .finished }
    }

    var isFinished: Bool { phase == .finished }
    /// A load that started ended without a document (replaced, stopped or refused): the current step runs
    /// again in the document the page still shows, if it was waiting for one.
    mutating func loadAbandoned() -> [Command] {
        navigating = false
        guard phase == .waitingForDocument, let step = current else { return [] }
        if case .waitForNavigation = step { return [] }
        return begin()
    }

    /// The step running, if any.
    var current: Step? { index < steps.count ? steps[index] : nil }

    /// A load of the page began.
    mutating func loadStarted() {
        navigating = true
    }

    /// A new document committed; the current step (again, if its call was cut short) runs in it.
    mutating func committed() -> [Command] {
        documents += 1
        navigating = false
        guard phase != .finished, phase != .sleeping else { return [] }
        if phase == .calling, case .evaluate = current {
            // The script was running when its document went: it ran, and does not run again.
            hasActed = true
            documentsAtLastAct = documents - 1
            index += 1
        }
        return begin()
    }

    /// The reply of the call made in `document`.
    mutating func received(_ reply: JavaScriptReply, document: Int) -> [Command] {
        guard phase == .calling, document == documents, let step = current else { return [] }
        switch StepScript.meaning(of: reply) {
        case .clickAt(let x, let y):
            return [.click(x: x, y: y)] + acted()
        case .focused:
            guard case .press(let key, _) = step else { return acted() }
            return [.press(key: StepScript.keyName(key))] + acted()
        case .done:
            return acted()
        case .failed(let reason):
            phase = .finished
            return [.fail(index: index, reason: reason)]
        case .load, .lastPage:
            phase = .finished
            return [.fail(index: index, reason: "the page gave an unexpected answer")]
        case .interrupted:
            phase = .waitingForDocument
            if navigating { return [] }
            timer += 1
            return [.later(Self.retryDelay, timer: timer)]
        }
    }

    /// The timer `timer` went off.
    mutating func due(timer: Int) -> [Command] {
        guard timer == self.timer else { return [] }
        switch phase {
        case .settling, .waitingForDocument:
            if navigating {
                phase = .waitingForDocument
                return []
            }
            return begin()
        case .sleeping:
            index += 1
            return begin()
        case .calling, .finished:
            return []
        }
    }

    /// Runs the current step in the current document.
    private mutating func begin() -> [Command] {
        guard let step = current else {
            phase = .finished
            return [.finished]
        }
        switch step {
        case .sleep(let duration):
            phase = .sleeping
            timer += 1
            return [.later(duration, timer: timer)]
        case .waitForNavigation:
            guard documents > documentsAtLastAct else {
                phase = .waitingForDocument
                return []
            }
            index += 1
            return begin()
        default:
            phase = .calling
            return [.call(body: StepScript.body(of: step) ?? "", document: documents)]
        }
    }

    /// The current step acted: the next one runs once a navigation it may have started has committed.
    private mutating func acted() -> [Command] {
        if let step = current, step.actsOnPage { hasActed = true }
        documentsAtLastAct = documents
        index += 1
        phase = .settling
        timer += 1
        return [.later(Self.settle, timer: timer)]
    }
}
