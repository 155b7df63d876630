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

    /// The links a crawl follows unless it says otherwise.
    public static let defaultLinks = "a[href]"
    /// The most pages a crawl loads unless it says otherwise.
    public static let defaultMaxPages = 1000
    /// The most pages of one host loaded at once unless a crawl says otherwise.
    public static let defaultPerHost = 2

    /// A crawl by `links` of the pages `match` takes and `exclude` does not, `maxPages` at most, `maxDepth` links deep
    /// at most, on the start's site (`sameSite`), as `robots.txt` allows (`robots`), `perHost` pages of a host at
    /// once and `delay` between their starts.
    public init(
        links: String = defaultLinks, match: String? = nil, exclude: String? = nil, maxPages: Int = defaultMaxPages,
        maxDepth: Int? = nil, sameSite: Bool = true, robots: Bool = true, perHost: Int = defaultPerHost, delay: Duration = .zero
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
    }
}

/// Which links of its pages a crawl follows: those on the start's site (with `sameSite`) that `match` takes and
/// `exclude` does not, from pages fewer than `maxDepth` links from the start.
public struct CrawlScope {
    private let crawl: Crawl
    private let site: String
    private let match: Regex<AnyRegexOutput>?
    private let exclude: Regex<AnyRegexOutput>?

    /// The scope of `crawl` from the page `start`.
    public init(_ crawl: Crawl, start: URL) {
        self.crawl = crawl
        site = CrawlURL.site(of: CrawlURL.normalized(start) ?? start)
        match = crawl.match.flatMap { try? Regex($0) }
        exclude = crawl.exclude.flatMap { try? Regex($0) }
    }

    /// The page `link` names (as written on the page `page`, `depth` links from the start), in the one form a crawl
    /// loads once, if the crawl follows it.
    public func follows(_ link: String, on page: URL, depth: Int) -> URL? {
        guard crawl.maxDepth.map({ depth + 1 <= $0 }) ?? true, let url = CrawlURL.normalized(link, base: page) else { return nil }
        if crawl.sameSite && CrawlURL.site(of: url) != site { return nil }
        let text = url.absoluteString
        if let match, (try? match.firstMatch(in: text)) == nil { return nil }
        if let exclude, (try? exclude.firstMatch(in: text)) != nil { return nil }
        return url
    }
}

/// The one form of a URL a crawl loads once: the scheme and host in lower case, no default port, `.` and `..` resolved,
/// no fragment, an empty path as `/`.
public enum CrawlURL {
    /// `text` read against `base` in that form; nil when it is no http(s) URL with a host.
    public static func normalized(_ text: String, base: URL? = nil) -> URL? {
        guard let url = URL(string: text.trimmingWhitespace(), relativeTo: base)?.absoluteURL else { return nil }
        return normalized(url)
    }

    /// `url` in that form; nil when it is no http(s) URL with a host.
    public static func normalized(_ url: URL) -> URL? {
        guard var components = URLComponents(url: url.standardized, resolvingAgainstBaseURL: true),
            let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https",
            let host = components.host, !host.isEmpty
        else { return nil }
        components.scheme = scheme
        components.host = host.lowercased()
        if components.port == (scheme == "http" ? 80 : 443) { components.port = nil }
        components.fragment = nil
        if components.path.isEmpty { components.path = "/" }
        return components.url
    }

    /// The site of `url`: its scheme and host (and a port other than the default).
    public static func site(of url: URL) -> String {
        let scheme = url.scheme?.lowercased() ?? ""
        let port = url.port.map { ":\($0)" } ?? ""
        return scheme + "://" + (url.host()?.lowercased() ?? "") + port
    }
}

/// A crawl's pages as output: an object keyed by page URL (the result), or a list of `{"url", "result"}` records
/// (what `--state` tracks, by `key`); a page that failed has `{"error", "code"}` as its result.
public enum CrawlRecord {
    /// The field `--state` tells a crawl's pages apart by.
    public static let key = "url"

    /// `pages`, in the order they were loaded, as an object keyed by URL.
    public static func object(_ pages: [(url: String, result: Data)]) -> Data {
        JSONText.object(pages.map { ($0.url, JSONText.Value.raw($0.result)) })
    }

    /// `pages`, in the order they were loaded, as `{"url", "result"}` records.
    public static func list(_ pages: [(url: String, result: Data)]) -> Data {
        JSONText.array(pages.map { JSONText.object([("url", .string($0.url)), ("result", .raw($0.result))]) })
    }

    /// A failed page's result.
    public static func failure(_ message: String, code: String) -> Data {
        JSONText.object([("error", .string(message)), ("code", .string(code))])
    }
}
