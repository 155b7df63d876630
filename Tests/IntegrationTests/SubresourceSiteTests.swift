import Foundation
import TestSupport
import Testing

/// A crawl of a site whose every page loads a stylesheet, an image and a favicon, and every other one an async script
/// (`Tests/Fixtures/static_site.py`, Python's http.server): a plain page's answer is final as its stylesheet comes in,
/// and its tab loads the next page while WebKit is ending the last one's load. Ten crawls lose no page, and no page
/// needs its second chance in a fresh tab.
@Suite(.serialized) struct SubresourceSiteTests: CommandLineTest {
    @Test func tenCrawlsOfASiteWhosePagesLoadSubresourcesLoseNoPage() async throws {
        let site = try PythonServer(script: "static_site.py")
        defer { site.stop() }
        let base = "http://127.0.0.1:\(site.port)"
        let config = try write(
            #"{"url": "\#(base)/p0.html", "script": "document.title", "retries": 0, "timeout": 20, "crawl": {"perHost": 4}}"#, "crawl.json",
            in: try folder())
        let expected = Dictionary(uniqueKeysWithValues: (0..<60).map { ("\(base)/p\($0).html", "Page \($0)") })
        for round in 1...10 {
            let run = try await webparse.run(["run", config, "-j", "4", "-v"], environment: headless)
            #expect(run.status == 0, "round \(round): \(run.stderr)")
            #expect(!run.stderr.contains("runs again in a fresh tab"), "round \(round): \(run.stderr)")
            let pages = try #require(try JSONSerialization.jsonObject(with: run.stdout) as? [String: Any], "\(run.stdoutText) \(run.stderr)")
            let read = pages.mapValues { $0 as? String ?? "\($0)" }
            #expect(read == expected, "round \(round): \(read.filter { expected[$0.key] != $0.value })")
        }
    }
}
