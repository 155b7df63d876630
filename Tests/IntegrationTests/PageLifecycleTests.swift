import Foundation
import TestSupport
import Testing
import WebParser

/// Pages reused between jobs, recycled, and killed past their memory limit; URL patterns blocked.
@Suite struct PageLifecycleTests {
    func job(_ url: URL, _ script: String) -> WebParserJob {
        WebParserJob(url: url, script: script, timeout: .seconds(20), retry: RetryPolicy(retries: 0))
    }

    /// A page that loads a script the server lets be cached for an hour: a web process keeps it in its
    /// memory cache, and an ephemeral session has no other cache, so each request for it is a new web process.
    static func processCountingServer() throws -> TestHTTPServer {
        try TestHTTPServer(routes: [
            "/": .respond(body: "<script src=/count.js></script><p>hi</p>"),
            "/count.js": .respond(contentType: "text/javascript", headers: ["Cache-Control": "max-age=3600"], body: "window.counted = 1")
        ])
    }

    @Test func webProcessesAreReusedAndRecycledAfterTheirLoads() async throws {
        let server = try Self.processCountingServer()
        let recycling = WebParserRunner(session: WebParserSession(configuration: .init(recycleAfter: 3)))
        for _ in 1...7 { _ = try await recycling.run(job(server.url("/"), "window.counted")) }
        #expect(server.requests(for: "/count.js").count == 3, "7 jobs, a web process for every 3 loads")
    }

    @Test func aPageThatFailedIsNotReused() async throws {
        let server = try Self.processCountingServer()
        let parser = WebParserRunner()
        _ = try await parser.run(job(server.url("/"), "window.counted"))
        _ = try await parser.run(job(server.url("/"), "window.counted"))
        #expect(server.requests(for: "/count.js").count == 1)
        _ = try? await parser.run(job(server.url("/"), "missing.thing"))
        _ = try await parser.run(job(server.url("/"), "window.counted"))
        #expect(server.requests(for: "/count.js").count == 2, "the failed job's web process served the next job")
    }

    @Test func aPageOverItsMemoryLimitIsKilledAndReported() async throws {
        let hog = "<script>const keep = []; setInterval(() => { for (let i = 0; i < 20; i++) keep.push(new Array(1 << 20).fill(i)) }, 20)</script>"
        let server = try TestHTTPServer(routes: ["/hog": .respond(body: hog), "/fine": .respond(body: "<title>fine</title>")])
        let parser = WebParserRunner(session: WebParserSession(configuration: .init(memoryLimit: 200)))
        let error = await #expect(throws: WebParserError.self) {
            try await parser.run(job(server.url("/hog"), "null"))
        }
        #expect(error?.kind == .memoryLimitExceeded)
        #expect(try await parser.run(job(server.url("/fine"), "document.title")).data == Data(#""fine""#.utf8))
    }

    @Test func urlPatternsBlockSubresourcesButNotThePage() async throws {
        let page = "<script src='/ads/track.js'></script><script src='/app.js'></script><p>page</p>"
        let server = try TestHTTPServer(routes: [
            "/ads-page": .respond(body: page),
            "/app.js": .respond(contentType: "text/javascript", body: "document.title = 'app'"),
            "/ads/track.js": .respond(contentType: "text/javascript", body: "document.title = 'tracked'")
        ])
        var blocking = job(server.url("/ads-page"), "document.readyState === 'complete' ? document.title : null")
        blocking.page.blockedURLs = ["/ads/"]
        #expect(try await WebParserRunner().run(blocking).data == Data(#""app""#.utf8))
        #expect(server.requests(for: "/ads/track.js").isEmpty)
        #expect(server.requests(for: "/ads-page").count == 1)
    }
}
