import Foundation
import TestSupport
import Testing
import WebParserCore
import WebParserQueue

/// A crawl's frontier kept in memory (`run`'s `CrawlFrontier`) and in a work queue's Redis (the workers'
/// `QueueFrontier`) decide every load alike: the same pages, the same drops, the same pages added.
@Suite struct CrawlFrontierStoreTests {
    static let site = "http://site.test"

    static func page(_ path: String, _ depth: Int = 1) -> CrawlTarget { CrawlTarget(url: URL(string: site + path)!, depth: depth) }

    /// A load of the crawl: the page asked for, where its load ended, whether that is in the crawl's scope, and the
    /// pages its links lead to.
    struct Load {
        let target: CrawlTarget
        let ended: URL?
        let inScope: Bool
        let found: [CrawlTarget]
    }

    /// The loads of a crawl of five pages at most whose start page links to /a, /b and /c, and how each lands.
    static let loads: [(load: Load, landing: CrawlFrontier.Landing)] = [
        // A page of the crawl: of the pages it links to, /d is new.
        (
            Load(target: page("/a"), ended: page("/a").url, inScope: true, found: [page("/b", 2), page("/d", 2)]),
            .init(arrival: .page(url: page("/a").url), added: 1)
        ),
        // Its load ended where /a's did: the same page, read once.
        (
            Load(target: page("/b"), ended: page("/a").url, inScope: true, found: [page("/e", 2)]),
            .init(arrival: .duplicate(of: page("/a").url), added: 0)
        ),
        // Its load ended on another site.
        (
            Load(target: page("/c"), ended: URL(string: "http://elsewhere.test/x")!, inScope: false, found: []),
            .init(arrival: .outOfScope(URL(string: "http://elsewhere.test/x")!), added: 0)
        ),
        // A page of the crawl, which has its five pages: nothing more is added.
        (
            Load(target: page("/d", 2), ended: page("/d").url, inScope: true, found: [page("/e", 3), page("/f", 3)]),
            .init(arrival: .page(url: page("/d").url), added: 0)
        )
    ]

    @Test func memoryAndRedisDecideEveryLoadAlike() async throws {
        let server = try RedisServer()
        let queue = try await WorkQueue.open(try RedisURL(server.url(queue: "site")), worker: "w")
        func inRedis(_ page: CrawlTarget) -> QueueFrontier {
            QueueFrontier(queue: queue, job: "site", maxPages: 5, page: page.url.absoluteString) { target in
                WorkQueue.FoundPage(url: target.url.absoluteString, item: Data(target.url.absoluteString.utf8))
            }
        }
        let start = Self.page("/", 0)
        let links = [Self.page("/a"), Self.page("/b"), Self.page("/c")]
        var memory = CrawlFrontier(maxPages: 5, start: start.url, final: start.url)
        #expect(memory.add(links) == 3)
        var started = inRedis(start)
        #expect(try await started.land(start, at: start.url, inScope: true) { links } == .init(arrival: .page(url: start.url), added: 3))

        for (load, expected) in Self.loads {
            var redis = inRedis(load.target)
            let kept = try await redis.land(load.target, at: load.ended, inScope: load.inScope) { load.found }
            let held = await memory.land(load.target, at: load.ended, inScope: load.inScope) { load.found }
            #expect(held == expected, "in memory, \(load.target.url)")
            #expect(kept.arrival == expected.arrival && kept.added == expected.added, "in Redis, \(load.target.url): \(kept)")
        }
        #expect(try server.cli(["LRANGE", "site", "0", "-1"]) == ["/a", "/b", "/c", "/d"].map { Self.site + $0 }.joined(separator: "\n"))
        try await queue.leave()
    }
}
