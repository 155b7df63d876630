import Foundation

/// One scraping job: a page to load and a JavaScript expression to evaluate in it until it yields data.
public struct WebParserJob: Sendable, Equatable {
    /// The URL schemes a job can load.
    public static let supportedSchemes: Set<String> = ["http", "https", "file"]

    /// The page to load (one of `supportedSchemes`).
    public var url: URL
    /// The JavaScript that extracts the data: an expression (`document.title`), an IIFE, or a function
    /// (`() => …`, `async () => …`) that webparse calls. A returned Promise is awaited. `null`, `undefined`,
    /// `""`, `[]` and `{}` mean "not there yet"; anything else, `0` and `false` included, is the result. Once
    /// `waitFor` or `waitForSelector` holds, the script's result is final, empty included (a search without
    /// hits, no new chapters).
    public var script: String
    /// A JavaScript expression (or function) that must be truthy, and not an empty array, before `script` is
    /// evaluated; nil evaluates `script` at once.
    public var waitFor: String?
    /// A CSS selector that must match an element before `script` is evaluated (with `waitFor`, both must
    /// hold); nil waits for no element.
    public var waitForSelector: String?
    /// The limit for one attempt: loading the page and waiting for the script's result together.
    public var timeout: Duration
    /// How often the script is evaluated again while its result is empty.
    public var pollInterval: Duration
    /// How transient failures are retried.
    public var retry: RetryPolicy
    /// The user agent the page sees; nil keeps WebKit's.
    public var userAgent: String?
    /// The size of the page's window.
    public var viewport: Viewport
    /// The languages the page is asked for, best first (`["fr-FR", "fr"]`): they set Accept-Language,
    /// `navigator.language(s)` and the `Intl` locale. Empty keeps the system's.
    public var languages: [String]
    /// Extra HTTP headers for the main document's request.
    public var headers: [String: String]
    /// The kinds of subresource that are never requested.
    public var blockedResources: Set<Resource>
    /// Subresources whose URL matches one of these patterns are never requested. The patterns are WebKit
    /// content-blocker URL filters: regular expressions with `.`, `*`, `+`, `?`, `[…]`, `(…)`, `^` and `$`, but
    /// no `|` and no `{n}`.
    public var blockedURLs: [String]
    /// Whether the page's own scripts run. The job's `script` runs either way.
    public var pageScripts: Bool
    /// The user name and password given when the server asks for HTTP authentication (basic or digest).
    public var credentials: Credentials?
    /// Whether a server's untrusted certificate (self-signed, expired, for another host) is accepted. When
    /// false, such a load fails with `.tlsFailed` and is not retried.
    public var ignoresTLSErrors: Bool
    /// How the page itself is fetched.
    public var cachePolicy: CachePolicy
    /// Cookies the job's page starts with: those whose domain matches the job's host are given to the session
    /// before the page loads, once per session; the others are left out.
    public var cookies: [WebParserCookie]
    /// User scripts run in the page's documents whose URL they match, at the time they ask for, in order.
    public var userScripts: [UserScript]
    /// What the job returns: the script's result, or the values its user scripts emit.
    public var collect: Collect
    /// Whether the page's console lines and unhandled errors are reported, as `WebParserMessage.console`.
    public var capturesConsole: Bool
    /// What happens when the page opens a window (`window.open`, a link with a target).
    public var popups: PopupPolicy
    /// A PNG of the page to write once the result is ready; nil takes none.
    public var screenshot: Screenshot?

    /// Creates a job with the defaults: a 30 s timeout, polling every 100 ms, 2 retries starting 1 s apart,
    /// WebKit's user agent, a 1280×800 viewport, the system's languages, no extra headers, images, media
    /// and fonts blocked (and no URL patterns), the page's scripts on, no credentials, untrusted certificates
    /// refused, the HTTP cache used as it allows, no cookies of its own, no user scripts, the script's result
    /// collected, the console not captured, popups loaded in the page itself, and no screenshot.
    public init(url: URL, script: String, waitFor: String? = nil, waitForSelector: String? = nil, timeout: Duration = .seconds(30),
                pollInterval: Duration = .milliseconds(100), retry: RetryPolicy = RetryPolicy(),
                userAgent: String? = nil, viewport: Viewport = Viewport(), languages: [String] = [],
                headers: [String: String] = [:], blockedResources: Set<Resource> = Resource.defaultBlocked,
                blockedURLs: [String] = [], pageScripts: Bool = true, credentials: Credentials? = nil,
                ignoresTLSErrors: Bool = false, cachePolicy: CachePolicy = .default, cookies: [WebParserCookie] = [],
                userScripts: [UserScript] = [], collect: Collect = .result, capturesConsole: Bool = false,
                popups: PopupPolicy = .follow, screenshot: Screenshot? = nil) {
        self.url = url
        self.script = script
        self.waitFor = waitFor
        self.waitForSelector = waitForSelector
        self.timeout = timeout
        self.pollInterval = pollInterval
        self.retry = retry
        self.userAgent = userAgent
        self.viewport = viewport
        self.languages = languages
        self.headers = headers
        self.blockedResources = blockedResources
        self.blockedURLs = blockedURLs
        self.pageScripts = pageScripts
        self.credentials = credentials
        self.ignoresTLSErrors = ignoresTLSErrors
        self.cachePolicy = cachePolicy
        self.cookies = cookies
        self.userScripts = userScripts
        self.collect = collect
        self.capturesConsole = capturesConsole
        self.popups = popups
        self.screenshot = screenshot
    }

    /// What a job returns.
    public enum Collect: String, Sendable, Equatable, CaseIterable {
        /// The script's first non-empty result.
        case result
        /// A JSON array of the values the job's user scripts pass to `webparse.emit`, in order. The job ends
        /// when a user script calls `webparse.done()`, when the script (if not empty) yields a non-empty result,
        /// or at the timeout with the values emitted so far (`WebParserResult.isComplete` is then false; with
        /// none, the job times out). Needs at least one user script.
        case emitted
    }

    /// What a page does when it opens a window.
    public enum PopupPolicy: String, Sendable, Equatable, CaseIterable {
        /// The window's URL loads in the page itself, and the job goes on there.
        case follow
        /// The window is not opened; the page stays as it is.
        case ignore
    }

    /// A PNG of the page as WebKit rendered it.
    public struct Screenshot: Sendable, Equatable {
        /// The file to write (replaced atomically).
        public var file: URL
        /// Whether the whole document is taken rather than the viewport only.
        public var fullPage: Bool

        /// A screenshot written to `file`, of the viewport only unless `fullPage`.
        public init(file: URL, fullPage: Bool = false) {
            self.file = file
            self.fullPage = fullPage
        }
    }

    /// A user name and password for HTTP authentication. Its description never shows the password.
    public struct Credentials: Sendable, Equatable, CustomStringConvertible {
        /// The user name.
        public var user: String
        /// The password; never shown in webparse's messages.
        public var password: String

        /// Credentials of `user` with `password`.
        public init(user: String, password: String) {
            self.user = user
            self.password = password
        }

        /// `user:***`.
        public var description: String { "\(user):***" }
    }

    /// How a job's page is fetched.
    public enum CachePolicy: String, Sendable, Equatable {
        /// As the HTTP cache allows (of a persistent session, across runs).
        case `default`
        /// Fetched from the server, with everything it loads: the session's HTTP cache is emptied before the
        /// page loads. The freshest content, for update checks.
        case reload
    }

    /// A kind of subresource a page may request.
    public enum Resource: String, Sendable, CaseIterable, Comparable {
        /// Images, CSS images included.
        case image
        /// Audio and video.
        case media
        /// Web fonts.
        case font
        /// Style sheets.
        case stylesheet
        /// Scripts the page loads (not the job's own script).
        case script
        /// `fetch` and `XMLHttpRequest` requests.
        case fetch
        /// WebSocket connections.
        case websocket
        /// Pings and beacons (`navigator.sendBeacon`, `<a ping>`).
        case ping
        /// Whatever WebKit files under none of the other kinds.
        case other

        /// What a scraper rarely needs and a page spends most of its bytes on.
        public static let defaultBlocked: Set<Resource> = [.image, .media, .font]

        /// Orders kinds by name, for stable lists in messages.
        public static func < (lhs: Resource, rhs: Resource) -> Bool { lhs.rawValue < rhs.rawValue }
    }
}

/// The size of a page's window, in CSS pixels.
public struct Viewport: Sendable, Equatable {
    /// The width, in CSS pixels.
    public var width: Int
    /// The height, in CSS pixels.
    public var height: Int

    /// A viewport of `width` × `height`; 1280×800 by default.
    public init(width: Int = 1280, height: Int = 800) {
        self.width = width
        self.height = height
    }
}

/// How a job retries transient failures: each retry runs on a fresh page after a delay that doubles from
/// `delay` up to `maxDelay`.
public struct RetryPolicy: Sendable, Equatable {
    /// How many times a job is tried again after its first attempt fails transiently.
    public var retries: Int
    /// The wait before the first retry.
    public var delay: Duration
    /// The longest wait between two attempts.
    public var maxDelay: Duration
    /// Whether a time-out on a page that loaded, while only the script's data was missing, is retried too.
    public var retriesMissingData: Bool

    /// Creates a policy; by default 2 retries, 1 s then 2 s apart, never more than 30 s, and a page that
    /// loaded without the script's data not retried.
    public init(retries: Int = 2, delay: Duration = .seconds(1), maxDelay: Duration = .seconds(30),
                retriesMissingData: Bool = false) {
        self.retries = retries
        self.delay = delay
        self.maxDelay = maxDelay
        self.retriesMissingData = retriesMissingData
    }

    /// Whether `error`, the failure of an attempt, is tried again (attempts permitting).
    public func retries(_ error: WebParserError) -> Bool {
        error.isTransient || retriesMissingData && error.kind.isMissingData
    }

    /// The wait before attempt `attempt` (2 for the first retry): the doubling delay, or as long as the server
    /// asked for in `retryAfter` if that is longer, but never more than `maxDelay`.
    public func delay(beforeAttempt attempt: Int, retryAfter: Duration? = nil) -> Duration {
        let exponent = min(max(attempt - 2, 0), 30)
        return min(max(delay * (1 << exponent), retryAfter ?? .zero), maxDelay)
    }
}
