import Foundation
import Synchronization
import Testing
import WebParser
import WebParserCore

/// The crawl engine without WebKit: `Crawler` and its rules (`CrawlFrontier`, `CrawlDiscovery`, `RobotsFile`) on a
/// fake site whose pages answer at once.
@Suite struct CrawlerTests {
    static let site = "https://comics.example"

    /// A page whose result is its title and whose links are `links`.
    static func page(_ title: String, _ links: String...) -> FakePages.Page { .page(data: String(reflecting: title), links: links) }

    /// Crawls `pages` from `start` by `crawl`: the result, the titles by page URL, and what the crawl said.
    func crawl(
        _ pages: FakePages, from start: String = "/", _ crawl: Crawl = Crawl(robots: false)
    ) async throws -> (crawled: Crawled, titles: [String: String], events: [CrawlEvent]) {
        var job = WebParserJob(url: URL(string: pages.site + start)!, script: "document.title")
        job.evaluation.links = crawl.links
        let first = try await pages.run(job, label: "start")
        let events = Mutex<[CrawlEvent]>([])
        let crawled = await Crawler(pages: pages).crawl(crawl, job: job, start: first, name: "site") { event in
            events.withLock { $0.append(event) }
        }
        var titles: [String: String] = [:]
        for page in crawled.pages {
            titles[String(page.url.dropFirst(pages.site.count))] = (try? page.result.get()).map { String(decoding: $0, as: UTF8.self) }
        }
        return (crawled, titles, events.withLock { $0 })
    }

    @Test func eachPageIsReadOnceBreadthFirstWhateverItsSpelling() async throws {
        let pages = FakePages([
            "/": Self.page("home", "/a", "/b#top", "/docs/../c", "HTTPS://COMICS.EXAMPLE:443/a", "https://elsewhere.example/x", "mailto:x@y"),
            "/a": Self.page("a", "/", "/a/deep"),
            "/b": Self.page("b", "/a", "/d"),
            "/c": Self.page("c"),
            "/d": Self.page("d", "/b"),
            "/a/deep": Self.page("deep")
        ])
        let (crawled, titles, events) = try await crawl(pages)
        #expect(crawled.pages.first?.url == Self.site + "/")
        #expect(Set(crawled.pages.map(\.url)) == Set(["/", "/a", "/b", "/c", "/a/deep", "/d"].map { Self.site + $0 }))
        #expect(titles["/a/deep"] == #""deep""#)
        #expect(pages.loads.count == 6, "\(pages.loads)")
        #expect(crawled.failed == 0 && crawled.leftAtMaxPages == 0)
        let found = events.reduce(0) { if case .found(let count) = $1 { $0 + count } else { $0 } }
        #expect(found == 5, "each page to come is told once")
        #expect(Set(pages.labels.dropFirst()) == Set(["/a", "/b", "/c", "/a/deep", "/d"].map { "site \(Self.site)\($0)" }))
    }

    @Test func depthScopeAndMaxPagesLimitTheCrawl() async throws {
        let pages = FakePages([
            "/": Self.page("home", "/1", "/2", "/3", "/skip/4"),
            "/1": Self.page("1", "/1/a"), "/2": Self.page("2"), "/3": Self.page("3"), "/skip/4": Self.page("4"),
            "/1/a": Self.page("1a", "/1/a/b"), "/1/a/b": Self.page("1ab")
        ])
        let shallow = try await crawl(pages, Crawl(maxDepth: 1, robots: false))
        #expect(Set(shallow.titles.keys) == ["/", "/1", "/2", "/3", "/skip/4"])
        let matched = try await crawl(pages, Crawl(match: "/1", exclude: "/b$", robots: false))
        #expect(Set(matched.titles.keys) == ["/", "/1", "/1/a"])
        let few = try await crawl(pages, Crawl(maxPages: 3, robots: false))
        #expect(few.crawled.pages.count == 3)
        #expect(few.crawled.leftAtMaxPages == 3, "/3, /skip/4 and /1/a were found and not loaded")
        let found = few.events.reduce(0) { if case .found(let count) = $1 { $0 + count } else { $0 } }
        #expect(found == 2, "only the pages that can still be loaded are told")
    }

    /// A link that redirects to a page read already is that page, read once; one that redirects out of the site is
    /// not the crawl's; the page a redirect ends at is known by that URL.
    @Test func aRedirectedLinkIsThePageItEndsAt() async throws {
        let pages = FakePages([
            "/": Self.page("home", "/author/ann", "/tag/x/", "/by-name/ann", "/old"),
            "/author/ann": .redirect(to: "/author/ann/"),
            "/author/ann/": Self.page("Ann"),
            "/tag/x/": Self.page("x", "/author/ann/", "/author/bob"),
            "/author/bob": .redirect(to: "/author/bob/"),
            "/author/bob/": Self.page("Bob"),
            "/by-name/ann": .redirect(to: "https://other.example/ann"),
            "https://other.example/ann": Self.page("Ann elsewhere"),
            "/old": .redirect(to: "/new/"),
            "/new/": Self.page("new", "/new/child"),
            "/new/child": Self.page("child")
        ])
        let (crawled, titles, events) = try await crawl(pages)
        #expect(Set(titles.keys) == ["/", "/author/ann/", "/tag/x/", "/author/bob/", "/new/", "/new/child"], "\(titles.keys.sorted())")
        #expect(crawled.pages.count == titles.count, "no page twice")
        #expect(pages.loads(of: "/author/ann/") + pages.loads(of: "/author/ann") <= 2)
        let notes = events.compactMap { if case .note(let note) = $0 { note } else { nil } }
        #expect(notes.contains { $0.contains("/by-name/ann went to https://other.example/ann, out of the crawl") }, "\(notes)")
        #expect(pages.loads.allSatisfy { !$0.hasPrefix("https://other.example/") || $0.hasSuffix("/ann") })
    }

    @Test func aPageThatFailsKeepsItsPlaceWithItsFailure() async throws {
        let pages = FakePages(["/": Self.page("home", "/gone", "/ok"), "/ok": Self.page("ok")])
        let (crawled, _, _) = try await crawl(pages)
        #expect(crawled.failed == 1)
        let gone = try #require(crawled.pages.first { $0.url == Self.site + "/gone" })
        let record = #"{"error":"HTTP status 404 (https://comics.example/gone)","code":"http-status"}"#
        #expect(String(decoding: gone.record, as: UTF8.self) == record)
        let object = String(decoding: CrawlRecord.object(crawled.pages), as: UTF8.self)
        #expect(object.contains(#""https://comics.example/ok":"ok""#), "\(object)")
    }

    @Test func perHostPagesAtOnceAreKept() async throws {
        var routes: [String: FakePages.Page] = ["/": .page(data: "1", links: (1...8).map { "/p\($0)" })]
        for n in 1...8 { routes["/p\(n)"] = .slow(data: "2", delay: .milliseconds(20)) }
        let pages = FakePages(routes)
        let (crawled, _, _) = try await crawl(pages, Crawl(robots: false, perHost: 2))
        #expect(crawled.pages.count == 9)
        #expect(pages.mostAtOnce <= 2)
    }

    // MARK: robots.txt

    @Test func robotsTxtIsObeyedAndReadOncePerSite() async throws {
        let pages = FakePages([
            "/": Self.page("home", "/private/x", "/open", "/private/open/y"),
            "/open": Self.page("open", "/private/z"), "/private/open/y": Self.page("y"),
            "/robots.txt": FakePages.text("User-agent: *\nDisallow: /private/\nAllow: /private/open\nCrawl-delay: 0.01\n")
        ])
        let (_, titles, events) = try await crawl(pages, Crawl())
        #expect(Set(titles.keys) == ["/", "/open", "/private/open/y"])
        #expect(pages.loads(of: "/robots.txt") == 1)
        #expect(pages.loads(of: "/private/x") == 0 && pages.loads(of: "/private/z") == 0)
        #expect(events.allSatisfy { if case .warning = $0 { false } else { true } })
    }

    /// RFC 9309 2.3.1: a file that cannot be reached (5xx, 429, a network failure) disallows the whole site, with
    /// one warning; a missing one (4xx) allows everything; one that is no text, or redirects without end, has no rules
    /// and is told.
    @Test func robotsTxtThatCannotBeReadIsReadAsRFC9309Says() async throws {
        let cases: [(FakePages.Page?, allowed: Bool, warning: String?)] = [
            (.fails(.httpStatus(500)), false, "robots.txt could not be read (HTTP status 500): nothing of https://comics.example is loaded"),
            (.fails(.httpStatus(503)), false, "HTTP status 503"),
            (.fails(.httpStatus(429)), false, "HTTP status 429"),
            (.fails(.connectionRefused), false, "connection refused"),
            (.fails(.timedOut(phase: .waitingForServer, after: .seconds(10))), false, "timed out"),
            (.fails(.tlsFailed("bad certificate")), false, "TLS failed"),
            (nil, true, nil),
            (.fails(.httpStatus(403)), true, nil),
            (.file(type: "text/html", body: "<html>"), true, "is not text (text/html): no rules read from it"),
            (.file(type: "image/png", body: "PNG"), true, "is not text (image/png)"),
            (.redirect(to: "/robots.txt"), true, "redirects too many times")
        ]
        for (robots, allowed, warning) in cases {
            var routes: [String: FakePages.Page] = ["/": Self.page("home", "/a"), "/a": Self.page("a")]
            routes["/robots.txt"] = robots
            let pages = FakePages(routes)
            let (_, titles, events) = try await crawl(pages, Crawl())
            #expect((titles["/a"] != nil) == allowed, "\(String(describing: robots))")
            let warnings = events.compactMap { if case .warning(let text) = $0 { text } else { nil } }
            if let warning {
                #expect(warnings.count == 1 && warnings[0].hasPrefix("warning: ") && warnings[0].contains(warning), "\(warnings)")
            } else {
                #expect(warnings.isEmpty, "\(warnings)")
            }
        }
    }

    @Test func robotsRulesKeepTheirGroupsCrawlDelay() {
        let rules = RobotsRules("User-agent: webparse\nCrawl-delay: 2.5\nDisallow: /x\n\nUser-agent: *\nCrawl-delay: 9\n")
        #expect(rules.crawlDelay == .milliseconds(2500))
        #expect(RobotsRules("User-agent: *\nCrawl-delay: soon\n").crawlDelay == nil)
        #expect(RobotsRules.disallowAll.allows(URL(string: "https://a.example/")!) == false)
    }

    @Test func theDelayIsTheLongerOfTheCrawlsAndTheSites() async throws {
        let pages = FakePages(["/robots.txt": FakePages.text("User-agent: *\nCrawl-delay: 3\n")])
        let url = URL(string: "https://comics.example/a")!
        let robots = RobotsFiles(pages: pages)
        #expect(await CrawlDiscovery(Crawl(delay: .seconds(1)), start: url, robots: robots).delay(for: url) == .seconds(3))
        #expect(await CrawlDiscovery(Crawl(delay: .seconds(5)), start: url, robots: robots).delay(for: url) == .seconds(5))
        #expect(await CrawlDiscovery(Crawl(robots: false, delay: .seconds(1)), start: url, robots: robots).delay(for: url) == .seconds(1))
        #expect(pages.loads(of: "/robots.txt") == 1)
    }

    // MARK: The frontier

    @Test func theFrontierCountsLoadsAgainstMaxPagesAndReadsEachPageOnce() {
        let start = URL(string: "https://comics.example/")!
        var frontier = CrawlFrontier(maxPages: 3, start: start, final: start)
        let target = { (path: String) in CrawlTarget(url: URL(string: "https://comics.example" + path)!, depth: 1) }
        #expect(frontier.add([target("/a"), target("/b"), target("/"), target("/c")]) == 2, "two of the three new pages fit")
        #expect(frontier.add([target("/a")]) == 0)
        let a = frontier.next()
        #expect(a == target("/a"))
        // /a's load ends at /b: /b is read, and not loaded again.
        #expect(frontier.arrived(target("/a"), at: target("/b").url, inScope: true) == .page(url: target("/b").url))
        #expect(frontier.next() == target("/c"))
        #expect(frontier.next() == nil, "maxPages reached")
        #expect(frontier.leftAtMaxPages == 0, "/b was read by /a's load")
        #expect(frontier.arrived(target("/c"), at: start, inScope: true) == .duplicate(of: start))
    }
}
