import FoundationEssentials

/// Runs jobs: starts WebKit when first needed, runs each job's attempts on fresh pages, retries transient
/// failures with backoff, and reports each job's states.
///
/// ```swift
/// let parser = WebParserRunner()
/// let job = WebParserJob(url: URL(string: "https://example.com")!, script: "document.title")
/// let title = try await parser.parse(job, mapper: JSONMapper(String.self))
/// ```
public struct WebParserRunner: Sendable {
    /// The browsing context the jobs' pages share.
    public let session: WebParserSession
    /// Makes the page for an attempt of a job; with `alone` (true), in a web process no other page shares.
    private let makePage: @WebKitActor @Sendable (_ job: WebParserJob, _ alone: Bool) async throws -> any WebPage
    private let releasePage: @WebKitActor @Sendable (any WebPage, PageReturn) -> Void
    private let startRuntime: @Sendable () async throws -> Void

    /// Creates a parser whose pages share `session` (a new, in-memory one by default).
    public init(session: WebParserSession = WebParserSession()) {
        self.session = session
        self.makePage = { job, alone in
            if job.load.cachePolicy == .reload {
                try await session.browsingContext.sessionStore.clearCache()
            }
            return try await session.browsingContext.checkOut(options: job.page, for: job.url, alone: alone, tabGroup: job.tabGroup)
        }
        self.releasePage = { page, how in session.browsingContext.checkIn(page, how) }
        self.startRuntime = { try await WebKitRuntime.start() }
    }

    /// A parser whose pages come from `makePage` instead of WebKit, for testing the engine's logic; pages
    /// are closed after each attempt.
    init(
        session: WebParserSession = WebParserSession(),
        makePage: @escaping @WebKitActor @Sendable (WebParserJob) async throws -> any WebPage,
        startRuntime: @escaping @Sendable () async throws -> Void
    ) {
        self.session = session
        self.makePage = { job, _ in try await makePage(job) }
        self.releasePage = { page, _ in page.close() }
        self.startRuntime = startRuntime
    }

    /// Puts WebKit's settings in the process's environment (GTK's, JavaScriptCore's, `LD_PRELOAD` and, without a
    /// display, `DISPLAY` and `XAUTHORITY` for webparse's own, filled in once it has started; see webparse's
    /// docs/internals.md) now, synchronously, once. The C library's `setenv` is unsafe while another thread reads the
    /// environment: call this first thing in `main`, before the program starts any thread or task, so that nothing
    /// webparse does later adds a variable (it only replaces the values of those set here). Otherwise WebKit's start
    /// calls it. Programs the process starts later inherit the settings.
    public static func prepareEnvironment() {
        WebKitEnvironment.prepare()
    }

    /// Starts WebKit (and a private display if there is none) now rather than with the first job, so that a
    /// program can overlap that with work of its own. WebKit starts once per process; later calls return at once.
    /// Starting sets WebKit's settings in the process's environment (the display, GTK's, JavaScriptCore's,
    /// `LD_PRELOAD` for WebKit's processes; see webparse's docs/internals.md): programs the process starts
    /// later inherit them.
    /// - Throws: `WebParserError` with kind `.environmentUnavailable` when WebKit cannot start.
    public static func prepare() async throws {
        try await WebKitRuntime.start()
    }

    /// Stops WebKit and the private display webparse started, if any, and waits for them, even while they are
    /// still starting. Call it before the process exits (it also runs by itself at `exit`); no job can run
    /// after it.
    public static func shutdown() {
        WebKitRuntime.shutdown()
    }

    /// The web and GPU processes WebKit runs for this process now, and their memory: the sum of their proportional
    /// set sizes (each one's own memory and its share of what they share), in bytes.
    public static func webProcessUsage() -> (processes: Int, memory: Int) {
        let processes = WebKitRuntime.webProcesses()
        return (processes.count, processes.compactMap { ChildProcesses.proportionalSetSize(of: $0.pid) }.reduce(0, +))
    }

    /// Runs `job` and returns its result: the JSON text, exactly as the page's script produced it, and where
    /// it came from.
    /// - Parameters:
    ///   - onStateChange: called with each state of the job, in order, from the WebKit thread or the caller's;
    ///     keep it short. `started` comes once WebKit runs: when it cannot start, only `failed` comes.
    ///   - onMessage: called on the WebKit thread with what the page says besides its result, in order: each
    ///     emitted value as it arrives (values of an attempt that fails are not taken back), console lines,
    ///     user scripts' exceptions, windows opened and navigations refused. Keep it short.
    ///   - beforeAttempt: awaited before each attempt starts, with its number (1 for the first), outside the
    ///     attempt's time: a crawl waits there for its host's turn. What it throws ends the job.
    /// - Throws: `WebParserError` when the job fails (after its retries, for transient failures), including
    ///   `.environmentUnavailable` when WebKit cannot start; `CancellationError` when the task is cancelled; what
    ///   `beforeAttempt` throws.
    public func run(
        _ job: WebParserJob,
        onStateChange: @escaping @Sendable (WebParserState) -> Void = { _ in },
        onMessage: @escaping @Sendable (WebParserMessage) -> Void = { _ in },
        beforeAttempt: @escaping @Sendable (_ attempt: Int) async throws -> Void = { _ in }
    ) async throws -> WebParserResult {
        do {
            if job.capture != nil && !session.configuration.capturesResponses {
                throw WebParserError(.invalidJob("capture needs a session whose configuration has capturesResponses"), url: job.url.absoluteString)
            }
            try await startRuntime()
            onStateChange(.started)
            var machine = JobMachine(timeout: job.timeout, retry: job.retry)
            try await beforeAttempt(1)
            var actions = machine.handle(.start(now: .now))
            // Made once, off the WebKit thread (a large script takes a while), within the first attempt's time.
            let script = PageScript(for: job.evaluation)
            while true {
                var next: JobMachine.Event?
                for action in actions {
                    switch action {
                    case .report(let state):
                        onStateChange(state)
                    case .fail(let error):
                        throw error
                    case .wait(let delay):
                        try await Task.sleep(for: delay)
                        if case .waitingToRetry(let number) = machine.state { try await beforeAttempt(number) }
                        next = .retryDue(now: .now)
                    case .run(let number, let alone, let deadline):
                        do {
                            let result = try await runAttempt(
                                of: job, script: script, alone: alone, deadline: deadline,
                                report: AttemptStates(onStateChange).record, tell: onMessage)
                            for case .report(let state) in machine.handle(.succeeded) { onStateChange(state) }
                            var answer = WebParserResult(
                                data: result.data, finalURL: result.url,
                                httpStatus: result.httpStatus == 0 ? nil : result.httpStatus,
                                attempts: number, cutShort: result.cutShort)
                            answer.itemsLeftOut = result.itemsLeftOut
                            answer.settledBy = result.settledBy
                            answer.links = result.links
                            answer.title = result.title
                            return answer
                        } catch let error as WebParserError {
                            next = .attemptFailed(error, now: .now)
                        }
                    }
                }
                guard let event = next else { preconditionFailure("JobMachine: no action leads on") }
                actions = machine.handle(event)
            }
        } catch let error as WebParserError {
            onStateChange(.failed(error))
            throw error
        } catch {
            onStateChange(.cancelled)
            throw error
        }
    }

    /// Loads `url` into the file at `path` (replacing it) through the session's network process, as a browser's
    /// download is (its proxy and cookies), `maxBytes` at most, within `timeout`: a file a page does not show (a
    /// gzip'd sitemap, an archive). The file is whole only when `.written` comes back.
    /// - Throws: `WebParserError` with kind `.timedOut` when it took longer, `.httpStatus` when the server answered
    ///   with an error status (400 or more), `.loadFailed` when WebKit could not load it, `.environmentUnavailable`
    ///   when WebKit cannot start; `CancellationError` when the task is cancelled.
    public func download(_ url: URL, to path: String, maxBytes: Int, timeout: Duration) async throws -> WebParserDownload {
        try await startRuntime()
        return try await withThrowingTaskGroup(of: WebParserDownload.self) { group in
            group.addTask { [session] in
                try await FileDownload.load(url, to: path, maxBytes: maxBytes, in: session.browsingContext)
            }
            group.addTask {
                try await Task.sleep(for: timeout)
                throw WebParserError(.timedOut(phase: .loading, after: timeout), url: url.absoluteString)
            }
            defer { group.cancelAll() }
            guard let outcome = try await group.next() else { throw CancellationError() }
            try Task.checkCancellation()
            return outcome
        }
    }

    /// Runs `job` and maps its result with `mapper`.
    /// - Throws: what `run(_:onStateChange:)` throws, and what `mapper` throws.
    public func parse<Mapper: WebParserMapper>(
        _ job: WebParserJob, mapper: Mapper,
        onStateChange: @escaping @Sendable (WebParserState) -> Void = { _ in }
    )
        async throws -> Mapper.Output
    {
        try mapper.map(try await run(job, onStateChange: onStateChange).data)
    }

    @WebKitActor
    private func runAttempt(
        of job: WebParserJob, script: PageScript, alone: Bool, deadline: ContinuousClock.Instant,
        report: @escaping @Sendable (WebParserState) -> Void,
        tell: @escaping @Sendable (WebParserMessage) -> Void
    ) async throws -> AttemptResult {
        // The wait for a page (beside another one, its process's first load must have started) counts in the time.
        try await WebParserEngine(
            job: job, page: try await makePage(job, alone), script: script, deadline: deadline, report: report,
            tell: tell, release: releasePage
        ).run()
    }
}
