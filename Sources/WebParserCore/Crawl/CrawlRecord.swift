import FoundationEssentials
import WebParser

/// A page a crawl read: where it is (after its redirects) and its result, or why it has none.
public struct CrawledPage: Sendable {
    /// The page's URL, in the one form a crawl loads once (`CrawlURL`).
    public let url: String
    /// The page's result (the job's JSON text), or why it has none.
    public let result: Result<Data, PageFailure>

    /// The page at `url` with `result`.
    public init(url: String, result: Result<Data, PageFailure>) {
        self.url = url
        self.result = result
    }

    /// What the output shows of the page: its result, or `{"error", "code"}`.
    public var record: Data {
        switch result {
        case .success(let data): data
        case .failure(let failure): failure.record
        }
    }
}

/// A crawl's pages as output: an object keyed by page URL (the result), or a list of `{"url", "result"}` records
/// (what `--state` tracks, by `key`); a page that failed has `{"error", "code"}` as its result.
public enum CrawlRecord {
    /// The field `--state` tells a crawl's pages apart by.
    public static let key = "url"
    /// The field of a record that holds the page's result.
    public static let resultKey = "result"

    /// `pages`, in the order they were read, as an object keyed by URL.
    public static func object(_ pages: [CrawledPage]) -> Data {
        JSONText.object(pages.map { ($0.url, JSONText.Value.raw($0.record)) })
    }

    /// `pages`, in the order they were read, as `{"url", "result"}` records; a page that failed is the record
    /// `standing` gives for its URL (what the state kept of its last good read), if any: a failure is no change.
    public static func list(_ pages: [CrawledPage], standing: (String) -> Data? = { _ in nil }) -> Data {
        JSONText.array(
            pages.map { page in
                if case .failure = page.result, let record = standing(page.url) { return record }
                return JSONText.object([(key, .string(page.url)), (resultKey, .raw(page.record))])
            })
    }
}
