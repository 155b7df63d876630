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
    let job: WebParserJob
    /// Where the page is and how its load goes.
    var load: AttemptLoad
    /// The job's script: whether it is read, where, and what it last said.
    var reading: AttemptReading
    /// The number of the document the page shows: a reply from an earlier one is stale.
    var document: Int { load.document }
    var url: String { load.url }
    /// The job's steps, run before the script.
    var steps: StepRunner
    /// What the attempt collects for its result.
    var collection: AttemptCollection

    /// The page's requests, for a job that records them (`RequestLog`).
    var recordedRequests: [WebParserRequest] { traffic.recorded }
    /// The page's requests in flight, the responses captured and the requests recorded.
    var traffic: AttemptTraffic
    /// The page as the script's reading sees it, for a call to document number `document`.
    func page(in document: Int) -> AttemptReading.Page {
        AttemptReading.Page(document: document, busy: traffic.tracker.isBusy, shown: load.shown)
    }

    /// An attempt of `job`, with its script made ready, about to load.
    init(job: WebParserJob, script: PageScript) {
        self.job = job
        self.load = AttemptLoad(url: job.url.absoluteString)
        self.reading = AttemptReading(job: job, script: script)
        self.collection = AttemptCollection(job: job)
        self.steps = StepRunner(steps: job.evaluation.steps, readsAnswerBefore: reading.stepsReadTheAnswer)
        self.traffic = AttemptTraffic(job: job)
    }

    /// Takes `event`.
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
            return perform(collection.found(reply, call: call))
        case .keyUnknown(let key):
            return perform(steps.keyUnknown(key))
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
            if document == self.document, let error { reading.pageErrorRead(error) }
            return []
        }
    }

    /// Concludes the attempt with `data`.
    mutating func succeed(with data: Data, cutShort: String? = nil, atTimeOut: Bool = false) -> [Action] {
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
        if phase == .waitingForResult { error = reading.explained(error) }
        if running != nil { error.lastAnswer = steps.waitingFor }
        return end(.failure(error))
    }

    /// Concludes the attempt with the main document's HTTP error `status`, after the server's Retry-After.
    mutating func httpStatusFailure(_ status: Int, retryAfter: String?) -> [Action] {
        end(.failure(load.httpStatusError(status, retryAfter: retryAfter)))
    }

    /// Concludes the attempt with a failure of `kind`, at `url` or where the page is.
    mutating func fail(_ kind: WebParserError.Kind, url: String? = nil) -> [Action] {
        end(.failure(WebParserError(kind, url: url ?? self.url)))
    }

    mutating func end(_ outcome: Swift.Result<AttemptResult, WebParserError>) -> [Action] {
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
