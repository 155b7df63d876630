import FoundationEssentials
import Synchronization
import WebParser

/// The limits every page of a host keeps, kept in `book`: `perHost` pages of a host at once, `delay` (the crawl's, or
/// the site's longer `Crawl-delay`) at least between the starts of two of its loads, and no load while the host is
/// paused: a page refused with a 429 (or a 503 with a `Retry-After`) pauses its host for every page of it
/// (`HostPause`). With `LocalHostBook` the limits hold in one process; with a work queue's book, across every worker.
public struct HostGates: Sendable {
    /// Where the hosts' limits are kept.
    public let book: any HostBook
    private let tell: @Sendable (HostGateNews) -> Void

    /// Gates whose limits `book` keeps (by default, one process's); `tell` hears each pause and what a person should
    /// know about it.
    public init(book: any HostBook = LocalHostBook(), tell: @escaping @Sendable (HostGateNews) -> Void = { _ in }) {
        self.book = book
        self.tell = tell
    }

    /// Runs `work`, the load of `url`, holding one of its host's `perHost` places (nil: as many as come) meanwhile;
    /// `work` gives its pass to the page's runner, which waits for the host's turn before each attempt (`delay` after
    /// the last start, after any pause) and tells the pass how each attempt ended.
    /// - Throws: what `work` throws; what the book throws (Redis gone); `CancellationError` when cancelled.
    public func run<T: Sendable>(
        _ url: URL, perHost: Int?, delay: Duration, _ work: (HostPass) async throws -> T
    ) async throws -> T {
        let host = url.host()?.lowercased() ?? ""
        let holder = UUID().uuidString
        if let perHost { try await book.enter(host, perHost: perHost, as: holder) }
        let refusals = PageRefusals()
        let pass = HostPass(
            turn: { [self] in
                try await pauseIfAsked(host, refusals)
                try await waitForTurn(host, delay: delay)
                if delay > .zero { refusals.starting = true }
            },
            heard: { [self] state in
                // The delay counts from the request, however long the tab took to send it.
                if refusals.hearStart(state) { Task { try? await book.started(host, delay: delay) } }
                // Every page of the host holds from now, not from this page's next attempt.
                if refusals.hear(state) { Task { try? await pauseIfAsked(host, refusals) } }
            })
        do {
            let value = try await work(pass)
            try await pauseIfAsked(host, refusals)
            if refusals.struck { try await book.forgive(host) }
            if perHost != nil { await book.leave(host, as: holder) }
            return value
        } catch {
            try? await pauseIfAsked(host, refusals)
            if perHost != nil { await book.leave(host, as: holder) }
            throw error
        }
    }

    /// Pauses `host` if the attempt that ended last was refused in a way that asks for it.
    private func pauseIfAsked(_ host: String, _ refusals: PageRefusals) async throws {
        guard let error = refusals.take() else { return }
        let pause = try await HostPause.after(error, at: host) {
            refusals.struck = true
            return try await book.strike(host)
        }
        guard let pause else { return }
        try await book.pause(host, for: pause.duration)
        tell(HostGateNews(host: host, pause: pause, status: error.kind))
    }

    /// Waits until the book gives `host`'s turn.
    private func waitForTurn(_ host: String, delay: Duration) async throws {
        while let wait = try await book.turn(host, delay: delay) {
            try await Task.sleep(for: wait)
        }
    }
}

/// The failure of a page's attempt that ended last, until its host's gates read it, and whether a refusal of the
/// page counted against its host.
private final class PageRefusals: Sendable {
    private let state = Mutex<(heard: WebParserError?, struck: Bool, starting: Bool)>((nil, false, false))

    /// Whether a refusal of the page counted against its host (`HostBook.strike`).
    var struck: Bool {
        get { state.withLock { $0.struck } }
        set { state.withLock { $0.struck = newValue } }
    }

    /// Whether the attempt whose turn came has not yet said that its load started.
    var starting: Bool {
        get { state.withLock { $0.starting } }
        set { state.withLock { $0.starting = newValue } }
    }

    /// Hears a state of the page's job: true, once an attempt, when its load started or it ended without one.
    func hearStart(_ state: WebParserState) -> Bool {
        switch state {
        case .started, .loading, .executingJavaScript: false
        case .requested, .retrying, .rerunningAlone, .completed, .failed, .cancelled:
            self.state.withLock { state in
                defer { state.starting = false }
                return state.starting
            }
        }
    }

    /// Hears a state of the page's job: a failed attempt is kept (true).
    func hear(_ state: WebParserState) -> Bool {
        switch state {
        case .retrying(_, let error), .failed(let error):
            self.state.withLock { $0.heard = error }
            return true
        default:
            return false
        }
    }

    /// The failure heard last, once.
    func take() -> WebParserError? {
        state.withLock { state in
            defer { state.heard = nil }
            return state.heard
        }
    }
}

/// What a page's runner does for its host's limits: waits for the host's turn before each attempt, and tells how
/// each attempt ended, so that a refusal pauses the host for every page of it.
public struct HostPass: Sendable {
    private let turn: @Sendable () async throws -> Void
    private let heard: @Sendable (WebParserState) -> Void

    /// A pass that waits for nothing: a page no limits hold.
    public static let open = HostPass(turn: {}, heard: { _ in })

    init(turn: @escaping @Sendable () async throws -> Void, heard: @escaping @Sendable (WebParserState) -> Void) {
        self.turn = turn
        self.heard = heard
    }

    /// Waits for the host's turn to start an attempt.
    /// - Throws: what the hosts' book throws; `CancellationError` when cancelled.
    public func waitForTurn() async throws {
        try await turn()
    }

    /// Hears a state of the page's job (`WebParserRunner.run`'s `onStateChange`).
    public func hear(_ state: WebParserState) {
        heard(state)
    }
}

/// A host paused: which, for how long, and why.
public struct HostGateNews: Sendable {
    /// The host's name.
    public let host: String
    /// How long, and what a person should know about it.
    public let pause: HostPause
    /// The refusal that paused it.
    public let status: WebParserError.Kind

    /// One line for people: `127.0.0.1 answered 429: no page of it loads for 2 s (its Retry-After)`.
    public var description: String {
        "\(host) answered \(status.detail): no page of it loads for \(pause.duration.secondsText) (\(pause.asked ? "its Retry-After" : "backing off"))"
    }
}
