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
    /// WebKit ended the load the tab still had in progress when webparse asked for a new one (its document had come,
    /// a stylesheet was still loading): the end of the tab's earlier page, never the new load's.
    case earlierLoadEnded
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
    /// The page's own script opened a window for `url` without a user's action: refused.
    case popupBlocked(url: String)
    /// The page's bridge said something.
    case message(PageMessage)
    /// The page's traffic: its loads, its scripts' reads, the requests it records.
    case traffic(PageTraffic)
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
