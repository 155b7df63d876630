/// Something that happened to a page.
enum PageEvent: Sendable, Equatable {
    /// A load began.
    case started(url: String)
    /// The server redirected the load.
    case redirected(url: String)
    /// The main document's response arrived; `httpStatus` is 0 when there is none (a `file:` URL), and
    /// `retryAfter` is its Retry-After header, if any; `refresh` is its `Refresh` header, if any (the
    /// document will be replaced after a while).
    case committed(url: String, httpStatus: Int, retryAfter: String? = nil, refresh: String? = nil)
    /// The load ended, after success or after `failed`.
    case finished(url: String)
    /// The main load failed.
    case failed(PageLoadFailure)
    /// The estimated load progress, from 0 to 1.
    case progress(Double)
    /// The page's web process ended without the page asking for it.
    case processTerminated(ProcessTermination)
    /// WebKit was asked to navigate the page or one of its frames to `url` (WebKit does not say which), and may.
    case navigationAsked(url: String)
    /// The page tried to navigate to a URL a scraper does not follow (`mailto:`, `tel:`…); it stays where it is.
    case navigationRefused(url: String)
    /// The main document is not a page WebKit can show (a download); its load fails next.
    case responseRefused(mimeType: String)
    /// The server's untrusted certificate was accepted, as the load asked: the load ends and starts again.
    case certificateTrusted
    /// The page's URL changed without a load (`history.pushState`, a new fragment).
    case urlChanged(String)
    /// The page opened a window for `url`; with `followed`, it loads `url` itself.
    case popupOpened(url: String, followed: Bool)
    /// The page's bridge said something.
    case message(PageMessage)
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

/// A failed main load, as WebKit reported it.
struct PageLoadFailure: Sendable, Equatable {
    var url: String
    var error: PageError
}

/// Why a web process ended.
enum ProcessTermination: Sendable, Equatable {
    case crashed
    case exceededMemoryLimit
    /// The process ended while it held another job's page too: it crashed or went over the memory limit then
    /// (WebKit does not say because of which page), or it was stopped because that page's job ended while the
    /// page may have been stuck in JavaScript. The page's own job may not be to blame.
    case endedWithAnotherJob
}
