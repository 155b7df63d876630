import FoundationEssentials
import WebParser

/// The pages of one crawl kept in memory, as a plain value: every URL seen (found, loading or read), the pages
/// waiting to be loaded in the order they were found (breadth first), and how many were loaded, against `maxPages`.
/// A page that redirected to one read already is the same page, read once; one that redirected out of the crawl's
/// scope is not the crawl's.
public struct CrawlFrontier: Sendable {
    private let maxPages: Int
    private var seen: Set<URL>
    /// The URLs read (asked for, or where a load ended): a page waiting there is not loaded again.
    private var read: Set<URL>
    /// The URLs of the pages the crawl has: a load that ends at one of them is not another page.
    private var recorded: Set<URL>
    private var waiting: [CrawlTarget] = []
    private var head = 0
    /// The pages loaded or loading, the start included.
    public private(set) var loads = 1

    /// What a load turned out to be.
    public enum Arrival: Equatable, Sendable {
        /// A page of the crawl, at `url` (where it ended, after its redirects).
        case page(url: URL)
        /// It redirected to `url`, a page the crawl has read already: it is not read twice.
        case duplicate(of: URL)
        /// It redirected to `url`, out of the crawl's scope.
        case outOfScope(URL)

        /// What a crawl says (with `-v`) of the page asked for at `target` that arrived so; nil for a page it reads.
        /// The same from `run` and from a queue's workers, which drop such a page as `run` does.
        public func note(asked target: URL) -> String? {
            switch self {
            case .page: return nil
            case .duplicate(let url): return "\(URLRedaction.redact(target.absoluteString)) is \(URLRedaction.redact(url.absoluteString)), read already"
            case .outOfScope(let url):
                return "\(URLRedaction.redact(target.absoluteString)) went to \(URLRedaction.redact(url.absoluteString)), out of the crawl"
            }
        }
    }

    /// The frontier of a crawl of `maxPages` at most, whose start page was asked for at `start` and ended at `final`.
    public init(maxPages: Int, start: URL, final: URL) {
        self.maxPages = maxPages
        seen = [start, final]
        read = [start, final]
        recorded = [final]
    }

    /// Adds the `found` pages not seen, to be loaded after those waiting; answers how many of them are within
    /// `maxPages` (those still to be loaded, as far as the crawl knows now).
    public mutating func add(_ found: [CrawlTarget]) -> Int {
        let room = max(0, maxPages - loads - (waiting.count - head))
        var added = 0
        for target in found where seen.insert(target.url).inserted {
            waiting.append(target)
            added += 1
        }
        return min(added, room)
    }

    /// Whether more pages found would be loaded: fewer than `maxPages` are loaded, loading or waiting.
    public var hasRoom: Bool {
        maxPages - loads - (waiting.count - head) > 0
    }

    /// The next page to load, counted as loading: nil when none waits, or `maxPages` pages are loaded or loading.
    public mutating func next() -> CrawlTarget? {
        while head < waiting.count, loads < maxPages {
            let target = waiting[head]
            head += 1
            if read.contains(target.url) { continue }
            loads += 1
            return target
        }
        if head == waiting.count {
            waiting.removeAll()
            head = 0
        }
        return nil
    }

    /// What the load of `target`, which ended at `final` (in the one form, nil when it failed), is; `inScope` says
    /// whether `final` is in the crawl's scope.
    public mutating func arrived(_ target: CrawlTarget, at final: URL?, inScope: Bool) -> Arrival {
        read.insert(target.url)
        let url = final ?? target.url
        if url != target.url {
            guard inScope else { return .outOfScope(url) }
            seen.insert(url)
            read.insert(url)
        }
        guard recorded.insert(url).inserted else { return .duplicate(of: url) }
        return .page(url: url)
    }

    /// The pages found and not loaded because `maxPages` were: those still waiting once no more may load.
    public var leftAtMaxPages: Int {
        guard loads >= maxPages else { return 0 }
        return waiting[head...].filter { !read.contains($0.url) }.count
    }
}
