import FoundationEssentials
import WebParser

/// What loads the pages of a crawl or a follow (and of a run's jobs), each a job of its own: `WebParserPages` with
/// WebKit, a fake one in tests.
public protocol PageRunner: Sendable {
    /// Runs `job`, named `label` in what is said about it (its crawl's or list's name and its URL), each attempt once
    /// `pass` gives its host's turn, telling `pass` how each attempt ended, and gives its result.
    /// - Throws: `WebParserError` when the page failed after its retries; `CancellationError` when the task is
    ///   cancelled; what `pass` throws.
    func run(_ job: WebParserJob, label: String, pass: HostPass) async throws -> WebParserResult

    /// Loads `url` into the file at `path` in the pages' session, `maxBytes` at most, within `timeout`
    /// (`WebParserRunner.download`): a sitemap, a `robots.txt`.
    /// - Throws: `WebParserError` when it could not be loaded; `CancellationError` when the task is cancelled.
    func download(_ url: URL, to path: String, maxBytes: Int, timeout: Duration) async throws -> WebParserDownload

    /// The same pages, each page's job heard as `watch` says of it and of its label.
    func watched(by watch: @escaping @Sendable (inout WebParserJob, _ label: String) -> PageListeners) -> Self
}

extension PageRunner {
    /// The same pages: pages that tell nothing of their jobs (a test's fake ones) have nothing to be heard by.
    public func watched(by watch: @escaping @Sendable (inout WebParserJob, _ label: String) -> PageListeners) -> Self {
        self
    }

    /// Runs `job`, named `label`, as no host's limits hold it.
    /// - Throws: `WebParserError` when the page failed after its retries; `CancellationError` when the task is
    ///   cancelled.
    public func run(_ job: WebParserJob, label: String) async throws -> WebParserResult {
        try await run(job, label: label, pass: .open)
    }
}

/// What hears a page's job: its states and its messages (`WebParserRunner.run`'s two handlers).
public struct PageListeners: Sendable {
    /// Hears each state of the page's job, in order.
    public var onStateChange: @Sendable (WebParserState) -> Void
    /// Hears what the page says besides its result.
    public var onMessage: @Sendable (WebParserMessage) -> Void

    /// Listeners that call `onStateChange` and `onMessage`.
    public init(
        onStateChange: @escaping @Sendable (WebParserState) -> Void = { _ in }, onMessage: @escaping @Sendable (WebParserMessage) -> Void = { _ in }
    ) {
        self.onStateChange = onStateChange
        self.onMessage = onMessage
    }
}

/// The pages a `WebParserRunner` loads, `concurrency` at once, whoever asks for them (a run's jobs, the pages their
/// crawls and follows find), in the order they were asked for. `watch` is told of each page before it runs: it gives
/// the page's listeners, and may change its job (to record its requests, say).
public struct WebParserPages: PageRunner {
    /// The runner of the pages' jobs, in its session.
    public let parser: WebParserRunner
    private let slots: PageSlots
    private let watch: @Sendable (inout WebParserJob, String) -> PageListeners

    /// The pages of `parser`, `concurrency` (at least one) at once, heard as `watch` says.
    public init(
        parser: WebParserRunner, concurrency: Int,
        watch: @escaping @Sendable (inout WebParserJob, _ label: String) -> PageListeners = { _, _ in PageListeners() }
    ) {
        self.parser = parser
        self.slots = PageSlots(concurrency)
        self.watch = watch
    }

    private init(parser: WebParserRunner, slots: PageSlots, watch: @escaping @Sendable (inout WebParserJob, String) -> PageListeners) {
        self.parser = parser
        self.slots = slots
        self.watch = watch
    }

    /// The same pages (the same parser and the same `concurrency` at once), heard as `watch` says.
    public func watched(by watch: @escaping @Sendable (inout WebParserJob, _ label: String) -> PageListeners) -> WebParserPages {
        WebParserPages(parser: parser, slots: slots, watch: watch)
    }

    /// Runs `job` once one of the pages is free, each attempt in its host's turn as `pass` gives it, heard as `watch`
    /// says of `label`.
    /// - Throws: `WebParserError` when the job failed after its retries; `CancellationError` when the task is
    ///   cancelled; what `pass` throws.
    public func run(_ job: WebParserJob, label: String, pass: HostPass) async throws -> WebParserResult {
        var job = job
        let listeners = watch(&job, label)
        return try await slots.run { [parser, job] in
            try await parser.run(
                job,
                onStateChange: { state in
                    pass.hear(state)
                    listeners.onStateChange(state)
                }, onMessage: listeners.onMessage, beforeAttempt: { _ in try await pass.waitForTurn() })
        }
    }

    /// Loads `url` into the file at `path` in the parser's session (`WebParserRunner.download`), beside the pages.
    /// - Throws: `WebParserError` when it could not be loaded; `CancellationError` when the task is cancelled.
    public func download(_ url: URL, to path: String, maxBytes: Int, timeout: Duration) async throws -> WebParserDownload {
        try await parser.download(url, to: path, maxBytes: maxBytes, timeout: timeout)
    }
}
