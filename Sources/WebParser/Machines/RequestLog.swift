import FoundationEssentials

/// The requests of a job that records them (`WebParserJob.recordsRequests`), as a HAR file holds them: WebKit's
/// loads as they ended, each that a script read with the read's kind (and body), each with what it sent, and, for a
/// job that records bodies, the bodies within the capture's limits.
struct RequestLog {
    private let keepsBodies: Bool
    private let bodyLimit: Int
    private let totalLimit: Int
    private var loads: [WebParserRequest] = []
    private var reads: [CapturedResponse] = []
    private var sent: [(method: String, url: String, body: WebParserRequest.SentBody)] = []
    /// The body bytes kept so far.
    private var total = 0

    /// The log of `job`'s requests.
    init(for job: WebParserJob) {
        keepsBodies = job.recordsBodies
        bodyLimit = job.capture?.bodyLimit ?? WebParserJob.Capture.defaultBodyLimit
        totalLimit = job.capture?.totalLimit ?? WebParserJob.Capture.defaultTotalLimit
    }

    /// Records `load`, a load WebKit reported.
    mutating func record(load: WebParserRequest) {
        var load = load
        if let body = load.body {
            load.body = nil
            if keepsBodies { (load.body, load.bodyOmitted) = kept(body) }
        } else if keepsBodies && load.failure == nil && load.status >= 200 && ![204, 205, 304].contains(load.status) && load.status / 100 != 3 {
            load.bodyOmitted =
                load.kind == .other
                ? "WebKit keeps no body for this kind of load (a dedicated worker's request, sendBeacon, a font…)"
                : (load.bodySize ?? 0) > bodyLimit
                    ? "the body is larger than the limit of \(bodyLimit) bytes" : "WebKit gave no body for it (it gives none for a frame's document)"
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
                let (kept, omitted) = kept(body)
                read.body = kept
                if omitted != nil { read.omitted = body.count > bodyLimit ? .overLimit : .pastTotal }
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
                    request.bodyOmitted = Self.reason(omitted, limit: bodyLimit)
                }
            }
            return request
        }
    }

    /// `body` when it fits both limits (counted in the total), else nil and why.
    private mutating func kept(_ body: Data) -> (Data?, String?) {
        guard body.count <= bodyLimit else { return (nil, "the body (\(body.count) bytes) is larger than the limit of \(bodyLimit) bytes") }
        guard total + body.count <= totalLimit else {
            return (nil, "the file holds \(total) body bytes already, and the total limit is \(totalLimit)")
        }
        total += body.count
        return (body, nil)
    }

    private static func reason(_ omission: CapturedResponse.Omission, limit: Int) -> String {
        switch omission {
        case .overLimit: "the body is larger than the limit of \(limit) bytes"
        case .pastTotal: "the total limit of body bytes was reached"
        case .opaque: "an opaque (no-cors) response: its body is hidden from the page itself"
        case .unreadable: "the page could not read the body"
        case .websocket: "a websocket: its messages are not recorded"
        case .eventStream: "an event stream (EventSource): its events are not recorded"
        }
    }
}
