import Foundation

/// The decisions about a job's steps within one attempt, made without a page or a clock: which step runs, in
/// which document, and when the next may start. Each step runs once: a call that the page interrupted had not
/// acted and is made again in the next document; after a step acted, the runner waits a moment for the
/// navigation it may have started, and when one starts, for its document to commit. An `if` step's branch
/// takes its place once the page has decided it.
struct StepRunner {
    /// What the attempt does for the steps.
    enum Command: Equatable {
        /// Calls `step`'s code (`StepScript.body`) in the current document (number `document`); its reply comes
        /// to `received`. With `probes`, the call reads the job's answer before it acts, so the job's script must be
        /// in the document.
        case call(Step, document: Int, probes: Bool)
        /// Clicks the view at this point of the viewport.
        case click(x: Double, y: Double)
        /// Asks the current document (number `document`) whether the last click landed on its element
        /// (`StepScript.clickCheck`); the reply comes to `received`.
        case checkClick(document: Int)
        /// Presses the key with this GDK name.
        case press(key: String)
        /// Calls `due(timer)` after the duration.
        case later(Duration, timer: Int)
        /// The step `place` failed.
        case fail(place: String, Step, reason: String)
        /// An `if` step chose a branch: say so.
        case decided(place: String, Step, branch: Bool)
        /// Every step is done: the job's script may run.
        case finished
    }

    /// How long after a step acted a navigation it caused is waited for before the next step runs.
    static let settle: Duration = .milliseconds(150)
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
    private enum Phase: Equatable { case waitingForDocument, calling, settling, checkingClick, sleeping, finished }
    private var phase = Phase.waitingForDocument
    /// Documents committed so far, and how many there were when a step last acted.
    private var documents = 0
    private var documentsAtLastAct = 0
    /// A load started and has not committed yet.
    private var navigating = false
    /// The step whose click is to be checked once the page has settled, if no document replaced the page, and
    /// how many of its clicks missed.
    private var clicked: Int?
    private var missedClicks = 0
    /// The timer that counts; earlier ones are stale.
    private var timer = 0
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
        guard phase == .waitingForDocument, let current else { return [] }
        if case .waitForNavigation = current.step { return [] }
        return begin()
    }

    /// A load of the page began.
    mutating func loadStarted() {
        navigating = true
    }

    /// A new document committed; the current step (again, if its call was cut short) runs in it.
    mutating func committed() -> [Command] {
        documents += 1
        navigating = false
        clicked = nil
        guard phase != .finished, phase != .sleeping else { return [] }
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
        if phase == .checkingClick, document == documents, let step = clicked, case .clickLanded(let landed) = meaning {
            return clickChecked(step, landed: landed)
        }
        guard phase == .calling, document == documents, let current else { return [] }
        switch meaning {
        case .clickAt(let x, let y):
            clicked = index
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
            phase = .waitingForDocument
            if navigating { return [] }
            timer += 1
            return [.later(Self.retryDelay, timer: timer)]
        }
    }

    /// The click of the step at `step` landed on its element (or cannot be told), or missed it: the next step
    /// runs, or the click is made again, `clickRetries` times at most.
    private mutating func clickChecked(_ step: Int, landed: Bool) -> [Command] {
        clicked = nil
        if landed {
            missedClicks = 0
            return begin()
        }
        missedClicks += 1
        index = step
        guard missedClicks <= Self.clickRetries else {
            return failed("its element moved away from each of \(missedClicks) clicks before the click arrived")
        }
        return begin()
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
            if clicked != nil {
                phase = .checkingClick
                return [.checkClick(document: documents)]
            }
            return begin()
        case .sleeping:
            index += 1
            return begin()
        case .calling, .checkingClick, .finished:
            return []
        }
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
            return [.call(current.step, document: documents, probes: readsAnswerBefore && !hasActed && current.step.actsOnPage)]
        }
    }

    /// The current step acted: the next one runs once a navigation it may have started has committed.
    private mutating func acted(_ reply: JavaScriptReply) -> [Command] {
        let effect = StepScript.effect(of: reply)
        if let current, current.step.actsOnPage, effect.acted {
            if !hasActed { answerBefore = effect.answerBefore }
            hasActed = true
        }
        waitingFor = nil
        documentsAtLastAct = documents
        index += 1
        phase = .settling
        timer += 1
        return [.later(Self.settle, timer: timer)]
    }
}
