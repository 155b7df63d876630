import FoundationEssentials

/// The shared browsing context of a set of jobs: their cookies, local storage, HTTP cache, proxy, network
/// process, and the pages they reuse.
///
/// Pages created for jobs run with the same session share what a browser shares between its tabs. By default
/// a session keeps everything in memory and writes nothing to disk; with `.persistent(directory)` storage it
/// keeps cookies, local storage and the HTTP cache in that directory across runs (one process at a time: lock
/// the directory if runs may overlap), and with `save()` its session cookies too, as a browser restoring its
/// last session does. Create one and pass it to every `WebParserRunner` that should share it; it is
/// released, with its pages and network process, when the last reference goes.
public final class WebParserSession: Sendable {
    /// Where a session keeps its data.
    public enum Storage: Sendable, Equatable {
        /// In memory only; gone with the session.
        case ephemeral
        /// In this directory, across runs.
        case persistent(URL)
    }

    /// A proxy for every request of the session.
    public struct Proxy: Sendable, Equatable {
        /// An `http`, `https` or `socks` URL, such as `http://proxy.example:3128` or `socks5://127.0.0.1:1080`.
        public var url: URL
        /// Hosts reached directly: names (`internal.example`), `*.example.com`, addresses or networks (`10.0.0.0/8`).
        public var bypass: [String]

        /// Creates a proxy setting.
        public init(url: URL, bypass: [String] = []) {
            self.url = url
            self.bypass = bypass
        }
    }

    /// How a session treats its pages.
    public struct Configuration: Sendable, Equatable {
        /// Where cookies, local storage and the HTTP cache live.
        public var storage: Storage
        /// The proxy for every request; nil for a direct connection.
        public var proxy: Proxy?
        /// How many loads a page (with the fresh tabs that replace it, job after job) serves before it ends. A web
        /// process takes no new page once one of its pages has served its loads, and ends with its last page.
        public var recycleAfter: Int
        /// The most memory, in MiB, one web process may use before WebKit kills it and its job fails with
        /// `.memoryLimitExceeded`; nil for no limit. A process shared by several pages (`pagesPerProcess`) is
        /// held to it as a whole, and its jobs run again, see `WebParserError.Kind.sharedWebProcessEnded`.
        public var memoryLimit: Int?
        /// How many pages may share one web process (pages made with the same job options, loading the same
        /// host); 1 (or less) gives each page a process of its own. Shared processes save each page the memory of
        /// a process (WebKit's libraries and JavaScript engine); their pages' scripts take turns on one thread.
        public var pagesPerProcess: Int
        /// Whether the session's web processes load webparse's web process extension, which jobs with `capture`
        /// need (a job with `capture` in a session without it fails at once, saying so). In such a session every
        /// document is hooked unless its page is told otherwise, so that a page WebKit moves to a new web process
        /// (a navigation to another site) still captures; pages of jobs without `capture` record nothing.
        public var capturesResponses: Bool

        /// How many loads a page serves unless a configuration says otherwise.
        public static let defaultRecycleAfter = 50
        /// The memory limit of a web process, in MiB, unless a configuration says otherwise.
        public static let defaultMemoryLimit = 2048
        /// How many pages share a web process unless a configuration says otherwise.
        public static let defaultPagesPerProcess = 2

        /// A configuration; by default in memory, without a proxy, pages recycled after 50 loads, two pages to
        /// a web process, each process limited to 2048 MiB, and no capture.
        public init(
            storage: Storage = .ephemeral, proxy: Proxy? = nil, recycleAfter: Int = defaultRecycleAfter,
            memoryLimit: Int? = defaultMemoryLimit, pagesPerProcess: Int = defaultPagesPerProcess,
            capturesResponses: Bool = false
        ) {
            self.storage = storage
            self.proxy = proxy
            self.recycleAfter = recycleAfter
            self.memoryLimit = memoryLimit
            self.pagesPerProcess = pagesPerProcess
            self.capturesResponses = capturesResponses
        }
    }

    /// The configuration the session was created with.
    public let configuration: Configuration
    let browsingContext: BrowsingContext

    /// Creates a session. WebKit itself starts on first use, not here.
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        browsingContext = BrowsingContext(configuration: configuration)
    }

    /// Adds `cookies` to the session, as a server setting them would; expired ones are dropped.
    /// - Throws: `WebParserError` with kind `.environmentUnavailable` when WebKit cannot start, or
    ///   `.storageFailed` when WebKit refuses a cookie.
    public func addCookies(_ cookies: [WebParserCookie]) async throws {
        try await WebKitRuntime.start()
        try await browsingContext.sessionStore.add(cookies.filter { !$0.hasExpired() })
    }

    /// Every cookie the session holds.
    /// - Throws: `WebParserError` with kind `.environmentUnavailable` when WebKit cannot start, or
    ///   `.storageFailed` when WebKit cannot list them.
    public func cookies() async throws -> [WebParserCookie] {
        try await WebKitRuntime.start()
        return try await browsingContext.sessionStore.cookies()
    }

    /// Lists the session's cookies and returns them, as `cookies()` does; for persistent storage, also writes the
    /// session cookies (those without an expiry date, such as most logins, which WebKit's own store drops) into
    /// the session's folder, so that the next session on that folder starts with them, and makes every file there
    /// readable by its owner only. Call it when a run has done what it should (a failed run leaves the kept
    /// cookies as they were).
    /// - Throws: `WebParserError` with kind `.environmentUnavailable` when WebKit cannot start, or
    ///   `.storageFailed` when the cookies cannot be listed or written.
    @discardableResult
    public func save() async throws -> [WebParserCookie] {
        try await WebKitRuntime.start()
        return try await browsingContext.sessionStore.save()
    }

    /// For persistent storage: makes every file in the session's folder readable by its owner only, once WebKit
    /// has done what it had queued there, as `save()` does, for a run that saves nothing (one whose jobs all
    /// failed). Nothing for in-memory storage.
    public func restrictFiles() async {
        if (try? await WebKitRuntime.start()) != nil {
            await browsingContext.restrictFolder()
        } else if case .persistent(let folder) = configuration.storage {
            PrivateFiles.restrictContents(of: folder)
        }
    }

    /// Removes every cookie, cached response and stored item of the session (on disk too, for persistent
    /// storage).
    /// - Throws: `WebParserError` with kind `.environmentUnavailable` when WebKit cannot start, or
    ///   `.storageFailed` when WebKit cannot clear them.
    public func clearData() async throws {
        try await WebKitRuntime.start()
        try await browsingContext.sessionStore.clearData()
    }
}
