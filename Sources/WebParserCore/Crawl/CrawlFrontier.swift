import FoundationEssentials
import WebParser

/// Where a crawl keeps the pages it has seen and still has to read, and decides what each load was: in memory for
/// `run` (`CrawlFrontier`), in a work queue's Redis for its workers, who share one (`QueueFrontier`). Both decide
/// alike: a load that ended out of the crawl's scope is not the crawl's; one that ended where another load of the
/// crawl ended is that page, read once; a page of the crawl adds the pages it links to that were not seen, while the
/// crawl has fewer than its most pages.
public protocol CrawlFrontierStore {
    /// What keeping the frontier can throw: nothing in memory, a Redis that cannot be used.
    associatedtype Failure: Error

    /// Decides what the load of `target`, which ended at `final` (in the one form; nil when it failed), was;
    /// `inScope` says whether `final` is in the crawl's scope. For a page of the crawl, adds the pages `found` gives
    /// (asked for only then) that were not seen.
    /// - Throws: `Failure` when what keeps the frontier cannot be used.
    mutating func land(_ target: CrawlTarget, at final: URL?, inScope: Bool, found: () async -> [CrawlTarget]) async throws(Failure)
        -> CrawlFrontier.Landing
}

/// The pages of one crawl kept in memory, as a plain value: every URL seen (found, loading or read), the pages
/// waiting to be loaded in the order they were found (breadth first), and how many were loaded, against `maxPages`.
/// A page that redirected to one read already is the same page, read once; one that redirected out of the crawl's
/// scope is not the crawl's.
public struct CrawlFrontier: CrawlFrontierStore, Sendable {
    /// A frontier in memory cannot fail.
    public typealias Failure = Never

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

        /// The arrival of a load asked for at `target` that ended at `final`, outside the crawl's scope (`inScope`
        /// false) and elsewhere: out of the crawl; nil for a load that stayed in the crawl.
        public static func leaving(_ target: URL, for final: URL, inScope: Bool) -> Arrival? {
            inScope || final == target ? nil : .outOfScope(final)
        }

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

    /// What a load was, and what it added to the crawl.
    public struct Landing: Equatable, Sendable {
        /// What the load was.
        public var arrival: Arrival
        /// How many of the pages it links to were added and will be loaded (within the crawl's most pages).
        public var added: Int
        /// How many of them were not added because the crawl has its most pages, when the frontier knows it now (a
        /// queue's); 0 otherwise (`leftAtMaxPages`, at the end of the crawl).
        public var leftAtMaxPages = 0

        /// A load that was `arrival` and added `added` pages, leaving `leftAtMaxPages`.
        public init(arrival: Arrival, added: Int, leftAtMaxPages: Int = 0) {
            self.arrival = arrival
            self.added = added
            self.leftAtMaxPages = leftAtMaxPages
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
            if let leaving = Arrival.leaving(target.url, for: url, inScope: inScope) { return leaving }
            seen.insert(url)
            read.insert(url)
        }
        guard recorded.insert(url).inserted else { return .duplicate(of: url) }
        return .page(url: url)
    }

    /// Decides what the load of `target`, which ended at `final` (nil when it failed), was (`arrived`) and, for a page of
    /// the crawl, adds the pages `found` gives (`add`).
    public mutating func land(_ target: CrawlTarget, at final: URL?, inScope: Bool, found: () async -> [CrawlTarget]) async -> Landing {
        let arrival = arrived(target, at: final, inScope: inScope)
        guard case .page = arrival else { return Landing(arrival: arrival, added: 0) }
        return Landing(arrival: arrival, added: add(await found()))
    }

    /// The pages found and not loaded because `maxPages` were: those still waiting once no more may load.
    public var leftAtMaxPages: Int {
        guard loads >= maxPages else { return 0 }
        return waiting[head...].filter { !read.contains($0.url) }.count
    }
}
