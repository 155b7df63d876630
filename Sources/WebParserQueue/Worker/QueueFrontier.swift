import FoundationEssentials
import WebParser
import WebParserCore

/// A crawl's frontier in a work queue's Redis, shared by every worker of the queue: the pages seen (`NAME:seen`), the
/// pages queued as items, where each load ended (`NAME:arrived:JOB`) and the crawl's count against its most pages
/// (`NAME:pages:JOB`), each load decided in one atomic step (`WorkQueue.discover`), as `CrawlFrontier` decides in
/// memory.
package struct QueueFrontier: CrawlFrontierStore {
    package typealias Failure = RedisConnection.Failure

    let queue: WorkQueue
    /// The crawl's job name.
    let job: String
    let maxPages: Int
    /// The page the worker read, as it was queued.
    let page: String
    /// The item that loads a page found.
    let item: @Sendable (CrawlTarget) -> WorkQueue.FoundPage

    /// The frontier of the crawl `job` of `maxPages` at most in `queue`, for the load of `page` (as it was queued),
    /// the pages it finds queued as `item` makes them.
    package init(queue: WorkQueue, job: String, maxPages: Int, page: String, item: @escaping @Sendable (CrawlTarget) -> WorkQueue.FoundPage) {
        self.queue = queue
        self.job = job
        self.maxPages = maxPages
        self.page = page
        self.item = item
    }

    /// Decides what the load of `target`, which ended at `final` (nil when it failed), was and, for a page of the crawl,
    /// queues the pages `found` gives that no worker has seen, in one atomic step.
    /// - Throws: `RedisConnection.Failure` when Redis cannot be used.
    package mutating func land(
        _ target: CrawlTarget, at final: URL?, inScope: Bool, found: () async -> [CrawlTarget]
    ) async throws(RedisConnection.Failure) -> CrawlFrontier.Landing {
        let ended = final ?? target.url
        if let leaving = CrawlFrontier.Arrival.leaving(target.url, for: ended, inScope: inScope) { return .init(arrival: leaving, added: 0) }
        let pages = await found().map(item)
        let discovery = try await queue.discover(pages, from: page, endedAt: ended.absoluteString, of: job, maxPages: maxPages)
        if discovery.isDuplicate { return .init(arrival: .duplicate(of: ended), added: 0) }
        return .init(arrival: .page(url: ended), added: discovery.queued, leftAtMaxPages: discovery.leftAtMaxPages)
    }
}
