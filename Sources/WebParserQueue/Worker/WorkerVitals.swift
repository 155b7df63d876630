import FoundationEssentials
import Synchronization
import WebParser
import WebParserCore

/// How a `webparse work` worker is doing now, for `--metrics`: whether its loops run and its Redis answers (its
/// heartbeat renewed within its lease), the items in hand, the queue's length as last read, the hosts paused.
package final class WorkerVitals: Sendable {
    private struct State {
        package var lastBeat: ContinuousClock.Instant?
        package var looping = false
        package var inHand = 0
        package var queueLength = 0
        package var pausedUntil: [String: ContinuousClock.Instant] = [:]
    }

    private let lease: Duration
    private let state = Mutex(State())

    /// The vitals of a worker whose leases last `lease`.
    package init(lease: Duration) {
        self.lease = lease
    }

    /// The worker's Redis answered (a connection, a heartbeat); the queue holds `queueLength` items, when read.
    package func beat(queueLength: Int? = nil) {
        state.withLock { state in
            state.lastBeat = .now
            if let queueLength { state.queueLength = queueLength }
        }
    }

    /// The worker's loops started (true) or all ended (false).
    package func looping(_ looping: Bool) {
        state.withLock { $0.looping = looping }
    }

    /// A loop took an item (1) or settled it (-1).
    package func inHand(_ change: Int) {
        state.withLock { $0.inHand += change }
    }

    /// `host` gets no page for `pause` from now.
    package func paused(_ host: String, for pause: Duration) {
        state.withLock { state in
            let now = ContinuousClock.now
            state.pausedUntil = state.pausedUntil.filter { $0.value > now }
            state.pausedUntil[host] = max(state.pausedUntil[host] ?? now, now + pause)
        }
    }

    /// Whether the worker is healthy: its loops run and its Redis answered within its lease.
    @Sendable package func isHealthy() -> Bool {
        state.withLock { state in
            guard state.looping, let beat = state.lastBeat else { return false }
            return ContinuousClock.now - beat < lease
        }
    }

    /// The worker's gauges now, after the web processes' count and memory.
    @Sendable package func gauges() -> [PageMetrics.Gauge] {
        let web = WebParserRunner.webProcessUsage()
        return state.withLock { state in
            let now = ContinuousClock.now
            return [
                .init("webparse_items_in_hand", "Items this worker has taken and not yet settled.", Double(state.inHand)),
                .init("webparse_queue_length", "Items waiting in the queue, as the worker's heartbeat last read it.", Double(state.queueLength)),
                .init("webparse_web_processes", "WebKit web and GPU processes this worker runs.", Double(web.processes)),
                .init("webparse_web_process_memory_bytes", "Proportional set size of those processes, summed.", Double(web.memory)),
                .init(
                    "webparse_hosts_paused", "Hosts no page of this worker loads for now (a 429 or Retry-After).",
                    Double(state.pausedUntil.values.count { $0 > now })),
                .init(
                    "webparse_healthy", "1 while the worker's loops run and its Redis answers within its lease.",
                    state.looping && state.lastBeat.map { now - $0 < lease } == true ? 1 : 0)
            ]
        }
    }
}
