import FoundationEssentials

/// One scraping job: a page to load, how, and the JavaScript to evaluate in it until it yields data.
public struct WebParserJob: Sendable, Equatable {
    /// The URL schemes a job can load.
    public static let supportedSchemes: Set<String> = ["http", "https", "file"]

    /// An attempt's limit unless a job says otherwise.
    public static let defaultTimeout: Duration = .seconds(30)

    /// The page to load (one of `supportedSchemes`).
    public var url: URL
    /// What is evaluated in the page, and when the job is done.
    public var evaluation: Evaluation
    /// The limit for one attempt: loading the page and waiting for the script's result together.
    public var timeout: Duration
    /// How transient failures are retried.
    public var retry: RetryPolicy
    /// How the page is made.
    public var page: PageSettings
    /// How the URL is requested.
    public var load: LoadSettings
    /// The responses recorded as the page's scripts read them; nil records none.
    public var capture: Capture?
    /// Whether the page's requests are reported as they end (`WebParserMessage.requests`, once an attempt ends):
    /// what a HAR file holds: WebKit's loads (each redirect a request of its own), with the kind of the script's
    /// read that made one, and what forms and scripts sent.
    public var recordsRequests = false
    /// With `recordsRequests`, whether each request's response body is recorded too (documents of every frame,
    /// scripts, style sheets, what scripts read), within the capture's limits (`capture`'s, or the defaults of
    /// `Capture`); a body left out says why (`WebParserRequest.bodyOmitted`). The answer then waits for bodies
    /// WebKit is still reading.
    public var recordsBodies = false
    /// Jobs of one tab group go from page to page in the same tab when they can, as a person browsing a site does
    /// (the pages of one crawl, or of one follow): a job of the group loads its page where the group's last job
    /// succeeded, with that tab's history, session storage and window name, and nothing the tab's earlier
    /// document says reaches it. Cheaper than a fresh tab (no new page is built in the web process). Once idle, the
    /// group's tab keeps its last document (and what its scripts do) until another job takes its place or the
    /// session ends. nil (the default): a fresh tab for each job.
    public var tabGroup: String?
    /// HTML shown as the document at `url` instead of asking its server: a session's own work on an origin's
    /// storage (`WebParserSession.setLocalStorage`).
    var document: String?

    /// A job that loads `url` and evaluates `evaluation` there, each attempt within `timeout` (30 s by default),
    /// with `retry` (2 retries starting 1 s apart by default), on a page made with `page` and loaded with `load`.
    public init(
        url: URL, evaluation: Evaluation, timeout: Duration = defaultTimeout, retry: RetryPolicy = RetryPolicy(),
        page: PageSettings = PageSettings(), load: LoadSettings = LoadSettings()
    ) {
        self.url = url
        self.evaluation = evaluation
        self.timeout = timeout
        self.retry = retry
        self.page = page
        self.load = load
    }

    /// The isolated script world the job's script runs in (a script of the responses, an extraction): the page's
    /// DOM, but none of its scripts' objects, which see none of webparse's. Nil for the page's own world.
    var scriptWorld: String? { scriptReadsResponses || evaluation.extract != nil ? Self.isolatedWorld : nil }

    /// webparse's own isolated script world.
    static let isolatedWorld = "webparse"

    /// True when the job collects emitted values but has no user script to emit them: it cannot run.
    public var collectsWithoutEmitters: Bool {
        evaluation.collect == .emitted && page.userScripts.isEmpty
    }

    /// A job that loads `url` and evaluates `script` there with the defaults of `Evaluation`, `PageSettings` and
    /// `LoadSettings`.
    public init(url: URL, script: String, timeout: Duration = defaultTimeout, retry: RetryPolicy = RetryPolicy()) {
        self.init(url: url, evaluation: Evaluation(script: script), timeout: timeout, retry: retry)
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
        /// A JSON array of the responses the job's `capture` recorded, in the order their bodies arrived, once
        /// at least one was recorded and the page has settled (as a script's result does). Needs `capture`.
        case responses
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
        /// Whether `file` was named by someone other than the program's user (a work queue's item): it is then written
        /// as a private file (0600) of its own in its folder, never through a link or into a device, and replaces only
        /// a file written so before.
        public var confined: Bool

        /// A screenshot written to `file`, of the viewport only unless `fullPage`; `confined` as above.
        public init(file: URL, fullPage: Bool = false, confined: Bool = false) {
            self.file = file
            self.fullPage = fullPage
            self.confined = confined
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
