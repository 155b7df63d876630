import Foundation
import Testing
import WebParser
@testable import WebParserCore

/// The counts `webparse work --metrics` serves, in Prometheus' text format.
@Suite struct PageMetricsTests {
    static let url = URL(string: "https://comics.example/series/1")!

    @Test func pagesAreCountedByJobAndOutcomeWithTheirSecondsInBuckets() {
        let metrics = PageMetrics()
        metrics.record(job: "archive", url: Self.url, .ok, elapsed: .milliseconds(300))
        metrics.record(job: "archive", url: Self.url, .ok, elapsed: .seconds(2))
        metrics.record(job: "archive", url: Self.url, .failed(code: "http-status"), elapsed: .milliseconds(80))
        metrics.record(job: Self.url.absoluteString, url: Self.url, .blocked, elapsed: .seconds(70))
        let text = metrics.text(gauges: [.init("webparse_items_in_hand", "Items in hand.", 3)])
        #expect(
            text == """
                # HELP webparse_pages_total Pages loaded, by job and how they ended (ok, failed with a code, blocked).
                # TYPE webparse_pages_total counter
                webparse_pages_total{job="-",outcome="blocked",code="blocked"} 1
                webparse_pages_total{job="archive",outcome="failed",code="http-status"} 1
                webparse_pages_total{job="archive",outcome="ok",code=""} 2
                # HELP webparse_page_seconds Seconds a page took, from its start to its result or failure.
                # TYPE webparse_page_seconds histogram
                webparse_page_seconds_bucket{le="0.1"} 1
                webparse_page_seconds_bucket{le="0.25"} 1
                webparse_page_seconds_bucket{le="0.5"} 2
                webparse_page_seconds_bucket{le="1"} 2
                webparse_page_seconds_bucket{le="2.5"} 3
                webparse_page_seconds_bucket{le="5"} 3
                webparse_page_seconds_bucket{le="10"} 3
                webparse_page_seconds_bucket{le="30"} 3
                webparse_page_seconds_bucket{le="60"} 3
                webparse_page_seconds_bucket{le="+Inf"} 4
                webparse_page_seconds_sum 72.38
                webparse_page_seconds_count 4
                # HELP webparse_items_in_hand Items in hand.
                # TYPE webparse_items_in_hand gauge
                webparse_items_in_hand 3

                """)
    }

    @Test func labelsAreBoundedAndEscaped() {
        let metrics = PageMetrics(jobLimit: 2)
        for name in ["a \"quoted\" name", "back\\slash", "third", "fourth"] { metrics.record(job: name, url: Self.url, .ok, elapsed: .zero) }
        let samples = metrics.text().split(separator: "\n").filter { $0.hasPrefix("webparse_pages_total{") }
        #expect(
            samples == [
                #"webparse_pages_total{job="a \"quoted\" name",outcome="ok",code=""} 1"#, #"webparse_pages_total{job="back\\slash",outcome="ok",code=""} 1"#,
                #"webparse_pages_total{job="other",outcome="ok",code=""} 2"#
            ])
    }

    @Test func anOutcomeIsReadFromAResult() {
        let ok = WebParserResult(data: Data("1".utf8), finalURL: Self.url.absoluteString, httpStatus: 200, attempts: 1)
        #expect(PageMetrics.Outcome(.success(ok)) == .ok)
        #expect(PageMetrics.Outcome(.failure(.failed(WebParserError(.httpStatus(404))))) == .failed(code: "http-status"))
        #expect(PageMetrics.Outcome(.failure(.failed(WebParserError(.blocked(by: "Cloudflare", status: 403))))) == .blocked)
        #expect(PageMetrics.Outcome(.failure(.notRun("it runs after \"login\", which failed"))) == .failed(code: "not-run"))
    }
}
