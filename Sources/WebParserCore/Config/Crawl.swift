import FoundationEssentials
import WebParser

/// Every page reachable from a job's URL by the links its rendered pages have (links their scripts wrote included),
/// each read with the job's script or extraction: `"crawl": {"links": "a[href]", "match": REGEX, …}`. A URL is loaded
/// once (`CrawlURL`), on the start's site by default, as `robots.txt` allows by default.
public struct Crawl: Sendable, Equatable {
    /// A CSS selector of the links followed.
    public var links: String
    /// A regular expression a link's URL must match (searched anywhere in it, as `grep` does); nil takes every link.
    public var match: String?
    /// A regular expression whose links are not followed; nil leaves none out.
    public var exclude: String?
    /// The most pages loaded, the start included.
    public var maxPages: Int
    /// The most links away from the start a page may be (the start is 0); nil for no limit.
    public var maxDepth: Int?
    /// Whether only pages of the start's site (its scheme and host) are loaded.
    public var sameSite: Bool
    /// Whether each host's `robots.txt` is obeyed (its rules for webparse, else for every robot).
    public var robots: Bool
    /// The most pages of one host loaded at once.
    public var perHost: Int
    /// The least time between two page loads of one host starting.
    public var delay: Duration
    /// The sitemaps whose pages are loaded too (within the crawl's rules); nil reads none.
    public var sitemap: CrawlSitemap?

    /// The links a crawl follows unless it says otherwise.
    public static let defaultLinks = "a[href]"
    /// The most pages a crawl loads unless it says otherwise.
    public static let defaultMaxPages = 1000
    /// The most pages of one host loaded at once unless a crawl says otherwise.
    public static let defaultPerHost = 2

    /// A crawl by `links` of the pages `match` takes and `exclude` does not, `maxPages` at most, `maxDepth` links deep
    /// at most, on the start's site (`sameSite`), as `robots.txt` allows (`robots`), `perHost` pages of a host at
    /// once and `delay` between their starts, with the pages `sitemap` lists.
    public init(
        links: String = defaultLinks, match: String? = nil, exclude: String? = nil, maxPages: Int = defaultMaxPages,
        maxDepth: Int? = nil, sameSite: Bool = true, robots: Bool = true, perHost: Int = defaultPerHost, delay: Duration = .zero,
        sitemap: CrawlSitemap? = nil
    ) {
        self.links = links
        self.match = match
        self.exclude = exclude
        self.maxPages = maxPages
        self.maxDepth = maxDepth
        self.sameSite = sameSite
        self.robots = robots
        self.perHost = perHost
        self.delay = delay
        self.sitemap = sitemap
    }
}

/// Where a crawl finds the sitemaps (sitemaps.org) whose pages it loads besides those links lead to:
/// `"sitemap": true` or `"sitemap": URL`.
public enum CrawlSitemap: Sendable, Equatable {
    /// The sitemaps the start site's `robots.txt` names (its `Sitemap` lines), else the site's `/sitemap.xml`.
    case listed
    /// The sitemap at this URL (absolute, or relative to where the start page ended).
    case at(String)
}
