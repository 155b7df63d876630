import Foundation

/// The records of a job's capture: the responses its rules take, within its limits, each as a JSON object in the
/// order the bodies arrived.
struct CapturedResponses {
    private let capture: WebParserJob.Capture
    private let patterns: [NSRegularExpression]
    /// The records, as JSON text.
    private(set) var records: [Data] = []
    /// The body bytes the records hold.
    private var total = 0

    /// The records of `capture`; nil when one of its rules' URL is not a regular expression (`problem`).
    init?(_ capture: WebParserJob.Capture) {
        let patterns = capture.rules.compactMap { try? NSRegularExpression(pattern: $0.url) }
        guard patterns.count == capture.rules.count else { return nil }
        self.capture = capture
        self.patterns = patterns
    }

    /// Why `capture` cannot run, or nil when it can.
    static func problem(with capture: WebParserJob.Capture) -> String? {
        for rule in capture.rules {
            do { _ = try NSRegularExpression(pattern: rule.url) } catch { return "capture: \"\(rule.url)\" is not a regular expression" }
        }
        return nil
    }

    /// The records as a JSON array.
    var json: Data { JSONText.array(records) }

    /// Records `response` if a rule takes it.
    mutating func record(_ response: CapturedResponse) {
        let range = NSRange(response.url.startIndex..., in: response.url)
        guard
            let index = capture.rules.indices.first(where: {
                capture.rules[$0].kinds.contains(response.kind) && patterns[$0].firstMatch(in: response.url, range: range) != nil
            })
        else { return }
        var members: [(key: String, value: JSONText.Value)] = [
            ("url", .string(response.url)), ("method", .string(response.method)), ("status", .integer(response.status)),
            ("mimeType", .string(response.mimeType)), ("kind", .string(response.kind.rawValue)),
            ("frame", .string(response.mainFrame ? "main" : "iframe")), ("size", .integer(response.size))
        ]
        if let omission = response.omitted {
            members.append(("omitted", .string(Self.reason(omission, limit: capture.bodyLimit))))
        } else if let body = response.body, body.count > capture.bodyLimit {
            members.append(("omitted", .string(Self.reason(.overLimit, limit: capture.bodyLimit))))
        } else if let body = response.body, total + body.count > capture.totalLimit {
            members.append(("omitted", .string("the records hold \(total) body bytes already, and the total limit is \(capture.totalLimit)")))
        } else if let body = response.body {
            total += body.count
            members.append(("exact", .bool(response.exact)))
            members += Self.body(body, as: capture.rules[index].body)
        }
        records.append(JSONText.object(members))
    }

    private static func reason(_ omission: CapturedResponse.Omission, limit: Int) -> String {
        switch omission {
        case .overLimit: "the body is larger than the limit of \(limit) bytes"
        case .opaque: "an opaque (no-cors) response: its body is hidden from the page itself"
        case .unreadable: "the page could not read the body"
        }
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
