import FoundationEssentials

/// The decisions of one attempt of a job, made without WebKit, a page or a clock: the attempt's state, and a
/// function from (state, event) to the actions `WebParserEngine` performs (load, call the script, report, end).
///
/// The page's events, the script's replies, the watchdog and the screenshot all arrive as `Event`s, one at a
/// time on the WebKit thread. Once the attempt has ended every event is ignored, so it ends once.
struct AttemptMachine {
    /// Where the attempt is, with what it knows there.
    enum Stage {
        /// The page has not been asked to load yet.
        case idle
        /// The page is loading, or has loaded and the script's result is awaited.
        case running(RunningAttempt)
        /// The result is there; the screenshot the job asks for is being written.
        case finishing(AttemptResult)
        /// The attempt is over.
        case ended
        /// The running attempt is out of the stage while it changes, so that its data is not copied; no event
        /// arrives meanwhile.
        case modifying
    }

    /// What happened while the attempt runs (its start, the screenshot's end and cancellation are the machine's
    /// own calls: `start(now:)`, `snapshotWritten(error:)`, `cancel()`).
    enum Event {
        case page(PageEvent)
        /// The page answered an evaluation made in `document`.
        case reply(JavaScriptReply, document: Int)
        /// The page answered a step's call made in the steps' `document`.
        case stepReply(JavaScriptReply, document: Int)
        /// The steps' timer `timer` went off.
        case stepDue(timer: Int)
        /// A `press` step's key has no key of the keyboard.
        case keyUnknown(String)
        /// The page answered the call `call` that looked for the next page.
        case nextFound(JavaScriptReply, call: Int)
        /// The wait after an interrupted evaluation is over.
        case evaluationDue
        /// The request has been in flight for `RequestTracker.longLived`.
        case requestExpired(RequestTracker.Request)
        /// The job's timeout is over.
        case timedOut
        /// The web process the page shares with another job's page left a ping unanswered for the duration: one
        /// of the pages holds its one thread, perhaps the other one.
        case sharedProcessStoppedAnswering(after: Duration)
        /// A syntax error of the script, explained in the terms of its own code.
        case explained(ScriptFailure)
        /// Which bot protection service's page document number `document` is (`BotProtection`), or nil for none.
        case blockChecked(String?, document: Int)
        /// The page's last uncaught error (`PageErrorWatch`) in document number `document`, or nil when it threw none.
        case pageErrorRead(String?, document: Int)
    }

    /// A timer of the attempt, which sends its `event` when it goes off.
    enum Timer: Hashable {
        /// The attempt's deadline: `.timedOut`.
        case deadline
        /// The next reading of the script: `.evaluationDue`.
        case evaluation
        /// When a request in flight stops counting: `.requestExpired`.
        case request(RequestTracker.Request)
        /// The end of a step's wait numbered so: `.stepDue(timer:)`.
        case step(Int)

        /// The event the timer sends when it goes off.
        var event: Event {
            switch self {
            case .deadline: .timedOut
            case .evaluation: .evaluationDue
            case .request(let request): .requestExpired(request)
            case .step(let timer): .stepDue(timer: timer)
            }
        }
    }

    /// What the engine does.
    enum Action {
        /// Starts the timer (in place of the same timer started before), which goes off after the duration.
        case schedule(Timer, after: Duration)
        /// Stops the timer, if it has not gone off.
        case cancel(Timer)
        case load
        /// Calls `body` in the page's current document, number `document`; its reply comes as `.reply`.
        case evaluate(body: String, document: Int)
        /// Calls `body` in the page's current document, for its effect only (telling it whether requests are in
        /// flight).
        case notify(body: String)
        /// Reads whether document number `document` is a page of bot protection; it comes as `.blockChecked`.
        case checkBlocked(document: Int)
        /// Reads the page's last uncaught error in document number `document`; it comes as `.pageErrorRead`.
        case readPageError(document: Int)
        /// Calls a step's `body` in the page's current document; its reply comes as `.stepReply`.
        case callStep(body: String, document: Int)
        /// Clicks the view at a point of the viewport, as a user's pointer does.
        case click(x: Double, y: Double)
        /// Presses and releases a key (a GDK key name), as a user's keyboard does; `.keyUnknown` when none has it.
        case press(key: String)
        /// Calls `body` to find the next page; its reply comes as `.nextFound`.
        case findNext(body: String, call: Int)
        /// Loads the next page, with the job's headers and credentials.
        case loadNext(URL)
        case report(WebParserState)
        case tell(WebParserMessage)
        /// Explains a syntax error off the WebKit thread (which must not make a JavaScriptCore context of its
        /// own), then sends `.explained`.
        case explain(ScriptFailure)
        /// Writes the screenshot, then sends `.snapshotWritten`.
        case snapshot(WebParserJob.Screenshot)
        /// Ends the attempt with `outcome` (nil when cancellation already gave it): stop the timers, detach from
        /// the page and hand it back, reusable when the attempt succeeded.
        case end(Swift.Result<AttemptResult, WebParserError>?)
    }

    private(set) var stage = Stage.idle
    private let job: WebParserJob
    /// The job's script, made ready.
    let script: PageScript
    /// When the attempt must have its result or first page, rather than within the job's timeout from its start.
    private let deadline: ContinuousClock.Instant?

    /// The machine of an attempt of `job`, with its script made ready (`script`, by default from the job).
    /// With `deadline`, the attempt must have its result or first page by then.
    init(job: WebParserJob, script: PageScript? = nil, deadline: ContinuousClock.Instant? = nil) {
        self.deadline = deadline
        self.job = job
        self.script = script ?? PageScript(for: job.evaluation)
    }

    /// Whether the attempt is over.
    var hasEnded: Bool { if case .ended = stage { true } else { false } }

    /// Begins the attempt at `now` and says what to do; nothing once it has begun.
    mutating func start(now: ContinuousClock.Instant) -> [Action] {
        guard case .idle = stage else { return [] }
        // The attempt's deadline passed before its page came (a long wait for it, a busy WebKit thread).
        if let deadline, deadline <= now {
            stage = .ended
            return [.end(.failure(WebParserError(.timedOut(phase: .waitingForServer, after: job.timeout), url: job.url.absoluteString)))]
        }
        return begin(now: now)
    }

    /// Takes `event` and says what to do.
    mutating func handle(_ event: Event) -> [Action] {
        switch (stage, event) {
        case (.modifying, _):
            preconditionFailure("AttemptMachine: \(event) while the running attempt changes")
        case (.ended, _), (.idle, _):
            return []
        case (.running(var running), _):
            stage = .modifying
            let actions = running.handle(event)
            return conclude(running, actions)
        case (.finishing(let result), .timedOut):
            stage = .ended
            return [
                .end(
                    .failure(
                        WebParserError(
                            .screenshotFailed("WebKit did not write it within the job's timeout (\(job.timeout.secondsText))"),
                            url: result.url)))
            ]
        case (.finishing(let result), .page(.processTerminated(let termination))):
            stage = .ended
            return [.end(.failure(WebParserError(termination.failure(beforePage: false), url: result.url)))]
        case (.finishing, _):
            return []
        }
    }

    /// The screenshot was written, or why it was not: the attempt ends.
    mutating func snapshotWritten(error: String?) -> [Action] {
        guard case .finishing(let result) = stage else { return [] }
        stage = .ended
        guard let error else { return [.end(.success(result))] }
        return [.end(.failure(WebParserError(.screenshotFailed(error), url: result.url)))]
    }

    /// The task running the attempt was cancelled: it ends at once, unless it has ended.
    mutating func cancel() -> [Action] {
        if hasEnded { return [] }
        stage = .ended
        return [.end(nil)]
    }

    private mutating func begin(now: ContinuousClock.Instant) -> [Action] {
        guard let scheme = job.url.scheme?.lowercased(), WebParserJob.supportedSchemes.contains(scheme) else {
            return fail(.unsupportedURL("only http, https and file URLs can be loaded"))
        }
        if job.collectsWithoutEmitters {
            return fail(.invalidJob("collecting emitted values needs a user script that calls webparse.emit"))
        }
        if let problem = job.captureProblem { return fail(.invalidJob(problem)) }
        stage = .running(RunningAttempt(job: job, script: script))
        return [.schedule(.deadline, after: deadline.map { min(job.timeout, $0 - now) } ?? job.timeout), .load]
    }

    /// Keeps the running attempt, or moves on once it concluded: to the screenshot the job asks for, or the end.
    private mutating func conclude(_ running: RunningAttempt, _ actions: [Action]) -> [Action] {
        guard let conclusion = running.conclusion else {
            stage = .running(running)
            return actions
        }
        let actions = actions + (job.recordsRequests ? [.tell(.requests(running.recordedRequests))] : [])
        switch conclusion {
        case .succeeded(let result):
            guard let screenshot = job.evaluation.screenshot else {
                stage = .ended
                return actions + [.end(.success(result))]
            }
            stage = .finishing(result)
            return actions + [.cancel(.evaluation), .snapshot(screenshot)]
        case .failed(let error):
            stage = .ended
            return actions + [.end(.failure(error))]
        }
    }

    private mutating func fail(_ kind: WebParserError.Kind) -> [Action] {
        stage = .ended
        return [.end(.failure(WebParserError(kind, url: job.url.absoluteString)))]
    }
}
