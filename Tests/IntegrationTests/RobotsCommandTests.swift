import Foundation
import TestSupport
import Testing

/// A crawl reads each site's `robots.txt` as RFC 9309 says, on real WebKit loads: a file that cannot be reached
/// stops the crawl of its site with one warning, a missing one allows everything, one that is no text or redirects
/// without end has no rules (and says so), one that redirects is followed, a large one is read, and `Crawl-delay`
/// spaces the loads.
@Suite struct RobotsCommandTests: CommandLineTest {
    /// A site of a home page linking to /a and /b, whose `robots.txt` is `robots`.
    static func site(robots: TestHTTPServer.Route) throws -> TestHTTPServer {
        let page = { (title: String, links: [String]) -> TestHTTPServer.Route in
            .respond(body: "<title>\(title)</title>" + links.map { #"<a href="\#($0)">\#($0)</a>"# }.joined())
        }
        return try TestHTTPServer(routes: [
            "/": page("home", ["/a", "/b"]), "/a": page("a", []), "/b": page("b", []), "/robots.txt": robots,
            "/moved-robots.txt": .respond(contentType: "text/plain", body: "User-agent: *\nDisallow: /b\n"),
            "/loop-robots": .respond(status: 302, headers: ["Location": "/robots.txt"], body: "")
        ])
    }

    /// The crawl of `server` from its home page: its pages by path, and what it said on stderr.
    func crawl(_ server: TestHTTPServer, _ crawl: String = "{}") async throws -> (pages: Set<String>, stderr: String, status: Int32) {
        let directory = try folder()
        let config = try write(
            #"{"url": "\#(server.url("/"))", "script": "document.title", "retries": 0, "timeout": 15, "crawl": \#(crawl)}"#, "crawl.json", in: directory)
        let run = try await webparse.run(["run", config], environment: headless)
        let pages = try #require(try JSONSerialization.jsonObject(with: run.stdout) as? [String: Any], "\(run.stdoutText) \(run.stderr)")
        return (Set(pages.keys.compactMap { URL(string: $0)?.path }), run.stderr, run.status)
    }

    @Test(
        arguments: [
            (TestHTTPServer.Route.respond(status: 500, body: "oops"), false, "could not be read (HTTP status 500): nothing of http://127.0.0.1:"),
            (.respond(status: 503, headers: ["Retry-After": "1"], body: "busy"), false, "could not be read (HTTP status 503)"),
            (.resetMidBody(body: "User-agent: *\nAllow: /\n"), false, "could not be read (connection failed"),
            (.respond(status: 404, body: "not found"), true, nil),
            (.respond(status: 200, body: "<html><body>Welcome to our shop</body></html>"), true, "robots.txt is not text (text/html): no rules read from it"),
            (.bytes(contentType: "image/png", headers: [:], body: [0x89, 0x50, 0x4E, 0x47]), true, "robots.txt is not text (image/png)"),
            (.bytes(contentType: "application/octet-stream", headers: [:], body: [0, 1, 2]), true, "robots.txt is not text (application/octet-stream)"),
            (.respond(status: 302, headers: ["Location": "/loop-robots"], body: ""), true, "robots.txt redirects too many times: no rules read from it")
        ] as [(TestHTTPServer.Route, Bool, String?)])
    func aFileThatIsNoOrdinaryOneIsReadAsRFC9309Says(robots: TestHTTPServer.Route, allowed: Bool, warning: String?) async throws {
        let server = try Self.site(robots: robots)
        let (pages, stderr, _) = try await crawl(server)
        #expect(pages == (allowed ? ["/", "/a", "/b"] : ["/"]), "\(stderr)")
        let warnings = stderr.split(separator: "\n").filter { $0.contains("robots.txt") }
        if let warning {
            #expect(warnings.count == 1 && warnings[0].contains("warning: ") && warnings[0].contains(warning), "\(stderr)")
        } else {
            #expect(warnings.isEmpty, "\(stderr)")
        }
    }

    /// A 5 MB file (a site's generated one) is downloaded to disk, never into a page, and its first 512 KiB read.
    @Test func aLargeFileIsDownloadedAndItsRulesRead() async throws {
        let filler = String(repeating: "# a comment line of a generated robots.txt, to make it large\n", count: 90_000)
        let server = try Self.site(robots: .respond(contentType: "text/plain", body: "User-agent: *\nDisallow: /b\n" + filler))
        let (pages, stderr, status) = try await crawl(server)
        #expect(status == 0 && pages == ["/", "/a"], "\(stderr)")
        #expect(server.requests(for: "/robots.txt").count == 1)
    }

    /// A file that never comes is given 10 s, and once more: then the site is not crawled.
    @Test func aFileThatNeverComesStopsTheCrawlOfItsSite() async throws {
        let server = try Self.site(robots: .hang)
        let (pages, stderr, _) = try await crawl(server)
        #expect(pages == ["/"], "\(stderr)")
        #expect(stderr.contains("robots.txt could not be read (timed out"), "\(stderr)")
    }

    @Test func aRedirectedFileIsFollowedAndCrawlDelaySpacesTheLoads() async throws {
        let moved = try Self.site(robots: .respond(status: 301, headers: ["Location": "/moved-robots.txt"], body: ""))
        let (pages, stderr, status) = try await crawl(moved)
        #expect(status == 0 && pages == ["/", "/a"], "\(stderr)")
        let slow = try Self.site(robots: .respond(contentType: "text/plain", body: "User-agent: *\nCrawl-delay: 1\n"))
        let (all, _, _) = try await crawl(slow, #"{"perHost": 2}"#)
        #expect(all == ["/", "/a", "/b"])
        let loads = [slow.requests(for: "/a"), slow.requests(for: "/b")].compactMap(\.first?.received)
        #expect(loads.count == 2 && max(loads[0] - loads[1], loads[1] - loads[0]) >= .milliseconds(900), "Crawl-delay: 1 spaces the two loads")
    }
}
