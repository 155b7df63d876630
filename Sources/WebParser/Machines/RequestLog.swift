import FoundationEssentials

/// The requests of a job that records them (`WebParserJob.recordsRequests`), as a HAR file holds them: WebKit's
/// loads as they ended, each that a script read with the read's kind (and body), each with what it sent, and, for a
/// job that records bodies, the bodies within the capture's limits.
struct RequestLog {
    private let keepsBodies: Bool
    /// The body bytes the log may hold, and holds.
    private var budget: BodyBudget
    private var loads: [WebParserRequest] = []
    private var reads: [CapturedResponse] = []
    private var sent: [(method: String, url: String, body: WebParserRequest.SentBody)] = []

    /// The log of `job`'s requests.
    init(for job: WebParserJob) {
        keepsBodies = job.recordsBodies
        budget = BodyBudget(job.capture)
    }

    /// Records `load`, a load WebKit reported.
    mutating func record(load: WebParserRequest) {
        var load = load
        if let body = load.body {
            load.body = nil
            if keepsBodies {
                if let omission = budget.take(body) { load.bodyOmitted = budget.reason(omission) } else { load.body = body }
            }
        } else if keepsBodies && load.failure == nil && load.status >= 200 && ![204, 205, 304].contains(load.status) && load.status / 100 != 3 {
            load.bodyOmitted =
                load.kind == .other
                ? "WebKit keeps no body for this kind of load (a dedicated worker's request, sendBeacon, a font…)"
                : (load.bodySize ?? 0) > budget.bodyLimit
                    ? budget.reason(.overLimit) : "WebKit gave no body for it (it gives none for a frame's document)"
        }
        loads.append(load)
    }

    /// Records `read`, a response a script read.
    mutating func record(read: CapturedResponse) {
        guard read.read != 0 else { return }
        var read = read
        if let body = read.body {
            read.body = nil
            if keepsBodies {
                if let omission = budget.take(body) { read.omitted = omission } else { read.body = body }
            }
        }
        reads.append(read)
    }

    /// Records that a script or a form sent `body` with a request of `url` by `method`.
    mutating func record(sent body: WebParserRequest.SentBody, method: String, url: String) {
        sent.append((method, url, body))
    }

    /// The requests in the order they started, each a script read with the read's kind and body, and each with
    /// what it sent: one read, and one body sent, for each request of the same method and URL, in order.
    var requests: [WebParserRequest] {
        var reads = reads
        var sent = sent
        return loads.sorted { $0.started < $1.started }.map { load in
            var request = load
            if let index = sent.firstIndex(where: { $0.method == request.method && $0.url == request.url }) {
                request.sent = sent.remove(at: index).body
            }
            guard let index = reads.firstIndex(where: { $0.url == request.url && $0.method == request.method }) else { return request }
            let read = reads.remove(at: index)
            request.kind = read.kind
            if keepsBodies, request.body == nil {
                if let body = read.body {
                    request.body = body
                    request.bodyIsExact = read.exact
                    request.bodyOmitted = nil
                } else if let omitted = read.omitted {
                    request.bodyOmitted = budget.reason(omitted)
                }
            }
            return request
        }
    }
}
