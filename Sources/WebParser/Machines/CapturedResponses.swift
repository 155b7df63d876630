import FoundationEssentials

/// The records of a job's capture: the responses its rules take, within its limits, in the order their bodies
/// arrived. The page's scripts' reads (from webparse's hook) and WebKit's loads (from the UI process) both come:
/// a load that a script read is recorded once, as the read, which has its body. WebKit reports a load before the
/// page's thread has passed its body on, so a load that a script's read still on its way (`ScriptRead`) will
/// stand for is not shown until the read comes or ends.
struct CapturedResponses {
    private let rules: CaptureRules
    /// A response as it came, with the rule that took it.
    private enum Entry {
        case read(CapturedResponse, WebParserJob.Capture.Rule)
        case load(WebParserRequest, WebParserJob.Capture.Rule)
    }
    private var entries: [Entry] = []
    /// The body bytes the entries may hold, and hold.
    private var budget: BodyBudget

    /// The records of `capture`; nil when one of its rules' URL is not a regular expression (`problem`).
    init?(_ capture: WebParserJob.Capture) {
        guard let rules = CaptureRules(capture) else { return nil }
        self.rules = rules
        budget = BodyBudget(capture)
    }

    /// What the records shown while `pending` reads are on their way are made of, which changes exactly when they
    /// do (compared without writing their JSON, as it is asked at every read).
    func version(hiding pending: [ScriptRead]) -> Version { Version(shown: shownIndices(hiding: pending)) }

    /// What the records shown are made of: which entries, in order.
    struct Version: Equatable {
        var shown: [Int]
    }

    /// How many responses are shown while `pending` reads are on their way.
    func count(hiding pending: [ScriptRead] = []) -> Int { shown(hiding: pending).count }

    /// The records shown while `pending` reads are on their way, as a JSON array.
    func json(hiding pending: [ScriptRead] = []) -> Data {
        JSONText.array(
            shown(hiding: pending).map { entry in
                switch entry {
                case .read(let response, let rule): record(of: response, as: rule.body)
                case .load(let load, let rule): record(of: load, as: rule.body)
                }
            })
    }

    /// Records `response`, a script's read, if a rule takes it.
    mutating func record(_ response: CapturedResponse) {
        guard let rule = rules.rule(for: response.url, kind: response.kind) else { return }
        var response = response
        if let body = response.body, let omission = budget.take(body) {
            response.body = nil
            response.omitted = omission
        }
        entries.append(.read(response, rule))
    }

    /// Records `load`, a load WebKit reported, if a rule takes it.
    mutating func record(load: WebParserRequest) {
        guard load.failure == nil, let rule = rules.rule(for: load.url, kind: load.kind) else { return }
        var load = load
        if let body = load.body, budget.take(body) != nil { load.body = nil }
        entries.append(.load(load, rule))
    }

    /// The entries recorded, in order; a load that a script's read (same method and URL) also recorded, or will
    /// record (a read on its way), is left out, one load for each read.
    private func shown(hiding pending: [ScriptRead]) -> [Entry] {
        shownIndices(hiding: pending).map { entries[$0] }
    }

    /// The places in `entries` of the entries shown.
    private func shownIndices(hiding pending: [ScriptRead]) -> [Int] {
        var reads: [String: Int] = [:]
        for case .read(let response, _) in entries { reads[response.method + " " + response.url, default: 0] += 1 }
        for read in pending { reads[read.method + " " + read.url, default: 0] += 1 }
        return entries.indices.filter { index in
            guard case .load(let load, _) = entries[index], let count = reads[load.method + " " + load.url], count > 0 else { return true }
            reads[load.method + " " + load.url] = count - 1
            return false
        }
    }

    private func record(of response: CapturedResponse, as form: WebParserJob.Capture.BodyForm) -> Data {
        var members = Self.head(
            url: response.url, method: response.method, status: response.status, mimeType: response.mimeType, kind: response.kind,
            frame: response.mainFrame ? "main" : "iframe", size: response.size)
        if let omission = response.omitted {
            members.append(("omitted", .string(budget.reason(omission))))
        } else if let body = response.body {
            members.append(("exact", .bool(response.exact)))
            members += Self.body(body, as: form)
        }
        return JSONText.object(members)
    }

    private func record(of load: WebParserRequest, as form: WebParserJob.Capture.BodyForm) -> Data {
        var members = Self.head(
            url: load.url, method: load.method, status: load.status, mimeType: load.mimeType, kind: load.kind, frame: nil,
            size: load.body?.count ?? load.bodySize ?? 0)
        if let note = load.unrecordedWorkerNote { members.append(("unrecordedRequests", .string(note))) }
        if let body = load.body {
            members.append(("exact", .bool(true)))
            members += Self.body(body, as: form)
        } else {
            let size = load.bodySize ?? 0
            let reason =
                size > budget.bodyLimit
                ? budget.reason(.overLimit)
                : load.kind == .other || load.kind == .document && load.bodySize == nil
                    ? "WebKit keeps no body for it (a dedicated worker's request, sendBeacon, a font…)"
                    : "WebKit gave no body for it, or it did not fit the total limit"
            members.append(("omitted", .string(reason)))
        }
        return JSONText.object(members)
    }

    private static func head(
        url: String, method: String, status: Int, mimeType: String, kind: WebParserJob.Capture.Kind, frame: String?, size: Int
    ) -> [(key: String, value: JSONText.Value)] {
        var members: [(key: String, value: JSONText.Value)] = [
            ("url", .string(url)), ("method", .string(method)), ("status", .integer(status)), ("mimeType", .string(mimeType)),
            ("kind", .string(kind.rawValue))
        ]
        if let frame { members.append(("frame", .string(frame))) }
        members.append(("size", .integer(size)))
        return members
    }

    /// The record's members for `body` in `form`.
    private static func body(_ body: Data, as form: WebParserJob.Capture.BodyForm) -> [(key: String, value: JSONText.Value)] {
        switch form {
        case .json:
            // Valid JSON holds no raw line break inside a string: dropping them keeps it valid, on one line.
            guard JSONTextCheck.isJSON(body) else {
                return [("body", .string(String(decoding: body, as: UTF8.self))), ("note", .string("the body is not JSON; it is kept as text"))]
            }
            return [("body", .raw(Data(body.filter { $0 != UInt8(ascii: "\n") && $0 != UInt8(ascii: "\r") })))]
        case .text:
            return [("body", .string(String(decoding: body, as: UTF8.self)))]
        case .base64:
            return [("body", .string(body.base64EncodedString()))]
        }
    }
}
