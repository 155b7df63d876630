import Foundation

/// The decisions of one attempt of a job, made without WebKit, a page or a clock: the attempt's state, and a
/// function from (state, event) to the actions `WebParserEngine` performs (load, call the script, report, end).
///
/// The page's events, the script's replies, the watchdog and the screenshot all arrive as `Event`s, one at a
/// time on the WebKit thread. Once the attempt has ended every event is ignored, so it ends once.
struct AttemptMachine {
    /// Where the attempt is.
    enum Stage: Equatable {
        /// The page has not been asked to load yet.
        case idle
        /// The page is loading, or has loaded and the script's result is awaited (`phase` says which).
        case running
        /// The result is there; the screenshot the job asks for is being written.
        case finishing(AttemptResult)
        /// The attempt is over.
        case ended
    }

    /// What happened.
    enum Event {
        /// The attempt begins.
        case start
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
        /// The request `id` has been loading for `RequestTracker.longLived`.
        case requestExpired(id: UInt64)
        /// The job's timeout is over.
        case timedOut
        /// The web process the page shares with another job's page left a ping unanswered for the duration: one
        /// of the pages holds its one thread, perhaps the other one.
        case sharedProcessStoppedAnswering(after: Duration)
        /// A syntax error of the script, explained in the terms of its own code.
        case explained(ScriptFailure)
        /// The screenshot was written, or why it was not.
        case snapshotWritten(error: String?)
        /// The task running the attempt was cancelled.
        case cancelled
    }

    /// What the engine does.
    enum Action {
        /// Starts the watchdog that sends `.timedOut` after the duration.
        case watch(Duration)
        case load
        /// Calls `body` in the page's current document, number `document`; its reply comes as `.reply`.
        case evaluate(body: String, document: Int)
        /// Sends `.evaluationDue` after the duration.
        case evaluateLater(Duration)
        /// Sends `.requestExpired(id:)` after the duration.
        case expireRequest(id: UInt64, after: Duration)
        /// Calls `body` in the page's current document, for its effect only (telling it whether requests are in
        /// flight).
        case notify(body: String)
        /// Calls a step's `body` in the page's current document; its reply comes as `.stepReply`.
        case callStep(body: String, document: Int)
        /// Clicks the view at a point of the viewport, as a user's pointer does.
        case click(x: Double, y: Double)
        /// Presses and releases a key (a GDK key name), as a user's keyboard does; `.keyUnknown` when none has it.
        case press(key: String)
        /// Sends `.stepDue(timer:)` after the duration.
        case stepLater(Duration, timer: Int)
        /// Calls `body` to find the next page; its reply comes as `.nextFound`.
        case findNext(body: String, call: Int)
        /// Loads the next page, with the job's headers and credentials.
        case loadNext(URL)
        case cancelLaterEvaluation
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
    let script: PageScript

    /// Where the page is: its URL, the main document's status, the load's phase.
    private var url: String
    private var httpStatus = 0
    private var phase = LoadPhase.waitingForServer
    private var committed = false
    /// The failure and the end of a load that a newer navigation (or a trusted certificate's reload) replaced
    /// are not the attempt's.
    private var supersededLoadFinishing = false
    /// The main document WebKit could not show, if the load was refused for that.
    private var refusedMIMEType: String?
    /// Whether the script is being evaluated, in which document (a reply from an earlier one is stale), and
    /// in which document the script's slice function is installed.
    private var evaluating = false
    private var document = 0
    private var installedIn: Int?
    /// The job's steps, run before the script.
    private var steps: StepRunner
    /// The pages of a list spread over pages.
    private var pages: PageTurner
    /// What the script or its wait last answered while the result was empty.
    private var lastAnswer: String?
    /// The values user scripts emitted, in order, as JSON text.
    private var emitted: [Data] = []
    /// The page's requests that deliver data.
    private var requests = RequestTracker()
    /// How long the script's answer must settle before it is final: the job's `settle`, or longer for an answer
    /// equal to the one before the steps acted.
    private var settleFor: Duration

    /// The machine of an attempt of `job`, with its script made ready (`script`, by default from the job).
    init(job: WebParserJob, script: PageScript? = nil) {
        self.job = job
        self.url = job.url.absoluteString
        self.pages = PageTurner(pagination: job.evaluation.collect == .result ? job.evaluation.pagination : nil,
                                pollInterval: job.evaluation.pollInterval)
        self.script = script ?? PageScript(for: job.evaluation)
        self.settleFor = self.script.isFinalOnceWaitHolds || job.evaluation.collect != .result ? .zero : job.evaluation.settle
        self.steps = StepRunner(steps: job.evaluation.steps, readsAnswerBefore: settleFor > .zero)
    }

    /// Takes `event` and says what to do.
    mutating func handle(_ event: Event) -> [Action] {
        guard stage != .ended else { return [] }
        switch event {
        case .start:
            return start()
        case .page(let pageEvent):
            return handle(pageEvent)
        case .reply(let reply, let document):
            guard stage == .running, document == self.document else { return [] }
            return received(reply)
        case .evaluationDue:
            return evaluate()
        case .requestExpired(let id):
            return track { $0.expired(id: id); return [] }
        case .stepReply(let reply, let document):
            guard stage == .running else { return [] }
            return perform(steps.received(reply, document: document))
        case .stepDue(let timer):
            guard stage == .running else { return [] }
            return perform(steps.due(timer: timer))
        case .nextFound(let reply, let call):
            guard stage == .running else { return [] }
            return perform(pages.found(reply, call: call))
        case .keyUnknown(let key):
            let step = steps.steps[max(steps.index - 1, 0)]
            return fail(.stepFailed(step: step.place, step.step, reason: "no key is named \"\(key)\""))
        case .timedOut:
            return timedOut()
        case .sharedProcessStoppedAnswering(let after):
            guard stage == .running else { return [] }
            return end(.failure(WebParserError(.sharedWebProcessUnresponsive(after: after), url: url)))
        case .explained(let failure):
            return fail(.scriptFailed(failure))
        case .snapshotWritten(let error):
            guard case .finishing(let result) = stage else { return [] }
            return error.map { fail(.screenshotFailed($0)) } ?? end(.success(result))
        case .cancelled:
            stage = .ended
            return [.end(nil)]
        }
    }

    private mutating func start() -> [Action] {
        guard stage == .idle else { return [] }
        guard let scheme = job.url.scheme?.lowercased(), WebParserJob.supportedSchemes.contains(scheme) else {
            return fail(.unsupportedURL("only http, https and file URLs can be loaded"))
        }
        if job.collectsWithoutEmitters {
            return fail(.invalidJob("collecting emitted values needs a user script that calls webparse.emit"))
        }
        stage = .running
        return [.watch(job.timeout), .load]
    }

    private mutating func handle(_ event: PageEvent) -> [Action] {
        switch event {
        case .started(let url):
            self.url = url
            phase = .waitingForServer
            committed = false
            steps.loadStarted()
            return []
        case .redirected(let url):
            self.url = url
            return []
        case .committed(let url, let httpStatus, let retryAfter):
            self.url = url
            self.httpStatus = httpStatus
            committed = true
            if httpStatus >= 400 {
                var error = WebParserError(.httpStatus(httpStatus), url: url)
                error.retryAfter = retryAfter.flatMap { RetryAfter.parse($0) }
                return end(.failure(error))
            }
            if url == "about:blank" {
                return fail(.unsupportedURL("WebKit refused to load it (WebKit blocks some ports, such as 1 and 6000)"),
                            url: job.url.absoluteString)
            }
            phase = .loading
            document += 1
            guard steps.isFinished else { return perform(steps.committed()) }
            guard evaluating else { return startEvaluating() }
            return [.cancelLaterEvaluation] + evaluate()
        case .finished:
            guard !supersededLoadFinishing else {
                supersededLoadFinishing = false
                return []
            }
            guard committed else {
                return fail(.loadFailed(refusedMIMEType.map(Self.download) ?? "WebKit did not load the page"))
            }
            phase = .waitingForResult
            return steps.isFinished ? startEvaluating() : []
        case .failed(let failure):
            return failed(failure)
        case .navigationRefused(let url):
            return [.tell(.navigationRefused(url: url))]
        case .urlChanged(let url):
            if committed { self.url = url }
            return []
        case .popupOpened(let url, let followed):
            return [.tell(.popupOpened(url: url, followed: followed))]
        case .message(let message):
            return received(message)
        case .responseRefused(let mimeType):
            refusedMIMEType = mimeType
            return []
        case .resource(let id, let load):
            return track { $0.handle(load, id: id) }
        case .certificateTrusted:
            supersededLoadFinishing = true
            return []
        case .progress(let progress):
            return [.report(.loading(progress: progress))]
        case .processTerminated(.exceededMemoryLimit):
            return fail(.memoryLimitExceeded)
        case .processTerminated(.endedWithAnotherJob):
            return fail(.sharedWebProcessEnded)
        case .processTerminated(.crashed) where !committed && !job.url.isFileURL:
            // WebKit's UI process ends a web process whose navigation turns to a local file, and a server's
            // redirect to file: is the one way a web page's load gets there before its document arrives; but a
            // crash looks the same, so it is retried like one.
            return fail(.webProcessEndedBeforePage)
        case .processTerminated(.crashed):
            return fail(.webProcessCrashed)
        }
    }

    private mutating func failed(_ failure: PageLoadFailure) -> [Action] {
        if let mimeType = refusedMIMEType, LoadFailureTriage.isPolicyInterruption(failure) {
            return fail(.loadFailed(Self.download(mimeType)), url: failure.url)
        }
        // A newer navigation replaced the load, or a navigation webparse refused was stopped: the page goes
        // on, as in a browser.
        if LoadFailureTriage.isSuperseded(failure) || LoadFailureTriage.isPolicyInterruption(failure) {
            supersededLoadFinishing = true
            return steps.isFinished ? [] : perform(steps.loadAbandoned())
        }
        if let target = LoadFailureTriage.redirectTarget(of: failure) {
            return fail(LoadFailureTriage.redirected(to: target))
        }
        return fail(LoadFailureTriage.kind(of: failure), url: failure.url)
    }

    private mutating func received(_ message: PageMessage) -> [Action] {
        switch message {
        case .emitted(let json):
            if job.evaluation.collect == .emitted && stage == .running { emitted.append(json) }
            return [.tell(.emitted(json: json))]
        case .done:
            return job.evaluation.collect == .emitted ? succeed(with: JSONText.array(emitted)) : []
        case .console(var line):
            line.source = line.source.map(script.ownPlace)
            return [.tell(.console(line))]
        case .userScriptFailed(let failure):
            return [.tell(.userScriptFailed(failure))]
        }
    }

    /// Lets `change` update the requests in flight, and tells the page when that starts or ends its quiet.
    private mutating func track(_ change: (inout RequestTracker) -> [RequestTracker.Command]) -> [Action] {
        let wasBusy = requests.isBusy
        let commands = change(&requests)
        var actions = commands.map { command -> Action in
            switch command {
            case .expire(let id, let delay): .expireRequest(id: id, after: delay)
            }
        }
        // Told to whatever document the page shows (every call also says it, so a new document learns it anyway).
        if requests.isBusy != wasBusy, stage == .running {
            actions.append(.notify(body: script.quiet.notifyBody(busy: requests.isBusy)))
        }
        return actions
    }

    /// The actions of the page turner's commands.
    private mutating func perform(_ commands: [PageTurner.Command]) -> [Action] {
        commands.flatMap { command -> [Action] in
            switch command {
            case .find(let body, let call):
                return [.cancelLaterEvaluation, .findNext(body: body, call: call)]
            case .load(let next):
                // A web page leads only to web pages; a local file only from a local file.
                guard let scheme = next.scheme?.lowercased(), WebParserJob.supportedSchemes.contains(scheme),
                      scheme != "file" || job.url.isFileURL else {
                    return fail(.invalidJob("the next page is not a web page: \(next.absoluteString)"))
                }
                return [.watch(job.timeout), .loadNext(next)]
            case .click(let x, let y):
                return [.watch(job.timeout), .click(x: x, y: y)]
            case .read(nil):
                return evaluate()
            case .read(let delay?):
                return [.evaluateLater(delay)]
            case .finish(let data):
                return succeed(with: data)
            case .fail(let reason):
                return fail(.invalidJob("the next page cannot be found: \(reason)"))
            }
        }
    }

    /// The actions of the steps' commands.
    private mutating func perform(_ commands: [StepRunner.Command]) -> [Action] {
        commands.flatMap { command -> [Action] in
            switch command {
            case .call(let step, let document, let probes):
                // A step that reads the job's answer before it acts needs the job's script in its document.
                var actions: [Action] = []
                if probes && installedIn != self.document {
                    installedIn = self.document
                    actions.append(.notify(body: script.installBody))
                }
                let body = StepScript.body(of: step, settle: job.evaluation.settle, probe: probes ? script.probe : nil,
                                           preamble: script.quiet.preamble(busy: requests.isBusy)) ?? ""
                return actions + [.callStep(body: body, document: document)]
            case .click(let x, let y): return [.click(x: x, y: y)]
            case .press(let key): return [.press(key: key)]
            case .later(let delay, let timer): return [.stepLater(delay, timer: timer)]
            case .fail(let place, let step, let reason): return fail(.stepFailed(step: place, step, reason: reason))
            case .decided(let place, let step, let holds): return [.tell(.stepDecided(step: place, step, holds: holds))]
            case .finished: return startEvaluating()
            }
        }
    }

    private mutating func startEvaluating() -> [Action] {
        guard !evaluating, stage == .running else { return [] }
        if job.evaluation.collect == .emitted && job.evaluation.script.allSatisfy(\.isWhitespace) { return [] }
        evaluating = true
        return [.report(.executingJavaScript)] + evaluate()
    }

    /// Evaluates the script in the current document: the whole of it once per document, a few bytes after.
    private mutating func evaluate() -> [Action] {
        guard stage == .running else { return [] }
        let body = script.body(installed: installedIn == document, busy: requests.isBusy, settle: settleFor)
        installedIn = document
        return [.evaluate(body: body, document: document)]
    }

    private mutating func received(_ reply: JavaScriptReply) -> [Action] {
        switch script.outcome(of: reply) {
        case .value(let data):
            if job.evaluation.collect == .emitted { return succeed(with: JSONText.array(emitted)) }
            if data == steps.answerBefore, settleFor < Evaluation.unchangedAfterSteps, !pages.hasPages {
                // The steps have not changed the answer yet: the page may still re-render (after a timer, a
                // websocket message), so the same answer must hold longer.
                settleFor = Evaluation.unchangedAfterSteps
                return evaluate()
            }
            return perform(pages.read(data))
        case .failure(let kind):
            return fail(kind)
        case .syntaxError(let failure):
            return [.explain(failure)]
        case .empty(let answer):
            lastAnswer = answer ?? lastAnswer
            // The page waited a whole slice for data already: ask again at once.
            return evaluate()
        case .notInstalled:
            installedIn = nil
            return evaluate()
        case .interrupted:
            installedIn = nil
            return [.evaluateLater(job.evaluation.pollInterval)]
        }
    }

    /// Ends the attempt with `data`, once the screenshot (if the job asks for one) is written.
    private mutating func succeed(with data: Data, cutShort: String? = nil, atTimeOut: Bool = false) -> [Action] {
        guard stage == .running else { return [] }
        let result = AttemptResult(data: data, url: url, httpStatus: httpStatus, cutShort: cutShort,
                                   endedAtTimeOut: atTimeOut)
        guard let screenshot = job.evaluation.screenshot else { return end(.success(result)) }
        stage = .finishing(result)
        return [.cancelLaterEvaluation, .snapshot(screenshot)]
    }

    /// Ends the attempt at its timeout, with what it has read so far, cut short.
    private mutating func timedOut() -> [Action] {
        if pages.hasPages && stage == .running {
            return succeed(with: pages.combined, cutShort: "page \(pages.count + 1) timed out; the result holds the \(pages.count) pages read",
                           atTimeOut: true)
        }
        if job.evaluation.collect == .emitted && !emitted.isEmpty && stage == .running {
            return succeed(with: JSONText.array(emitted), cutShort: "timed out before webparse.done(); the result holds the \(emitted.count) value\(emitted.count == 1 ? "" : "s") emitted until then",
                           atTimeOut: true)
        }
        // Before its first document, the page was still on its way: a transient time-out, whatever the steps.
        let running = steps.hasDocument ? steps.current : nil
        let phase = running.map { LoadPhase.runningStep($0.place, $0.step) } ?? self.phase
        var error = WebParserError(.timedOut(phase: phase, after: job.timeout), url: url)
        if phase == .waitingForResult { error.lastAnswer = lastAnswer }
        if running != nil { error.lastAnswer = steps.waitingFor }
        return end(.failure(error))
    }

    private mutating func fail(_ kind: WebParserError.Kind, url: String? = nil) -> [Action] {
        end(.failure(WebParserError(kind, url: url ?? self.url)))
    }

    /// Ends the attempt with `error`; after the first page of a paginated job, with the pages read, cut short.
    private mutating func end(failing error: WebParserError) -> [Action] {
        guard pages.hasPages, stage == .running else { return end(.failure(error)) }
        return succeed(with: pages.combined, cutShort: "page \(pages.count + 1) could not be read (\(error)); the result holds the \(pages.count) pages read")
    }

    private mutating func end(_ outcome: Swift.Result<AttemptResult, WebParserError>) -> [Action] {
        if case .failure(var error) = outcome {
            // A failure that may be another job's doing ends the attempt, so that it runs again on its own.
            if pages.hasPages, stage == .running, !error.mayBeAnotherJobsDoing { return end(failing: error) }
            if steps.hasActed && !error.stepsActed {
                error.stepsActed = true
                return end(.failure(error))
            }
        }
        stage = .ended
        return [.end(outcome)]
    }

    private static func download(_ mimeType: String) -> String {
        "the server sent a download (\(mimeType.isEmpty ? "no content type" : mimeType)), not a page"
    }
}
