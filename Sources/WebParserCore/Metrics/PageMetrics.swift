import FoundationEssentials
import Synchronization
import WebParser

/// What a worker or a run counts of the pages it loaded, for Prometheus (`webparse work --metrics`, `run
/// --metrics-file`): pages by job and outcome (`webparse_pages_total{job, outcome, code}`), the seconds a page took as
/// a histogram (`webparse_page_seconds`), and gauges read when the metrics are written. Labels are bounded: no URL is
/// a label; a job named by its URL (a bare URL item) is `job="-"`, and past `jobLimit` job names, `job="other"`.
package final class PageMetrics: Sendable {
    /// How a page ended.
    package enum Outcome: Equatable, Sendable {
        /// It gave its result.
        case ok
        /// It failed with `code` (`WebParserError.Code`).
        case failed(code: String)
        /// Bot protection refused it.
        case blocked

        /// The outcome of `result`.
        package init(_ result: Result<WebParserResult, JobFailure>) {
            switch result {
            case .success: self = .ok
            case .failure(.failed(let error)) where error.kind.isBlocked: self = .blocked
            case .failure(let failure): self = .failed(code: failure.code)
            }
        }

        var labels: (outcome: String, code: String) {
            switch self {
            case .ok: ("ok", "")
            case .failed(let code): ("failed", code)
            case .blocked: ("blocked", "blocked")
            }
        }
    }

    /// A value read when the metrics are written.
    package struct Gauge: Sendable {
        /// Its name (`webparse_…`, in base units).
        package let name: String
        /// What it measures, for `# HELP`.
        package let help: String
        /// Its value now.
        package let value: Double

        /// The gauge `name`, described by `help`, worth `value`.
        package init(_ name: String, _ help: String, _ value: Double) {
            self.name = name
            self.help = help
            self.value = value
        }
    }

    /// The upper bounds of the page-seconds histogram's buckets.
    static let buckets: [Double] = [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60]

    private struct Counts {
        var pages: [String: [String: [String: Int]]] = [:]
        var bucketCounts = [Int](repeating: 0, count: PageMetrics.buckets.count)
        var count = 0
        var sum = 0.0
    }

    private let jobLimit: Int
    private let counts = Mutex(Counts())

    /// Counts with at most `jobLimit` job names as labels.
    package init(jobLimit: Int = 50) {
        self.jobLimit = jobLimit
    }

    /// Counts a page of job `job` (at `url`) that ended as `outcome` after `elapsed`.
    package func record(job: String, url: URL, _ outcome: Outcome, elapsed: Duration) {
        let seconds = Double(elapsed.milliseconds) / 1000
        counts.withLock { counts in
            var label = job == url.absoluteString ? "-" : job
            if counts.pages[label] == nil && counts.pages.count >= jobLimit { label = "other" }
            let (outcome, code) = outcome.labels
            counts.pages[label, default: [:]][outcome, default: [:]][code, default: 0] += 1
            for (index, bound) in Self.buckets.enumerated() where seconds <= bound { counts.bucketCounts[index] += 1 }
            counts.count += 1
            counts.sum += seconds
        }
    }

    /// A listener of the states of a page of job `job` (at `url`) that counts it when it ends: from `started` to
    /// `completed` or `failed`.
    package func observer(job: String, url: URL) -> @Sendable (WebParserState) -> Void {
        let started = Mutex<ContinuousClock.Instant?>(nil)
        return { [self] state in
            switch state {
            case .started:
                started.withLock { $0 = .now }
            case .completed, .failed:
                let start = started.withLock { $0 } ?? .now
                let outcome: Outcome = if case .failed(let error) = state { Outcome(.failure(.failed(error))) } else { .ok }
                record(job: job, url: url, outcome, elapsed: .now - start)
            default:
                break
            }
        }
    }

    /// The metrics in Prometheus' text format, with `gauges` after the counts.
    package func text(gauges: [Gauge] = []) -> String {
        var text = PrometheusText()
        counts.withLock { counts in
            text.metric("webparse_pages_total", type: "counter", help: "Pages loaded, by job and how they ended (ok, failed with a code, blocked).")
            for job in counts.pages.keys.sorted() {
                for (outcome, codes) in counts.pages[job, default: [:]].sorted(by: { $0.key < $1.key }) {
                    for (code, count) in codes.sorted(by: { $0.key < $1.key }) {
                        text.sample("webparse_pages_total", [("job", job), ("outcome", outcome), ("code", code)], Double(count))
                    }
                }
            }
            text.metric("webparse_page_seconds", type: "histogram", help: "Seconds a page took, from its start to its result or failure.")
            for (index, bound) in Self.buckets.enumerated() {
                text.sample("webparse_page_seconds_bucket", [("le", PrometheusText.number(bound))], Double(counts.bucketCounts[index]))
            }
            text.sample("webparse_page_seconds_bucket", [("le", "+Inf")], Double(counts.count))
            text.sample("webparse_page_seconds_sum", [], counts.sum)
            text.sample("webparse_page_seconds_count", [], Double(counts.count))
        }
        for gauge in gauges {
            text.metric(gauge.name, type: "gauge", help: gauge.help)
            text.sample(gauge.name, [], gauge.value)
        }
        return text.text
    }
}
