import Foundation

/// What the engine needs from a page: load a URL, run JavaScript, report what happens, close.
///
/// The engine depends on this protocol only, so its logic is tested with a fake page; `WebKitPage` is the
/// real one.
@WebKitActor
protocol WebPage: AnyObject {
    /// Receives every event of the page, in order, until `close()`.
    var eventHandler: ((PageEvent) -> Void)? { get set }

    /// Starts loading `request` in place of whatever the page shows.
    func load(_ request: PageRequest)

    /// Calls `body` as the body of an async function in the page and awaits a returned Promise.
    /// `completion` is called exactly once, unless the page is closed first.
    func callAsyncFunction(_ body: String, sourceName: String, completion: @escaping @WebKitActor (JavaScriptReply) -> Void)

    /// Clicks the primary button at (`x`, `y`), in CSS pixels from the viewport's top left corner, as a user's
    /// pointer does: the page gets trusted pointer and mouse events.
    func click(x: Double, y: Double)

    /// Presses and releases the key with the GDK name `key` (`Return`, `Tab`, `a`) as a user's keyboard does,
    /// on the focused element; false when no key has that name.
    func press(key: String) -> Bool

    /// Writes a PNG of what the page shows (the viewport, or the whole document with `fullPage`) to `file`;
    /// `completion` gets nil once it is written, or what went wrong. Called once, unless the page is closed first.
    func snapshot(fullPage: Bool, to file: URL, completion: @escaping @WebKitActor (String?) -> Void)

    /// Whether another job's page is in use in this page's web process: it shares the process's one thread for
    /// scripts, so a time-out or the process's end may be that page's doing.
    var sharesProcessWithAnotherJob: Bool { get }

    /// Asks the page's web process for an answer that no page script can hold up or forge: `answered` is called
    /// once the process's thread is free to give it, unless the page is closed first.
    func ping(answered: @escaping @WebKitActor () -> Void)

    /// Stops everything the page does, ends its web process and releases it. No event follows.
    func close()
}

/// How a page comes back from an attempt, which decides what becomes of it and of its web process.
enum PageReturn: Sendable, Equatable {
    /// The attempt succeeded: the page's web process can serve another job.
    case succeeded
    /// The attempt failed while the page still answered.
    case failed
    /// The attempt ended while the page may have stopped answering (it ran out of time, or was cancelled): its
    /// web process ends, even when other pages share it.
    case unresponsive

    /// How a page comes back from an attempt that ended with `result` (nil: cancelled).
    init(_ result: Result<AttemptResult, WebParserError>?) {
        switch result {
        case .success(let result)? where !result.endedAtTimeOut: self = .succeeded
        case .failure(let error)? where !error.kind.isTimeOut && !error.kind.isUnresponsive: self = .failed
        default: self = .unresponsive
        }
    }
}

/// What one load asks of a page, beyond its URL.
struct PageRequest: Sendable, Equatable {
    var url: URL
    /// Added to the main document's request.
    var headers: [String: String] = [:]
    /// Given once if the server asks for HTTP authentication during this load.
    var credentials: WebParserJob.Credentials?
    /// Whether an untrusted certificate of the server is accepted for this load.
    var trustsAnyCertificate = false

    init(url: URL, headers: [String: String] = [:], credentials: WebParserJob.Credentials? = nil,
         trustsAnyCertificate: Bool = false) {
        self.url = url
        self.headers = headers
        self.credentials = credentials
        self.trustsAnyCertificate = trustsAnyCertificate
    }

    /// The request for `job`'s page.
    init(for job: WebParserJob) {
        self.init(url: job.url, headers: job.load.headers, credentials: job.load.credentials,
                  trustsAnyCertificate: job.load.ignoresTLSErrors)
    }

    /// The request for `url`, a page that `job`'s page leads to (its next page): the job's headers, credentials
    /// and trust in an untrusted certificate go with it only on the job's own origin, never to a host a page
    /// names.
    init(following url: URL, of job: WebParserJob) {
        let sameOrigin = url.scheme?.lowercased() == job.url.scheme?.lowercased() && url.host()?.lowercased() == job.url.host()?.lowercased()
            && (url.port ?? -1) == (job.url.port ?? -1)
        self.init(url: url, headers: sameOrigin ? job.load.headers : [:], credentials: sameOrigin ? job.load.credentials : nil,
                  trustsAnyCertificate: sameOrigin && job.load.ignoresTLSErrors)
    }
}

extension PageSettings {
    /// What the page's content filter blocks.
    var blocking: ContentBlocking { ContentBlocking(resources: blockedResources, urlPatterns: blockedURLs) }

    /// Whether a window the page opens is loaded in the page itself.
    var followsPopups: Bool { popups == .follow }

    /// The bridge a page with these options runs at the start of its documents; nil when it needs none.
    func makeBridge() -> PageBridge? {
        guard !userScripts.isEmpty || capturesConsole else { return nil }
        return PageBridge(userScripts: userScripts, capturesConsole: capturesConsole)
    }
}

/// Something that happened to a page.
enum PageEvent: Sendable, Equatable {
    /// A load began.
    case started(url: String)
    /// The server redirected the load.
    case redirected(url: String)
    /// The main document's response arrived; `httpStatus` is 0 when there is none (a `file:` URL), and
    /// `retryAfter` is its Retry-After header, if any.
    case committed(url: String, httpStatus: Int, retryAfter: String? = nil)
    /// The load ended, after success or after `failed`.
    case finished(url: String)
    /// The main load failed.
    case failed(PageLoadFailure)
    /// The estimated load progress, from 0 to 1.
    case progress(Double)
    /// The page's web process ended without the page asking for it.
    case processTerminated(ProcessTermination)
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
}

/// What happened to one load of a page's documents or subresources.
enum ResourceLoad: Sendable, Equatable {
    /// It started; `accept` is its request's Accept header ("" without one).
    case started(accept: String)
    /// Its response arrived, of `mimeType` ("" when it has none).
    case responded(mimeType: String)
    /// It finished or failed.
    case ended
}

/// What a page may navigate to and show: web documents, not downloads or other applications' URLs.
enum NavigationPolicy {
    /// The schemes a page may navigate to; others (`mailto:`, `tel:`, `intent:`…) are refused.
    static let schemes: Set<String> = ["http", "https", "file", "about", "data", "blob"]

    /// Whether the page may go to `url`, itself or in a frame: to the `schemes`, but to a `file:` URL only in
    /// a job that loads local files (`localFiles`), so that no web page reaches the machine's files.
    static func allows(navigationTo url: String, localFiles: Bool) -> Bool {
        guard let target = scheme(of: url) else { return false }
        if target == "file" { return localFiles }
        return schemes.contains(target)
    }

    /// Whether a window the page at `opener` opened for `url` is loaded in the page's place (when the job
    /// follows popups): a web page opens only web pages (http, https), never a local file; a `file:` page may
    /// also open `file:` pages. `about:blank` and every other scheme are ignored.
    static func follows(popupTo url: String, from opener: String) -> Bool {
        guard let target = scheme(of: url) else { return false }
        if target == "http" || target == "https" { return true }
        return target == "file" && scheme(of: opener) == "file"
    }

    private static func scheme(of url: String) -> String? {
        url.firstIndex(of: ":").map { url[..<$0].lowercased() }
    }
}

/// A failed main load, as WebKit reported it.
struct PageLoadFailure: Sendable, Equatable {
    var url: String
    /// The GLib error domain's name, such as `g-io-error-quark` or `WebKitNetworkError`.
    var domain: String
    var code: Int
    var message: String
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

/// The value a JavaScript call produced, or why it produced none.
enum JavaScriptReply: Sendable, Equatable {
    case undefined
    case null
    /// A string's contents, as UTF-8.
    case string(Data)
    /// Any other value, as JSON text.
    case json(Data)
    /// A value with no JSON form.
    case unserializable
    /// The call failed: a syntax error, or the page went away while it ran.
    case failed(domain: String, code: Int, message: String)
}
