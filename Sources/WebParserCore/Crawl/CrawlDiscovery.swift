import FoundationEssentials
import WebParser

/// A page a crawl reads: its URL, in the one form a crawl loads once (`CrawlURL`), and how many links away from the
/// start it was found (the start is 0).
public struct CrawlTarget: Sendable, Hashable {
    /// The page's URL.
    public let url: URL
    /// How many links away from the crawl's start it was found.
    public let depth: Int

    /// The page at `url`, `depth` links from the start.
    public init(url: URL, depth: Int) {
        self.url = url
        self.depth = depth
    }
}

/// The pages a crawl's page leads to: the links it had that the crawl follows (`CrawlScope`), each once, in the
/// order the page had them, as their site's `robots.txt` allows (when the crawl obeys it), with the warnings a
/// site's file gives the first time it is read. The same for a crawl in one run (`Crawler`) and for the workers of a
/// queue, whatever keeps the pages seen.
public struct CrawlDiscovery: Sendable {
    /// The crawl whose rules it keeps.
    public let crawl: Crawl
    /// Where the crawl's start page ended, after its redirects: the site the crawl stays on.
    public let start: URL
    private let robots: RobotsFiles?

    /// The discovery of `crawl` from the page `start` (where the start page ended), with `robots` (read when the
    /// crawl obeys them).
    public init(_ crawl: Crawl, start: URL, robots: RobotsFiles) {
        self.crawl = crawl
        self.start = CrawlURL.normalized(start) ?? start
        self.robots = crawl.robots ? robots : nil
    }

    /// The scope the crawl keeps to.
    public var scope: CrawlScope { CrawlScope(crawl, start: start) }

    /// The pages the links `links` of the page at `page`, `depth` links from the start, lead to.
    public func pages(linkedFrom links: [String], on page: URL, depth: Int) async -> (pages: [CrawlTarget], warnings: [String]) {
        let scope = scope
        var listed: Set<URL> = []
        var found: [CrawlTarget] = []
        var warnings: [String] = []
        for link in links {
            guard let url = scope.follows(link, on: page, depth: depth), listed.insert(url).inserted else { continue }
            if let robots {
                let (file, isNew) = await robots.file(for: url)
                if isNew, let warning = file.warning { warnings.append(warning) }
                guard file.allows(url) else { continue }
            }
            found.append(CrawlTarget(url: url, depth: depth + 1))
        }
        return (found, warnings)
    }

    /// What a crawl's page read on its own (an item of a work queue, asked for at `asked`, `depth` links from a start
    /// it does not know) leads to: where its load ended (in the one form), whether that is in the crawl's scope, and
    /// the pages its links lead to, none when the load ended out of the crawl's scope. The scope is the site of where
    /// the page ended when it is the start, else the site of the page asked for (which the crawl found on its site).
    public static func pages(
        of result: WebParserResult, askedAt asked: URL, depth: Int, by crawl: Crawl, robots: RobotsFiles
    ) async -> (ended: URL, inScope: Bool, pages: [CrawlTarget], warnings: [String]) {
        let ended = URL(string: result.finalURL).flatMap(CrawlURL.normalized) ?? asked
        let discovery = CrawlDiscovery(crawl, start: depth == 0 ? ended : asked, robots: robots)
        guard discovery.scope.contains(ended) else { return (ended, false, [], []) }
        let (pages, warnings) = await discovery.pages(linkedFrom: result.links ?? [], on: ended, depth: depth)
        return (ended, true, pages, warnings)
    }

    /// The least time between two loads of `url`'s host: the crawl's `delay`, or its site's `Crawl-delay` when that
    /// is longer (and the crawl obeys `robots.txt`).
    public func delay(for url: URL) async -> Duration {
        await Self.delay(of: crawl, for: url, robots: robots)
    }

    /// The least time between two loads of `url`'s host by `crawl`: its `delay`, or the site's `Crawl-delay` in
    /// `robots` when that is longer (and the crawl obeys `robots.txt`).
    public static func delay(of crawl: Crawl, for url: URL, robots: RobotsFiles?) async -> Duration {
        guard crawl.robots, let robots, let asked = await robots.file(for: url).file.rules.crawlDelay else { return crawl.delay }
        return max(crawl.delay, asked)
    }

    /// What a crawl says when it stopped at `maxPages` with `left` links found and not loaded: one warning, the
    /// same from `run`, `eval` and `work`.
    public static func maxPagesWarning(_ crawl: Crawl, left: Int) -> String {
        "warning: the crawl reached maxPages (\(crawl.maxPages)); \(left) link\(left == 1 ? "" : "s") it found \(left == 1 ? "was" : "were") not loaded"
    }
}
