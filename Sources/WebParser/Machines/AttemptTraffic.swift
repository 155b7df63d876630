import FoundationEssentials

/// The page's requests as an attempt follows them: those in flight and the scripts' reads whose bodies are on their
/// way (`RequestTracker`), the responses the job's capture records (`CapturedResponses`), the requests a job records
/// for a HAR file (`RequestLog`), and which records a script of the responses was last given.
struct AttemptTraffic {
    private(set) var tracker = RequestTracker()
    private(set) var captured: CapturedResponses?
    private var log: RequestLog?
    /// The records a script of the responses was last given.
    private var given: CapturedResponses.Version?
    /// Whether a script's answer waits for the bodies on their way: the capture's, or a HAR file's.
    let answerWaitsForBodies: Bool

    /// The traffic of an attempt of `job`.
    init(job: WebParserJob) {
        captured = job.capture.flatMap(CapturedResponses.init)
        log = job.recordsRequests ? RequestLog(for: job) : nil
        answerWaitsForBodies = job.capture != nil || job.recordsBodies
    }

    /// The page's requests, for a job that records them.
    var recorded: [WebParserRequest] { log?.requests ?? [] }

    /// A read of a script ended with `response`, which the capture and the log record.
    private mutating func record(read response: CapturedResponse) {
        captured?.record(response)
        log?.record(read: response)
    }

    /// WebKit's load `request` ended, which the capture and the log record.
    private mutating func record(load request: WebParserRequest) {
        captured?.record(load: request)
        log?.record(load: request)
    }

    /// What a page event of the traffic did.
    enum Taken {
        /// Nothing: it came after the attempt concluded, or it records nothing.
        case ignored
        /// It changed the records, not the requests in flight.
        case recorded
        /// It changed the requests in flight (and maybe the records): the tracker's commands, and whether the page's
        /// requests started or stopped being in flight.
        case tracked([RequestTracker.Command], busyChanged: Bool)
    }

    /// Takes `event`, one of the page's traffic; once the attempt has `concluded`, records are no longer kept.
    mutating func take(_ event: PageTraffic, concluded: Bool) -> Taken {
        switch event {
        case .resource(let id, let load):
            return tracked { $0.handle(load, id: id) }
        case .captured(let response):
            guard !concluded else { return .ignored }
            record(read: response)
            return tracked {
                $0.ended(read: response.read); return []
            }
        case .readStarted(let read):
            return tracked { $0.started(read) }
        case .readEnded(let id):
            return tracked {
                $0.ended(read: id); return []
            }
        case .bodyWanted:
            return tracked {
                $0.bodyWanted(); return []
            }
        case .recorded(let request, let bodyWanted, _):
            guard !concluded else { return .ignored }
            record(load: request)
            guard bodyWanted else { return .recorded }
            return tracked {
                $0.bodyRead(); return []
            }
        case .requestSent(let body, let method, let url):
            if !concluded { log?.record(sent: body, method: method, url: url) }
            return .ignored
        }
    }

    private mutating func tracked(_ change: (inout RequestTracker) -> [RequestTracker.Command]) -> Taken {
        let (commands, busyChanged) = track(change)
        return .tracked(commands, busyChanged: busyChanged)
    }

    /// Lets `change` update the requests in flight.
    /// - Returns: the tracker's commands, and whether the page's requests started or stopped being in flight.
    mutating func track(_ change: (inout RequestTracker) -> [RequestTracker.Command]) -> (commands: [RequestTracker.Command], busyChanged: Bool) {
        let wasBusy = tracker.isBusy
        let commands = change(&tracker)
        return (commands, tracker.isBusy != wasBusy)
    }

    /// A new document replaced the one whose requests were followed.
    mutating func documentReplaced() {
        tracker.documentReplaced()
    }

    /// The records to give a script of the responses: when they changed since it was last given them, or always
    /// with `again` (a new document's script has none); nil when there is nothing new to give.
    mutating func responsesToGive(again: Bool = false) -> Data? {
        guard let captured, again || captured.version(hiding: tracker.reads) != given else { return nil }
        given = captured.version(hiding: tracker.reads)
        return captured.json(hiding: tracker.reads)
    }

    /// The responses a job that collects them ends with: once at least one is recorded and no body the capture wants
    /// is on its way; otherwise why not yet.
    var collectedResponses: Result<Data, NotYet> {
        guard let captured, captured.count(hiding: tracker.reads) > 0, !tracker.awaitsBodies else {
            return .failure(NotYet(reason: tracker.awaitsBodies ? "the bodies of responses were still on their way" : "no response matched capture yet"))
        }
        return .success(captured.json(hiding: tracker.reads))
    }

    /// Why the responses are not the result yet.
    struct NotYet: Error {
        var reason: String
    }

    /// Every response recorded until now, and how many, at a timeout; nil when none is.
    var responsesSoFar: (json: Data, count: Int)? {
        guard let captured, captured.count() > 0 else { return nil }
        return (captured.json(), captured.count())
    }
}
