import FoundationEssentials

/// Where the limits of each host are kept: the pages of a host loading at once, when its next page may start, and
/// how long it asked to be left alone. `LocalHostBook` keeps them for one process (a run's crawls); a work queue's
/// book keeps them in Redis for every worker of the queue. `HostGates` waits on a book as its rules say.
public protocol HostBook: Sendable {
    /// Takes one of `host`'s `perHost` places, as `holder` (unique to the page), once one is free.
    /// - Throws: what the book's store throws (Redis gone); `CancellationError` when the task is cancelled.
    func enter(_ host: String, perHost: Int, as holder: String) async throws
    /// Gives back `holder`'s place at `host`.
    func leave(_ host: String, as holder: String) async
    /// Takes `host`'s turn to start a load when it is not paused, `delay` has passed since its last start, and no load
    /// whose turn came is still starting (with a `delay`, its turn holds until `started`, `HostBook.startingLimit` at
    /// most), and answers nil; otherwise answers how long to wait before asking again.
    /// - Throws: what the book's store throws.
    func turn(_ host: String, delay: Duration) async throws -> Duration?
    /// The load whose turn came at `host` has started (its request is on its way), or will not: the next turn comes
    /// `delay` from now at the earliest.
    /// - Throws: what the book's store throws.
    func started(_ host: String, delay: Duration) async throws
    /// Starts no load at `host` for `pause` from now (a pause already longer stands).
    /// - Throws: what the book's store throws.
    func pause(_ host: String, for pause: Duration) async throws
    /// Counts a refusal of `host` without a Retry-After (a 429) and answers how many came in a row.
    /// - Throws: what the book's store throws.
    func strike(_ host: String) async throws -> Int
    /// Forgets `host`'s refusals: a page of it loaded.
    /// - Throws: what the book's store throws.
    func forgive(_ host: String) async throws
}

extension HostBook {
    /// The longest a turn waits for the load before it to start (a page that never says so).
    public static var startingLimit: Duration { .seconds(5) }
    /// How often a turn asks again while the load before it is starting.
    public static var startingPoll: Duration { .milliseconds(20) }
}

/// The limits of each host for one process: its places handed out in the order they were asked for.
public actor LocalHostBook: HostBook {
    private struct Host {
        var holders: Set<String> = []
        var waiting: [(holder: String, perHost: Int, go: CheckedContinuation<Void, Never>)] = []
        var nextStart = ContinuousClock.now
        var startingUntil = ContinuousClock.now
        var pausedUntil = ContinuousClock.now
        var strikes = 0
    }

    private var hosts: [String: Host] = [:]

    /// A book with no host in it.
    public init() {}

    /// Takes one of `host`'s `perHost` places for `holder` once one is free; places go in the order asked for.
    public func enter(_ host: String, perHost: Int, as holder: String) async {
        if hosts[host, default: Host()].holders.count < max(perHost, 1) {
            hosts[host, default: Host()].holders.insert(holder)
            return
        }
        await withCheckedContinuation { hosts[host]?.waiting.append((holder, perHost, $0)) }
    }

    /// Gives back `holder`'s place at `host`, to the page that asked for one first.
    public func leave(_ host: String, as holder: String) {
        guard var entry = hosts[host], entry.holders.remove(holder) != nil else { return }
        if !entry.waiting.isEmpty, entry.holders.count < max(entry.waiting[0].perHost, 1) {
            let next = entry.waiting.removeFirst()
            entry.holders.insert(next.holder)
            next.go.resume()
        }
        hosts[host] = entry
    }

    /// Takes `host`'s turn (see `HostBook.turn`): nil, or how long to wait before asking again.
    public func turn(_ host: String, delay: Duration) -> Duration? {
        let now = ContinuousClock.now
        var entry = hosts[host, default: Host()]
        let start = max(entry.nextStart, entry.pausedUntil)
        guard start <= now else { return start - now }
        guard entry.startingUntil <= now else { return min(entry.startingUntil - now, Self.startingPoll) }
        entry.nextStart = now + delay
        if delay > .zero { entry.startingUntil = now + Self.startingLimit }
        hosts[host] = entry
        return nil
    }

    /// The load whose turn came at `host` started: its next turn is `delay` from now at the earliest.
    public func started(_ host: String, delay: Duration) {
        let now = ContinuousClock.now
        hosts[host, default: Host()].nextStart = max(hosts[host, default: Host()].nextStart, now + delay)
        hosts[host, default: Host()].startingUntil = now
    }

    /// Starts no load at `host` for `pause` from now (a pause already longer stands).
    public func pause(_ host: String, for pause: Duration) {
        hosts[host, default: Host()].pausedUntil = max(hosts[host, default: Host()].pausedUntil, .now + pause)
    }

    /// Counts a refusal of `host` and answers how many came in a row.
    public func strike(_ host: String) -> Int {
        hosts[host, default: Host()].strikes += 1
        return hosts[host, default: Host()].strikes
    }

    /// Forgets `host`'s refusals.
    public func forgive(_ host: String) {
        hosts[host]?.strikes = 0
    }
}
