import FoundationEssentials
import WebParser

/// A HAR 1.2 file (the HTTP Archive format browsers' developer tools, Playwright's `record_har_path` and
/// shot-scraper's `har` write) of jobs' pages: a page per job, an entry per request, with the bodies the jobs'
/// capture took. What WebKit does not tell (HTTP version, header sizes, DNS and connect times) is given as HAR
/// says unknown values are: "" for text, -1 for numbers.
package enum HARLog {
    /// One job's page and its requests.
    package struct Page: Sendable {
        package var name: String
        package var url: String
        package var requests: [WebParserRequest]

        package init(name: String, url: String, requests: [WebParserRequest]) {
            self.name = name
            self.url = url
            self.requests = requests
        }
    }

    /// The HAR file of `pages`, written by webparse `version`, each value of `secrets` (environment variables'
    /// names and values that steps typed) replaced by `[env NAME]` wherever it would appear.
    package static func json(of pages: [Page], version: String, secrets: [String: String] = [:], now: Date = Date()) -> Data {
        let redaction = HARRedaction(secrets: secrets)
        let log: [(key: String, value: JSONText.Value)] = [
            ("version", .string("1.2")),
            ("creator", .object([("name", .string("webparse")), ("version", .string(version))])),
            (
                "pages",
                .array(
                    pages.map { page in
                        .object([
                            ("startedDateTime", .string(timestamp(page.requests.map(\.started).min() ?? now))), ("id", .string(page.name)),
                            ("title", .string(page.url)), ("pageTimings", .object([("onContentLoad", .integer(-1)), ("onLoad", .integer(-1))]))
                        ])
                    })
            ),
            ("entries", .array(pages.flatMap { page in page.requests.map { entry(redaction.redacted($0), page: page.name) } }))
        ]
        return JSONText.object([("log", .object(log))])
    }

    private static func entry(_ request: WebParserRequest, page: String) -> JSONText.Value {
        let wait = milliseconds(from: request.started, to: request.responded ?? request.ended)
        let receive = request.responded.map { milliseconds(from: $0, to: request.ended) } ?? 0
        var members: [(key: String, value: JSONText.Value)] = [
            ("pageref", .string(page)), ("startedDateTime", .string(timestamp(request.started))), ("time", .integer(wait + receive)),
            ("request", self.request(request)), ("response", response(request)), ("cache", .object([])),
            (
                "timings",
                .object([
                    ("blocked", .integer(-1)), ("dns", .integer(-1)), ("connect", .integer(-1)), ("ssl", .integer(-1)), ("send", .integer(0)),
                    ("wait", .integer(wait)), ("receive", .integer(receive))
                ])
            ),
            ("_kind", .string(request.kind.rawValue))
        ]
        if let failure = request.failure { members.append(("_error", .string(failure))) }
        if let note = request.unrecordedWorkerNote { members.append(("comment", .string(note))) }
        return .object(members)
    }

    private static func request(_ request: WebParserRequest) -> JSONText.Value {
        let query = URLComponents(string: request.url)?.queryItems ?? []
        var members: [(key: String, value: JSONText.Value)] = [
            ("method", .string(request.method)), ("url", .string(request.url)), ("httpVersion", .string("")), ("cookies", .array([])),
            ("headers", headers(request.requestHeaders)),
            ("queryString", .array(query.map { .object([("name", .string($0.name)), ("value", .string($0.value ?? ""))]) })),
            ("headersSize", .integer(-1)), ("bodySize", .integer(request.sent?.body.count ?? (request.method == "GET" ? 0 : -1)))
        ]
        if let sent = request.sent { members.append(("postData", postData(sent))) }
        return .object(members)
    }

    /// What a request sent: its text, and a form's fields as `params`.
    private static func postData(_ sent: WebParserRequest.SentBody) -> JSONText.Value {
        var members: [(key: String, value: JSONText.Value)] = [("mimeType", .string(sent.contentType))]
        if let fields = HARRedaction.formFields(of: sent) {
            members.append(("params", .array(fields.map { .object([("name", .string($0.name)), ("value", .string($0.value))]) })))
            // A multipart body's bytes are the network layer's (their boundary): its fields are what it sent.
            let multipart = sent.contentType.lowercased().hasPrefix("multipart/")
            members.append(("text", .string(multipart ? "" : String(decoding: sent.body, as: UTF8.self))))
        } else if let text = String(validating: sent.body, as: UTF8.self) {
            members.append(("text", .string(text)))
        } else {
            members += [("text", .string(sent.body.base64EncodedString())), ("comment", .string("the bytes sent, in base64"))]
        }
        return .object(members)
    }

    private static func response(_ request: WebParserRequest) -> JSONText.Value {
        var content: [(key: String, value: JSONText.Value)] = [
            ("size", .integer(request.body?.count ?? request.bodySize ?? 0)), ("mimeType", .string(request.mimeType))
        ]
        if let body = request.body {
            if let text = String(validating: body, as: UTF8.self) {
                content.append(("text", .string(text)))
            } else {
                content += [("text", .string(body.base64EncodedString())), ("encoding", .string("base64"))]
            }
            if !request.bodyIsExact { content.append(("comment", .string("text the page decoded, not the bytes the server sent"))) }
        } else if let omitted = request.bodyOmitted {
            content.append(("comment", .string("the body was left out: \(omitted)")))
        }
        let location = request.responseHeaders.first { $0.name.lowercased() == "location" }?.value ?? ""
        return .object([
            ("status", .integer(request.status)), ("statusText", .string("")), ("httpVersion", .string("")), ("cookies", .array([])),
            ("headers", headers(request.responseHeaders)), ("content", .object(content)), ("redirectURL", .string(location)),
            ("headersSize", .integer(-1)), ("bodySize", .integer(request.bodySize ?? -1))
        ])
    }

    private static func headers(_ headers: [WebParserRequest.Header]) -> JSONText.Value {
        .array(headers.map { .object([("name", .string($0.name)), ("value", .string($0.value))]) })
    }

    private static func milliseconds(from start: Date, to end: Date) -> Int {
        max(0, Int((end.timeIntervalSince(start) * 1000).rounded()))
    }

    private static func timestamp(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }
}
