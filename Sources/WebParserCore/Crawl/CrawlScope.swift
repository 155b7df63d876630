import FoundationEssentials

/// Which pages a crawl reads: those on its start's site (with `sameSite`) that `match` takes and `exclude` does not,
/// found on pages fewer than `maxDepth` links from the start.
public struct CrawlScope {
    private let crawl: Crawl
    private let site: String
    private let match: Regex<AnyRegexOutput>?
    private let exclude: Regex<AnyRegexOutput>?

    /// The scope of `crawl` from the page `start` (where the start page ended, after its redirects).
    public init(_ crawl: Crawl, start: URL) {
        self.crawl = crawl
        site = CrawlURL.site(of: CrawlURL.normalized(start) ?? start)
        match = crawl.match.flatMap { try? Regex($0) }
        exclude = crawl.exclude.flatMap { try? Regex($0) }
    }

    /// The page `link` names (as written on the page `page`, `depth` links from the start), in the one form a crawl
    /// loads once, if the crawl follows it.
    public func follows(_ link: String, on page: URL, depth: Int) -> URL? {
        guard crawl.maxDepth.map({ depth + 1 <= $0 }) ?? true, let url = CrawlURL.normalized(link, base: page), contains(url) else { return nil }
        return url
    }

    /// Whether the page at `url` (in the one form) is one the crawl reads, wherever it was found: a page a link
    /// redirected to elsewhere is not.
    public func contains(_ url: URL) -> Bool {
        if crawl.sameSite && CrawlURL.site(of: url) != site { return false }
        let text = url.absoluteString
        if let match, (try? match.firstMatch(in: text)) == nil { return false }
        if let exclude, (try? exclude.firstMatch(in: text)) != nil { return false }
        return true
    }
}
