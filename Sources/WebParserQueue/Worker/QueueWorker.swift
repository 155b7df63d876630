import FoundationEssentials
import Synchronization
import WebParser
import WebParserCore

/// A `webparse work` run: one loop per page at once, each a worker of the queue to Redis, taking an item, running
/// its job and settling it, until the queue and every worker's items in hand are done (with `--wait`, until
/// stopped); a heartbeat keeps the loops' leases while they work.
package struct QueueWorker: Sendable {
    /// How a worker takes, reads and records its items.
    package struct Settings: Sendable {
        /// What a bare URL's page is read with, when the config's defaults say nothing: a script or an extract.
        package var script: String?
        package var extract: String?
        /// Whether the worker keeps taking items once the queue is empty, until it is stopped.
        package var waits = false
        /// Whether each item's record is written on stdout too, as a JSON line.
        package var jsonLines = false
        /// How long an item in hand stays the worker's without a heartbeat.
        package var lease = Duration.seconds(30)
        /// Whether each job's change-tracking state is kept in `NAME:state`, and records say what is new.
        package var tracksState = false
        /// Whether a job's first run reports its items as new.
        package var emitInitial = false
        /// Whether every page's console lines are told on stderr.
        package var logConsole = false
        /// How many items the worker takes before it starts over; 0 never.
        package var renewAfter = 2000

        /// A worker that reads items as the config says, stops when the queue is drained, and writes no lines.
        package init() {}
    }

    /// How a worker ended.
    package enum End: Sendable, Equatable {
        /// The queue was drained, or the worker was stopped or starts over, and every item it took succeeded.
        case success
        /// An item the worker took failed (said on stderr, its record in `NAME:failed`).
        case itemFailed
        /// WebKit cannot run here (said on stderr).
        case environment
        /// Redis could not be used for as long as a command is retried (said on stderr).
        case queueUnavailable
    }

    package let settings: Settings
    package let config: WorkerConfig
    package let session: WebParserSession
    package let reporter: ProgressReporter
    /// What the worker counts of its pages, for `--metrics`.
    package let metrics: PageMetrics
    /// How the worker is doing now, for `--metrics`.
    package let vitals: WorkerVitals

    /// A worker that takes items as `settings` say, reads them as `config` says in `session`, tells `reporter` how
    /// they go, and counts its pages in `metrics` and how it is doing in `vitals`.
    package init(
        settings: Settings, config: WorkerConfig, session: WebParserSession, reporter: ProgressReporter, metrics: PageMetrics,
        vitals: WorkerVitals
    ) {
        self.settings = settings
        self.config = config
        self.session = session
        self.reporter = reporter
        self.metrics = metrics
        self.vitals = vitals
    }

    /// How a loop ended.
    enum LoopEnd: Sendable {
        /// The queue and every worker's items in hand are done.
        case drained
        /// Cancelled (a signal); its item in hand went back to the queue.
        case stopped
        /// WebKit cannot run here: every item would fail the same way.
        case environment(WebParserError)
        /// Redis could not be used for as long as a command is retried.
        case queue(RedisConnection.Failure)
        /// The worker has taken the items it takes before it starts over (`--renew-after`).
        case renewing
    }

    /// What the loops share: the worker's pages, the crawls' robots.txt files and the counts.
    struct Shared: Sendable {
        /// The worker's pages, `-j` at once.
        let pages: WebParserPages
        let robots: RobotsFiles
        let tally: WorkTally
        /// The items the worker may still take before it starts over; nil for no limit.
        let budget: ItemBudget?
    }

    /// Works the queue through `queues` (one per loop), and says how the worker ended, how many items it did, where
    /// their pages ended, and whether it should start over (it took `--renew-after` items, and every loop ended so).
    package func work(_ queues: [WorkQueue]) async -> (end: End, done: Int, visited: [URL], renews: Bool) {
        reporter.tellAboutLocale()
        defer { reporter.end() }
        let pages = WebParserPages(parser: WebParserRunner(session: session), concurrency: queues.count)
        let shared = Shared(
            pages: pages,
            robots: PageWatch(reporter: reporter, har: nil).crawler(pages).robots, tally: WorkTally(),
            budget: settings.renewAfter > 0 ? ItemBudget(settings.renewAfter) : nil)
        let interval = settings.lease / 3
        let heartbeat = Task { await Self.beat(queues, every: interval, vitals: vitals) }
        vitals.looping(true)
        let ends = await withTaskGroup(of: LoopEnd.self) { group in
            for queue in queues { group.addTask { await loop(queue, shared) } }
            var ends: [LoopEnd] = []
            for await end in group {
                ends.append(end)
                switch end {
                case .environment, .queue: group.cancelAll()
                case .drained, .stopped, .renewing: break
                }
            }
            return ends
        }
        heartbeat.cancel()
        vitals.looping(false)
        let counts = await shared.tally.counts
        var code = End.success
        for end in ends {
            switch end {
            case .environment(let error):
                StandardStreams.tellError("webparse: \(error)")
                code = .environment
            case .queue(let failure):
                StandardStreams.tellError("webparse work: \(failure); the items in hand go back to the queue when their lease ends")
                code = .queueUnavailable
            case .drained, .stopped, .renewing: break
            }
        }
        let renews = code == .success && ends.allSatisfy { if case .renewing = $0 { true } else { false } }
        if code != .queueUnavailable {
            for queue in queues { try? await queue.leave() }
        }
        if counts.failed > 0 {
            StandardStreams.tellError(
                "webparse work: \(counts.failed) of \(counts.done + counts.failed) items failed; their records are in \(queues[0].keys.failed)")
            // A worker that starts over goes on working: its failures are in the queue's records, not in its end.
            if code == .success && !renews { code = .itemFailed }
        }
        return (code, counts.done, counts.visited, renews)
    }

    /// Takes and settles items on `queue` until the work is done, the loop is cancelled or cannot go on.
    private func loop(_ queue: WorkQueue, _ shared: Shared) async -> LoopEnd {
        while !Task.isCancelled {
            if let budget = shared.budget, !budget.take() { return .renewing }
            let taken: WorkQueue.Item?
            do throws(RedisConnection.Failure) {
                // Short enough that a stop (SIGTERM) finds the loop between two waits within its grace period.
                taken = try await queue.take(wait: .milliseconds(400))
            } catch {
                return .queue(error)
            }
            guard let item = taken else {
                shared.budget?.giveBack()
                guard !settings.waits else { continue }
                do throws(RedisConnection.Failure) {
                    if try await queue.isDrained() { return .drained }
                } catch {
                    return .queue(error)
                }
                continue
            }
            vitals.inHand(1)
            let end = await handle(item, on: queue, shared)
            vitals.inHand(-1)
            if let end { return end }
        }
        return .stopped
    }

    /// Renews each queue's lease every `interval` until cancelled; `vitals` hear when all were renewed, with the
    /// queue's length.
    private static func beat(_ queues: [WorkQueue], every interval: Duration, vitals: WorkerVitals) async {
        while (try? await Task.sleep(for: interval)) != nil {
            var renewed = true
            for queue in queues {
                do throws(RedisConnection.Failure) {
                    try await queue.renew()
                } catch {
                    renewed = false
                    StandardStreams.tellError("webparse work: the heartbeat of \(queue.worker) failed: \(error)")
                }
            }
            if renewed { vitals.beat(queueLength: try? await queues[0].length()) }
        }
    }
}

/// What a worker's loops did, for its closing message and its session.
actor WorkTally {
    private var done = 0
    private var failed = 0
    /// Where the successful jobs' pages ended, whose origins' local storage `--save-storage` keeps.
    private var visited: [URL] = []

    var counts: (done: Int, failed: Int, visited: [URL]) { (done, failed, visited) }

    /// Counts an item done (its page at `url`) or failed.
    func count(succeeded: Bool, at url: URL?) {
        if succeeded { done += 1 } else { failed += 1 }
        if succeeded, let url { visited.append(url) }
    }
}

/// The items a worker may still take before it starts over (`--renew-after`), shared by its loops.
final class ItemBudget: Sendable {
    private let left: Mutex<Int>

    /// A budget of `items`.
    init(_ items: Int) {
        left = Mutex(items)
    }

    /// Takes one item from the budget: false when none is left.
    func take() -> Bool {
        left.withLock { left in
            guard left > 0 else { return false }
            left -= 1
            return true
        }
    }

    /// Gives back an item taken from the budget that the queue did not have.
    func giveBack() {
        left.withLock { $0 += 1 }
    }
}
