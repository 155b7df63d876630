import FoundationEssentials

/// What happened to a page's traffic: its loads, its scripts' reads, the requests it records.
enum PageTraffic: Sendable, Equatable {
    /// A load of the page's documents or subresources, numbered `id`, started, got its response or ended.
    case resource(id: UInt64, ResourceLoad)
    /// A script of the page read a response, which the page's capture took.
    case captured(CapturedResponse)
    /// A script of the page made a request whose response it may read, while the page captures: its record
    /// (`captured`, with the read's number) or `readEnded` follows.
    case readStarted(ScriptRead)
    /// The read numbered `id` ended without a record (its request failed, or its response was not the page's own).
    case readEnded(id: UInt64)
    /// A load's body is being read for the job's capture or its recorded requests; `recorded` with `bodyWanted`
    /// follows. `mainDocument`: the load is the page's main document (the one a new load is about to show).
    case bodyWanted(mainDocument: Bool)
    /// A load of the page's documents ended, while the page records them; `bodyWanted` when its body was read.
    /// `mainDocument`: the page's main document (or a redirect on its way there).
    case recorded(WebParserRequest, bodyWanted: Bool, mainDocument: Bool)
    /// A script sent `body` with a request of `url` by `method` (a fetch, an XHR), or a form posted its fields, while
    /// the page records its requests or captures.
    case requestSent(WebParserRequest.SentBody, method: String, url: String)
}

/// What happened to one load of a page's documents or subresources.
enum ResourceLoad: Sendable, Equatable {
    /// It started; `accept` is its request's Accept header ("" without one); `mainDocument` when it is the load of the
    /// page's own document (a navigation of its main frame).
    case started(accept: String, mainDocument: Bool = false)
    /// Its response arrived, of `mimeType` ("" when it has none).
    case responded(mimeType: String)
    /// It finished or failed; `url` is where it ended, after any redirect.
    case ended(url: String)
}
