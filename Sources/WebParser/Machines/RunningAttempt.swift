import FoundationEssentials

/// The data and decisions of an attempt while it runs: where the page is and how its load goes, the steps, the
/// script's evaluations and answers, the pages of a list spread over pages, the requests in flight, and the
/// values emitted. It concludes once (`conclusion`); `AttemptMachine` then moves on to the screenshot or the end.
struct RunningAttempt {
    typealias Action = AttemptMachine.Action

    /// How the attempt concluded.
    enum Conclusion {
        case succeeded(AttemptResult)
        case failed(WebParserError)
    }

    /// How the attempt concluded, once it has; the running attempt then takes no more events.
    private(set) var conclusion: Conclusion?
    private let job: WebParserJob
    private let script: PageScript
    /// Where the page is and how its load goes.
    private var load: AttemptLoad
    /// Whether the script is being evaluated, and in which document the script's slice function is installed.
    private var evaluating = false
    private var installedIn: Int?
    /// The number of the document the page shows: a reply from an earlier one is stale.
    var document: Int { load.document }
    private var url: String { load.url }
    /// The job's steps, run before the script.
    private var steps: StepRunner
    /// What the attempt collects for its result.
    private var collection: AttemptCollection
    /// What the script or its wait last answered while the result was empty, and the page's own last uncaught
    /// error then.
    private var lastAnswer: String?
    private var lastPageError: String?

    /// The page's requests, for a job that records them (`RequestLog`).
    var recordedRequests: [WebParserRequest] { traffic.recorded }
    /// The page's requests in flight, the responses captured and the requests recorded.
    private var traffic: AttemptTraffic
    /// How long the script's answer must settle before it is final: the job's `settle`, or longer for an answer
    /// equal to the one before the steps acted.
    private var settleFor: Duration
    /// A call's first lines that tell the page whether its requests are in flight and what can change its document.
    private var quietPreamble: String { script.quiet.preamble(busy: traffic.tracker.isBusy, document: load.shown) }

    /// An attempt of `job`, with its script made ready, about to load.
    init(job: WebParserJob, script: PageScript) {
        self.job = job
        self.script = script
        self.load = AttemptLoad(url: job.url.absoluteString)
        self.collection = AttemptCollection(job: job)
        // The responses are complete once the page has settled, as a script's result is; emitted values once the
        // user scripts say so.
        self.settleFor = script.isFinalOnceWaitHolds || job.evaluation.collect == .emitted ? .zero : job.evaluation.settle
        self.steps = StepRunner(steps: job.evaluation.steps, readsAnswerBefore: settleFor > .zero && job.evaluation.collect == .result)
        self.traffic = AttemptTraffic(job: job)
    }

    /// Takes an event other than the page's, the start, the screenshot and cancellation.
    mutating func handle(_ event: AttemptMachine.Event) -> [Action] {
        switch event {
        case .page(let pageEvent):
            return handle(pageEvent)
        case .reply(let reply, let document):
            guard document == self.document else { return [] }
            return received(reply)
        case .evaluationDue:
            return evaluate()
        case .requestExpired(let request):
            let (commands, busyChanged) = traffic.track {
                $0.expired(request); return []
            }
            return tracked(commands, busyChanged: busyChanged)
        case .stepReply(let reply, let document):
            return perform(steps.received(reply, document: document))
        case .stepDue(let timer):
            return perform(steps.due(timer: timer))
        case .nextFound(let reply, let call):
            return perform(collection.pages.found(reply, call: call))
        case .keyUnknown(let key):
            let step = steps.steps[max(steps.index - 1, 0)]
            return fail(.stepFailed(step: step.place, step.step, reason: "no key is named \"\(key)\""))
        case .timedOut:
            return timedOut()
        case .sharedProcessStoppedAnswering(let after):
            return end(.failure(WebParserError(.sharedWebProcessUnresponsive(after: after), url: url)))
        case .explained(let failure):
            return fail(.scriptFailed(failure))
        case .blockChecked(let service, let document):
            guard let held = load.takeHeld(checking: document) else { return [] }
            guard let service else { return httpStatusFailure(held.status, retryAfter: held.retryAfter) }
            return end(.failure(WebParserError(.blocked(by: service, status: held.status), url: url)))
        case .pageErrorRead(let error, let document):
            if document == self.document, let error { lastPageError = error }
            return []
        case .start, .snapshotWritten, .cancelled:
            preconditionFailure("RunningAttempt: \(event) is the machine's")
        }
    }

    /// Takes an event of the page.
    mutating func handle(_ event: PageEvent) -> [Action] {
        switch event {
        case .started(let url):
            load.started(url)
            steps.loadStarted()
            return []
        case .redirected(let url):
            load.redirected(url)
            return []
        case .committed(let url, let httpStatus, let retryAfter, let refresh):
            switch load.committed(url: url, httpStatus: httpStatus, retryAfter: retryAfter, refresh: refresh, page: job.page) {
            case .held:
                return []
            case .httpError(let status, let retryAfter):
                return httpStatusFailure(status, retryAfter: retryAfter)
            case .refused:
                return fail(.unsupportedURL("WebKit refused to load it (WebKit blocks some ports, such as 1 and 6000)"), url: job.url.absoluteString)
            case .shown:
                traffic.documentReplaced()
                guard steps.isFinished else { return perform(steps.committed()) }
                guard evaluating else { return startEvaluating() }
                return [.cancelLaterEvaluation] + evaluate()
            }
        case .finished:
            switch load.finished() {
            case .superseded: return []
            case .checkBlocked(let document): return [.checkBlocked(document: document)]
            case .notLoaded(let reason): return fail(.loadFailed(reason))
            case .loaded: return steps.isFinished ? startEvaluating() : []
            }
        case .failed(let failure):
            switch load.failed(failure) {
            case .superseded: return steps.isFinished ? [] : perform(steps.loadAbandoned())
            case .fails(let error): return end(.failure(error))
            }
        case .navigationRefused(let url):
            return [.tell(.navigationRefused(url: url))]
        case .navigationAsked:
            steps.navigationAsked()
            return []
        case .urlChanged(let url):
            load.urlChanged(url)
            return steps.isFinished ? [] : perform(steps.urlChanged())
        case .popupOpened(let url, let followed):
            return [.tell(.popupOpened(url: url, followed: followed))]
        case .message(let message):
            return received(message)
        case .responseRefused(let mimeType):
            load.refused(mimeType: mimeType)
            return []
        case .resource, .captured, .readStarted, .readEnded, .bodyWanted, .recorded, .requestSent:
            switch traffic.take(event, concluded: conclusion != nil) {
            case .ignored: return []
            case .recorded: return giveResponses()
            case .tracked(let commands, let busyChanged): return tracked(commands, busyChanged: busyChanged)
            }
        case .certificateTrusted:
            load.superseded()
            return []
        case .progress(let progress):
            return [.report(.loading(progress: progress))]
        case .processTerminated(.exceededMemoryLimit):
            return fail(.memoryLimitExceeded)
        case .processTerminated(.endedWithAnotherJob):
            return fail(.sharedWebProcessEnded)
        case .processTerminated(.crashed) where !load.committed && !job.url.isFileURL:
            // WebKit's UI process ends a web process whose navigation turns to a local file, and a server's
            // redirect to file: is the one way a web page's load gets there before its document arrives; but a
            // crash looks the same, so it is retried like one.
            return fail(.webProcessEndedBeforePage)
        case .processTerminated(.crashed):
            return fail(.webProcessCrashed)
        }
    }

    private mutating func received(_ message: PageMessage) -> [Action] {
        switch message {
        case .emitted(let json):
            if conclusion == nil { collection.emit(json) }
            return [.tell(.emitted(json: json))]
        case .done:
            return job.evaluation.collect == .emitted ? succeed(with: collection.emittedValues) : []
        case .console(var line):
            line.source = line.source.map(script.ownPlace)
            return [.tell(.console(line))]
        case .userScriptFailed(let failure):
            return [.tell(.userScriptFailed(failure))]
        }
    }

    /// Carries out the tracker's `commands`, tells the page when its requests started or stopped being in flight
    /// (`busyChanged`); a script of the responses gets the records that changed with them, and an answer held for the
    /// capture's bodies is read again once they came.
    private mutating func tracked(_ commands: [RequestTracker.Command], busyChanged: Bool) -> [Action] {
        var actions = commands.map { command -> Action in
            switch command {
            case .expire(let request, let delay): .expireRequest(request, after: delay)
            }
        }
        guard conclusion == nil else { return actions }
        actions += giveResponses()
        // Told to whatever document the page shows (every call also says it, so a new document learns it anyway).
        if busyChanged {
            actions.append(.notify(body: script.quiet.notifyBody(busy: traffic.tracker.isBusy, document: load.shown)))
        }
        if collection.heldAnswer != nil && !traffic.tracker.awaitsBodies {
            collection.heldAnswer = nil
            actions += evaluate()
        }
        return actions
    }

    /// Gives a script of the responses the records when they changed since it was last given them: a script that
    /// waits inside the page for its answer to settle must not settle on records that are out of date.
    private mutating func giveResponses() -> [Action] {
        guard job.scriptReadsResponses, evaluating, let records = traffic.responsesToGive() else { return [] }
        return [.notify(body: script.responsesBody(records))]
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
                    scheme != "file" || job.url.isFileURL
                else {
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
                let body =
                    StepScript.body(
                        of: step, settle: job.evaluation.settle, probe: probes ? script.probe : nil,
                        preamble: quietPreamble) ?? ""
                return actions + [.callStep(body: body, document: document)]
            case .checkAction(let document):
                return [
                    .callStep(body: StepScript.actionCheck(preamble: quietPreamble), document: document)
                ]
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
        guard !evaluating, conclusion == nil else { return [] }
        if job.evaluation.collect == .emitted && job.evaluation.script.allSatisfy(\.isWhitespace) { return [] }
        evaluating = true
        return [.report(.executingJavaScript)] + evaluate()
    }

    /// Evaluates the script in the current document: the whole of it once per document, a few bytes after.
    private mutating func evaluate() -> [Action] {
        guard conclusion == nil else { return [] }
        // A script of the responses gets them when they changed, and in each new document.
        let responses = job.scriptReadsResponses ? traffic.responsesToGive(again: installedIn != document) : nil
        let body = script.body(
            installed: installedIn == document, busy: traffic.tracker.isBusy, document: load.shown, settle: settleFor, responses: responses)
        installedIn = document
        return [.evaluate(body: body, document: document)]
    }

    private mutating func received(_ reply: JavaScriptReply) -> [Action] {
        switch script.outcome(of: reply) {
        case .value(let answer, let by, let title):
            var data = collection.answered(answer, settledBy: by, title: title)
            if job.evaluation.collect == .emitted { return succeed(with: collection.emittedValues) }
            if job.evaluation.collect == .responses { return responsesRead() }
            // The answer waits for the bodies the capture wants, and the page is read again once they came.
            if traffic.answerWaitsForBodies, traffic.tracker.awaitsBodies {
                collection.heldAnswer = data
                return []
            }
            var leftOut = 0
            if job.evaluation.extract?.items != nil { (data, leftOut) = ExtractionScript.leavingOut(data) }
            if data == steps.answerBefore, settleFor < Evaluation.unchangedAfterSteps, !collection.pages.hasPages {
                // The steps have not changed the answer yet: the page may still re-render (after a timer, a
                // websocket message), so the same answer must hold longer.
                settleFor = Evaluation.unchangedAfterSteps
                return evaluate()
            }
            let commands = collection.pages.read(data)
            // The page's list was taken (the next page is looked for, or the result is made).
            if commands.contains(where: { if case .read = $0 { false } else { true } }) { collection.leftOut(leftOut) }
            return perform(commands)
        case .failure(let kind):
            return fail(kind)
        case .syntaxError(let failure):
            return [.explain(failure)]
        case .empty(let answer):
            lastAnswer = answer ?? lastAnswer
            // The page waited a whole slice for data already: ask again at once, and for the page's last error, which
            // a time-out will tell.
            return evaluate() + [.readPageError(document: document)]
        case .notInstalled:
            installedIn = nil
            return evaluate()
        case .interrupted:
            installedIn = nil
            return [.evaluateLater(job.evaluation.pollInterval)]
        }
    }

    /// Concludes a job that collects responses once the page has settled with at least one recorded and every body
    /// the capture wants has come.
    private mutating func responsesRead() -> [Action] {
        switch traffic.collectedResponses {
        case .success(let responses):
            return succeed(with: responses)
        case .failure(let notYet):
            lastAnswer = notYet.reason
            return [.evaluateLater(job.evaluation.pollInterval)]
        }
    }

    /// Concludes the attempt with `data`.
    private mutating func succeed(with data: Data, cutShort: String? = nil, atTimeOut: Bool = false) -> [Action] {
        guard conclusion == nil else { return [] }
        conclusion = .succeeded(collection.result(data, url: url, httpStatus: load.httpStatus, cutShort: cutShort, atTimeOut: atTimeOut))
        return []
    }

    /// Concludes the attempt at its timeout, with what it has read so far, cut short.
    mutating func timedOut() -> [Action] {
        if let held = load.held, conclusion == nil { return httpStatusFailure(held.status, retryAfter: held.retryAfter) }
        if conclusion == nil, let (data, cutShort) = collection.atTimeOut(responses: traffic.responsesSoFar) {
            return succeed(with: data, cutShort: cutShort, atTimeOut: true)
        }
        // Before its first document, the page was still on its way: a transient time-out, whatever the steps.
        let running = steps.hasDocument ? steps.current : nil
        let phase = running.map { LoadPhase.runningStep($0.place, $0.step) } ?? load.phase
        var error = WebParserError(.timedOut(phase: phase, after: job.timeout), url: url)
        if phase == .waitingForResult { (error.lastAnswer, error.pageError) = (lastAnswer, lastPageError) }
        if running != nil { error.lastAnswer = steps.waitingFor }
        return end(.failure(error))
    }

    /// Concludes the attempt with the main document's HTTP error `status`, after the server's Retry-After.
    private mutating func httpStatusFailure(_ status: Int, retryAfter: String?) -> [Action] {
        end(.failure(load.httpStatusError(status, retryAfter: retryAfter)))
    }

    /// Concludes the attempt with a failure of `kind`, at `url` or where the page is.
    mutating func fail(_ kind: WebParserError.Kind, url: String? = nil) -> [Action] {
        end(.failure(WebParserError(kind, url: url ?? self.url)))
    }

    private mutating func end(_ outcome: Swift.Result<AttemptResult, WebParserError>) -> [Action] {
        guard conclusion == nil else { return [] }
        switch outcome {
        case .success(let result):
            conclusion = .succeeded(result)
        case .failure(var error):
            // A failure that may be another job's doing ends the attempt, so that it runs again on its own.
            if let (data, cutShort) = collection.afterFailure(error) { return succeed(with: data, cutShort: cutShort) }
            if steps.hasActed { error.stepsActed = true }
            conclusion = .failed(error)
        }
        return []
    }
}
