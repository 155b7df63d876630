import FoundationEssentials
import Synchronization

/// One line on a terminal's stderr that says how a long run is going, redrawn in place (at most ten times a second):
/// pages done of those known, pages a second, failures, time elapsed. Other messages go above it
/// (`StandardStreams.tell`), and it goes away at the end of the run.
package final class ProgressLine: Sendable {
    private struct Counts {
        package var known = 0
        package var done = 0
        package var failed = 0
        package var drawn: ContinuousClock.Instant?
    }

    private let counts = Mutex(Counts())
    private let start = ContinuousClock.now

    /// `count` more pages are known to come (jobs, followed pages, links a crawl found).
    package func know(_ count: Int) {
        guard count > 0 else { return }
        update { $0.known += count }
    }

    /// `count` pages known to come will not (a crawl's robots.txt disallows them).
    package func forget(_ count: Int) {
        update { $0.known = max($0.known - count, $0.done) }
    }

    /// A page is done, or failed for good.
    package func finished(failed: Bool) {
        update {
            $0.done += 1
            if failed { $0.failed += 1 }
            $0.known = max($0.known, $0.done)
        }
    }

    /// Takes the line away.
    package func end() {
        StandardStreams.showProgress(nil)
    }

    private func update(_ change: (inout Counts) -> Void) {
        let line = counts.withLock { counts -> String? in
            change(&counts)
            let now = ContinuousClock.now
            if let drawn = counts.drawn, now - drawn < .milliseconds(100), counts.done < counts.known { return nil }
            counts.drawn = now
            return Self.text(counts, elapsed: now - start)
        }
        if let line { StandardStreams.showProgress(line) }
    }

    /// `webparse: 12/40 pages, 3.1 pages/s, 1 failed, 0:04`.
    private static func text(_ counts: Counts, elapsed: Duration) -> String {
        let milliseconds = Int(elapsed.milliseconds)
        // Pages a second, in tenths, rounded.
        let tenths = milliseconds > 0 ? (counts.done * 10_000 + milliseconds / 2) / milliseconds : 0
        let whole = milliseconds / 1000
        let clock = "\(whole / 60):" + (whole % 60 < 10 ? "0" : "") + "\(whole % 60)"
        let failures = counts.failed > 0 ? ", \(counts.failed) failed" : ""
        return "webparse: \(counts.done)/\(counts.known) pages, \(tenths / 10).\(tenths % 10) pages/s\(failures), \(clock)"
    }
}
