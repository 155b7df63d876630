import Foundation
import Synchronization
import Testing
import WebParser
@testable import WebParserCore

/// Sitemaps (sitemaps.org) as a crawl reads them: one file as a stream (`SitemapFile`, gzip'd too, malformed ones
/// up to their fault, the protocol's limits), the `Sitemap` lines of `robots.txt`, the `sitemap` field, and a crawl
/// that adds a site's sitemaps' pages within its rules (`Crawler` on a fake site).
@Suite struct SitemapTests {
    static let site = "https://comics.example"

    /// A file holding `text`, gzip'd with `gzip`, when `compressed`.
    func file(_ text: String, compressed: Bool = false) throws -> String {
        let path = FileManager.default.temporaryDirectory.appending(path: "webparse-sitemap-test-\(UUID().uuidString)").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        guard compressed else { return path }
        let gzip = Process()
        gzip.executableURL = URL(filePath: "/bin/gzip")
        gzip.arguments = ["-f", path]
        try gzip.run()
        gzip.waitUntilExit()
        return path + ".gz"
    }

    /// A `<urlset>` of `entries`, one a line after the XML declaration and the root.
    static func urlset(_ entries: [String]) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
        \(entries.joined(separator: "\n"))
        </urlset>
        """
    }

    @Test func pagesAndTheirLastChangesAreRead() throws {
        let text = Self.urlset([
            "<url><loc>https://comics.example/a</loc><lastmod>2026-11-30</lastmod></url>",
            "<url>\n  <loc>\n    https://comics.example/b?x=1&amp;y=2\n  </loc>\n  <changefreq>daily</changefreq>\n</url>",
            "<url><loc><![CDATA[https://comics.example/c]]></loc></url>", "<url><lastmod>2026-01-01</lastmod></url>"
        ])
        for compressed in [false, true] {
            let sitemap = SitemapFile(path: try file(text, compressed: compressed), name: "map.xml")
            #expect(
                sitemap.pages == [
                    .init(loc: "https://comics.example/a", lastmod: "2026-11-30"), .init(loc: "https://comics.example/b?x=1&y=2", lastmod: nil),
                    .init(loc: "https://comics.example/c", lastmod: nil)
                ], "gzip'd: \(compressed)")
            #expect(sitemap.sitemaps.isEmpty && sitemap.warnings.isEmpty, "\(sitemap.warnings)")
        }
    }

    @Test func anIndexListsSitemaps() throws {
        let text = """
            <?xml version="1.0" encoding="UTF-8"?>
            <sm:sitemapindex xmlns:sm="http://www.sitemaps.org/schemas/sitemap/0.9">
            <sm:sitemap><sm:loc>https://comics.example/pages.xml.gz</sm:loc><sm:lastmod>2026-12-01T10:00:00+00:00</sm:lastmod></sm:sitemap>
            </sm:sitemapindex>
            """
        let sitemap = SitemapFile(path: try file(text), name: "index.xml")
        #expect(sitemap.sitemaps == [.init(loc: "https://comics.example/pages.xml.gz", lastmod: "2026-12-01T10:00:00+00:00")])
        #expect(sitemap.pages.isEmpty && sitemap.warnings.isEmpty)
    }

    @Test func aMalformedFileGivesWhatCanBeReadAndSaysWhereItsFaultIs() throws {
        let text = Self.urlset(["<url><loc>https://comics.example/a</loc></url>", "<url><loc>https://comics.example/b</loc>", "</urlset>"])
        let sitemap = SitemapFile(path: try file(text), name: "https://comics.example/map.xml")
        #expect(sitemap.pages.map(\.loc) == ["https://comics.example/a", "https://comics.example/b"])
        #expect(sitemap.warnings.count == 1)
        #expect(sitemap.warnings.first?.hasPrefix("warning: sitemap https://comics.example/map.xml line 5: ") == true, "\(sitemap.warnings)")
        #expect(sitemap.warnings.first?.hasSuffix("(not well-formed XML): 2 entries read from it") == true, "\(sitemap.warnings)")
        let page = SitemapFile(path: try file("<!doctype html><html><body><p>Not found<br></body></html>"), name: "map.xml")
        #expect(page.pages.isEmpty && page.warnings.first?.contains("map.xml line 1: ") == true, "\(page.warnings)")
        let feed = SitemapFile(path: try file("<rss><channel><item><link>https://comics.example/a</link></item></channel></rss>"), name: "feed.xml")
        #expect(feed.warnings == ["warning: feed.xml is not a sitemap (its root is <rss>, not <urlset> or <sitemapindex>): nothing read from it"])
    }

    @Test func theProtocolsLimitsHoldWhateverTheFileHolds() throws {
        let many = Self.urlset((0...SitemapFile.maxEntries).map { "<url><loc>https://comics.example/\($0)</loc></url>" })
        let listed = SitemapFile(path: try file(many, compressed: true), name: "many.xml.gz")
        #expect(listed.pages.count == SitemapFile.maxEntries && listed.pages.last?.loc == "https://comics.example/49999")
        #expect(listed.warnings == ["warning: sitemap many.xml.gz lists more than 50,000 entries, the sitemaps protocol's limit: the first 50000 entries kept"])
        // 64 MiB of empty entries after one, gzip'd to about 64 KiB: a zip bomb.
        let padding = "<url/>" + String(repeating: " ", count: 1018)
        let bomb = Self.urlset(["<url><loc>https://comics.example/a</loc></url>", String(repeating: padding, count: 64 << 10)])
        let read = SitemapFile(path: try file(bomb, compressed: true), name: "bomb.xml.gz")
        #expect(read.pages.map(\.loc) == ["https://comics.example/a"])
        #expect(read.warnings == ["warning: sitemap bomb.xml.gz holds more than 50 MiB of XML, the sitemaps protocol's limit: the first 1 entries kept"])
        let few = SitemapFile(path: try file(many), name: "many.xml", want: 3)
        #expect(few.pages.count == 3 && few.warnings.isEmpty)
    }

    @Test func robotsTxtNamesSitemapsOutsideItsGroups() {
        let rules = RobotsRules(
            "Sitemap: https://comics.example/a.xml\nUser-agent: *\nDisallow: /private/\nsitemap:https://cdn.example/b.xml.gz # mirror\n"
                + "Sitemap: https://comics.example/a.xml\nUser-agent: other\nDisallow: /\n")
        #expect(rules.sitemaps == ["https://comics.example/a.xml", "https://cdn.example/b.xml.gz"])
        #expect(!rules.allows(URL(string: "https://comics.example/private/x")!) && rules.allows(URL(string: "https://comics.example/a")!))
    }

    /// The crawl's field in a config: what it reads, and what it refuses.
    func sitemap(_ value: String) throws -> Result<CrawlSitemap?, ConfigError> {
        let path = FileManager.default.temporaryDirectory.appending(path: "webparse-sitemap-\(UUID().uuidString).json").path
        try #"{"url": "https://comics.example", "script": "1", "crawl": {"sitemap": \#(value)}}"#.write(toFile: path, atomically: true, encoding: .utf8)
        return Result { () throws(ConfigError) in try ConfigLoader.load(path: path).jobs.first?.crawl?.sitemap }
    }

    @Test func theFieldTakesTrueOrAURL() throws {
        #expect(try sitemap("true").get() == .listed)
        #expect(try sitemap("false").get() == nil)
        #expect(try sitemap(#""/sitemap_index.xml""#).get() == .at("/sitemap_index.xml"))
        #expect(try sitemap(#""https://cdn.example/map.xml.gz""#).get() == .at("https://cdn.example/map.xml.gz"))
        for bad in ["1", #""ftp://comics.example/map.xml""#, #""""#, "{}"] {
            guard case .failure(let error) = try sitemap(bad) else {
                Issue.record("\(bad) was taken")
                continue
            }
            #expect(error.problems.first?.path == "crawl.sitemap", "\(bad)")
            #expect(error.problems.first?.message.hasPrefix("expected true (the sitemaps robots.txt names) or a sitemap's URL, got") == true, "\(bad)")
        }
    }

    /// A site whose home links to one page, whose sitemap index lists the others (an orphan among them), a page of
    /// another site, a page `robots.txt` disallows, a sitemap that answers 404 and a malformed one.
    static func comics() -> FakePages {
        let page = { (title: String) in FakePages.Page.page(data: String(reflecting: title), links: []) }
        return FakePages([
            "/": .page(data: #""home""#, links: ["/a"]), "/a": page("a"), "/b": page("b"), "/orphan": page("orphan"),
            "/private/x": page("private"),
            "/robots.txt": FakePages.text("User-agent: *\nDisallow: /private/\nSitemap: https://comics.example/index.xml\n"),
            "/index.xml": .page(
                data: """
                    <sitemapindex><sitemap><loc>/pages.xml</loc></sitemap><sitemap><loc>/gone.xml</loc></sitemap>
                    <sitemap><loc>/broken.xml</loc></sitemap><sitemap><loc>/pages.xml</loc></sitemap></sitemapindex>
                    """, links: []),
            "/pages.xml": .page(
                data: Self.urlset([
                    "<url><loc>https://comics.example/a</loc></url>", "<url><loc>https://comics.example/b</loc></url>",
                    "<url><loc>https://comics.example/orphan</loc></url>", "<url><loc>https://elsewhere.example/x</loc></url>",
                    "<url><loc>https://comics.example/private/x</loc></url>"
                ]), links: []),
            "/broken.xml": .page(data: "<urlset><url><loc>https://comics.example/b</loc></url>\n<url><loc>", links: [])
        ])
    }

    @Test func aCrawlAddsItsSitemapsPagesWithinItsRules() async throws {
        let pages = Self.comics()
        var job = WebParserJob(url: URL(string: Self.site + "/")!, script: "document.title")
        job.evaluation.links = Crawl.defaultLinks
        let first = try await pages.run(job, label: "start")
        let events = Mutex<[CrawlEvent]>([])
        let crawled = await Crawler(pages: pages).crawl(Crawl(sitemap: .listed), job: job, start: first, name: "site") { event in
            events.withLock { $0.append(event) }
        }
        #expect(crawled.pages.first?.url == Self.site + "/")
        #expect(Set(crawled.pages.map(\.url)) == Set(["/", "/a", "/b", "/orphan"].map { Self.site + $0 }))
        let warnings = events.withLock { $0 }.compactMap { if case .warning(let text) = $0 { text } else { nil } }
        #expect(warnings.count == 2, "\(warnings)")
        #expect(warnings.contains("warning: sitemap https://comics.example/gone.xml answered HTTP status 404: not read"), "\(warnings)")
        #expect(warnings.contains { $0.hasPrefix("warning: sitemap https://comics.example/broken.xml line 2: ") }, "\(warnings)")
        #expect(pages.loads(of: "/pages.xml") == 1 && pages.loads(of: "/private/x") == 0)
        let without = try await Crawler(pages: Self.comics()).crawl(Crawl(), job: job, start: first, name: "site")
        #expect(without.pages.map(\.url) == ["/", "/a"].map { Self.site + $0 })
    }

    @Test func aSiteThatNamesNoSitemapIsReadFromSitemapXmlAndACrawlStopsReadingWhenFull() async throws {
        let entries = (1...500).map { "<url><loc>/p/\($0)</loc></url>" }
        var routes: [String: FakePages.Page] = ["/": .page(data: #""home""#, links: []), "/sitemap.xml": .page(data: Self.urlset(entries), links: [])]
        for number in 1...500 { routes["/p/\(number)"] = .page(data: "\(number)", links: []) }
        let pages = FakePages(routes)
        var job = WebParserJob(url: URL(string: Self.site + "/")!, script: "document.title")
        job.evaluation.links = Crawl.defaultLinks
        let first = try await pages.run(job, label: "start")
        let crawled = await Crawler(pages: pages).crawl(Crawl(maxPages: 4, robots: false, sitemap: .listed), job: job, start: first, name: "site")
        #expect(Set(crawled.pages.map(\.url)) == Set(["/", "/p/1", "/p/2", "/p/3"].map { Self.site + $0 }))
        #expect(crawled.leftAtMaxPages == 497)
    }

    @Test func aPageWhoseLastmodIsUnchangedIsNotLoadedAndItsLastResultStands() async throws {
        let map = Self.urlset([
            "<url><loc>/a</loc><lastmod>2026-12-01</lastmod></url>", "<url><loc>/b</loc><lastmod>2026-12-05</lastmod></url>",
            "<url><loc>/c</loc></url>", "<url><loc>/d</loc><lastmod>2026-12-01</lastmod></url>"
        ])
        let pages = FakePages([
            "/": .page(data: #""home""#, links: ["/a", "/b"]), "/a": .page(data: #""a now""#, links: []), "/b": .page(data: #""b now""#, links: ["/a"]),
            "/c": .page(data: #""c now""#, links: []), "/d": .fails(.httpStatus(500)), "/sitemap.xml": .page(data: map, links: [])
        ])
        let history = CrawlHistory(pages: [
            Self.site + "/a": .init(lastmod: "2026-12-01", result: Data(#""a before""#.utf8)),
            Self.site + "/b": .init(lastmod: "2026-12-01", result: Data(#""b before""#.utf8))
        ])
        var job = WebParserJob(url: URL(string: Self.site + "/")!, script: "document.title")
        job.evaluation.links = Crawl.defaultLinks
        job.retry = RetryPolicy(retries: 0)
        let first = try await pages.run(job, label: "start")
        let crawled = await Crawler(pages: pages).crawl(
            Crawl(robots: false, sitemap: .listed), job: job, start: first, name: "site", history: history)
        let results = Dictionary(uniqueKeysWithValues: crawled.pages.map { ($0.url, String(decoding: $0.record, as: UTF8.self)) })
        #expect(results[Self.site + "/a"] == #""a before""#, "unchanged: its last result stands")
        #expect(results[Self.site + "/b"] == #""b now""# && results[Self.site + "/c"] == #""c now""#, "changed, or no lastmod: loaded")
        #expect(pages.loads(of: "/a") == 0 && pages.loads(of: "/b") == 1, "links to an unchanged page do not load it")
        #expect(crawled.unchanged == 1 && crawled.failed == 1)
        #expect(crawled.lastmods == [Self.site + "/a": "2026-12-01", Self.site + "/b": "2026-12-05"], "a failed page is loaded again next time")
        var state = StateFile.Job()
        state.lastmods = [Self.site + "/a": "2026-12-01", Self.site + "/gone": "2026-12-01"]
        state.contents = [#"k:"https://comics.example/a""#: #"{"result":{"title":"A"},"url":"https://comics.example/a"}"#]
        #expect(CrawlHistory(state)?.pages == [Self.site + "/a": .init(lastmod: "2026-12-01", result: Data(#"{"title":"A"}"#.utf8))])
    }
}
