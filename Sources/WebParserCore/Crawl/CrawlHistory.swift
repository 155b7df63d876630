import FoundationEssentials
import WebParser

/// What a crawl's last run knew of its pages (`--state`): the `lastmod` each page had in the site's sitemaps when it
/// was read, and its result then. A page the sitemaps list with the same `lastmod` is not loaded again: its last
/// result stands.
public struct CrawlHistory: Sendable {
    /// A page as the last run read it.
    public struct Page: Sendable, Equatable {
        /// Its `lastmod` in a sitemap, as the sitemap wrote it.
        public let lastmod: String
        /// Its result (the job's JSON text).
        public let result: Data

        /// A page read at `lastmod`, with `result`.
        public init(lastmod: String, result: Data) {
            self.lastmod = lastmod
            self.result = result
        }
    }

    /// The pages, by URL (in the one form a crawl loads once, `CrawlURL`).
    public var pages: [String: Page]

    /// The history of `pages`.
    public init(pages: [String: Page]) {
        self.pages = pages
    }

    /// The history a job's state keeps: its pages' `lastmods` with the results its `contents` hold for them (a crawl's
    /// pages are tracked by their URL); nil when it has none.
    public init?(_ job: StateFile.Job?) {
        guard let job, let lastmods = job.lastmods, let contents = job.contents else { return nil }
        var pages: [String: Page] = [:]
        for (url, lastmod) in lastmods {
            guard let record = contents[ChangeTracker.identity(ofKey: url)],
                let node = try? JSONNode.parse(Array(record.utf8), rules: .lenient), let result = node[CrawlRecord.resultKey]
            else { continue }
            pages[url] = Page(lastmod: lastmod, result: Data(CanonicalJSON.text(result).utf8))
        }
        guard !pages.isEmpty else { return nil }
        self.pages = pages
    }

    /// The last result of the page at `url` when the sitemaps list it with the `lastmod` it had then; nil when it must
    /// be loaded (it changed, or the sitemaps do not say, or the last run did not read it).
    public func standing(_ url: URL, lastmod: String?) -> Data? {
        guard let lastmod, let page = pages[url.absoluteString], page.lastmod == lastmod else { return nil }
        return page.result
    }
}
