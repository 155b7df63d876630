import FoundationEssentials
import WebParser

/// The counts of a run's pages written at its end (`run --metrics-file`), in Prometheus' text format, atomically, for
/// node_exporter's textfile collector: with when the run ended and its exit code, so that an alert can say a cron run
/// failed or stopped running.
package struct MetricsFile: Sendable {
    package let path: String

    /// The file at `path`.
    package init(path: String) {
        self.path = path
    }

    /// Writes `metrics`' counts, with the run's `exitCode` and `now`, when it ended.
    /// - Throws: `DeliveryFailure` (`.failed`) when the file cannot be written.
    package func write(_ metrics: PageMetrics, exitCode: Int32, now: Date = Date()) throws(DeliveryFailure) {
        let gauges: [PageMetrics.Gauge] = [
            .init("webparse_last_run_timestamp_seconds", "When the run ended, in seconds since the epoch.", now.timeIntervalSince1970.rounded()),
            .init("webparse_last_run_exit_code", "The run's exit code (0: every job succeeded).", Double(exitCode))
        ]
        do throws(AtomicFile.Failure) {
            try AtomicFile.write(Data(metrics.text(gauges: gauges).utf8), to: path, permissions: 0o644)
        } catch {
            throw DeliveryFailure(message: "--metrics-file: \(error)", kind: .failed)
        }
    }
}
