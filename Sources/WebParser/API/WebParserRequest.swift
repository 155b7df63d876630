import FoundationEssentials

/// A request of a job's page as WebKit loaded it (the page's document, its subresources, its scripts' requests),
/// reported with `WebParserJob.recordsRequests`: what a HAR file's entry holds.
public struct WebParserRequest: Sendable, Equatable {
    /// An HTTP header.
    public struct Header: Sendable, Equatable {
        /// The header's name.
        public var name: String
        /// The header's value.
        public var value: String
    }

    /// The request's URL.
    public var url: String
    /// The request's HTTP method.
    public var method: String
    /// The response's HTTP status; 0 when no response came.
    public var status: Int
    /// The response's MIME type; "" when it has none.
    public var mimeType: String
    /// What made the request: the page's scripts (`fetch`, `xhr`, once webparse's capture saw them read it),
    /// or WebKit loading the page's documents (by MIME type).
    public var kind: WebParserJob.Capture.Kind
    /// When it started.
    public var started: Date
    /// When its response arrived; nil when none did.
    public var responded: Date?
    /// When it ended.
    public var ended: Date
    /// Why it failed; nil when it did not.
    public var failure: String?
    /// The request's headers as WebKit had them when it started (without those the network layer adds, such as
    /// cookies).
    public var requestHeaders: [Header]
    /// The response's headers.
    public var responseHeaders: [Header]
    /// The body's size as WebKit counted it; nil when unknown.
    public var bodySize: Int?
    /// The body, when the job's capture took it; nil otherwise.
    public var body: Data?
    /// Whether `body` holds the bytes the server sent (false: text the page decoded).
    public var bodyIsExact: Bool
    /// Why a body that was recorded (`WebParserJob.recordsBodies`) is not in `body`; nil when it is, or was not
    /// asked for.
    public var bodyOmitted: String? = nil
    /// What the request sent (a form's fields, a fetch's or an XHR's body), when the page's scripts or forms sent
    /// it; nil for a request without one, or one webparse did not see (a Blob's, a stream's).
    public var sent: SentBody? = nil

    /// What a request sent.
    public struct SentBody: Sendable, Equatable {
        /// Its `Content-Type`: as the page set it, or as a browser sends such a body
        /// (`application/x-www-form-urlencoded` for a form that posts, `text/plain;charset=UTF-8` for a string).
        public var contentType: String
        /// The bytes; for a form of `multipart/form-data`, its fields in `application/x-www-form-urlencoded` form
        /// (the parts' boundary is the network layer's).
        public var body: Data
    }

    /// For the script of a shared worker (its request's `Sec-Fetch-Dest`), that the worker's own requests are not
    /// recorded, and why; nil for any other request. A dedicated worker's requests are the page's; pages have no
    /// service workers.
    public var unrecordedWorkerNote: String? {
        let destination = requestHeaders.last { $0.name.lowercased() == "sec-fetch-dest" }?.value.lowercased()
        guard destination == "sharedworker" else { return nil }
        return
            "the script of a shared worker: WebKit runs it apart from the page and reports its requests to no page, so the worker's own requests are not recorded"
    }
}
