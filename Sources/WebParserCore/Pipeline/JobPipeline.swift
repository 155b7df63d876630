import FoundationEssentials
import WebParser

/// What a job's crawl or follow found, beside the result the output shows.
public struct JobFindings: Sendable {
    /// The result as the change state records it: a crawl's pages as `{"url", "result"}` records (a page that failed
    /// as the record the state kept of its last good read), a followed list as the page gave it.
    public var recorded: WebParserResult
    /// Each followed item as the page gave it, with the item as the output shows it (with its detail page).
    public var shown: [Data: Data] = [:]
    /// What the job's crawl read, if it crawls.
    public var crawled: Crawled?
    /// What following the job's list gave, if it follows one.
    public var followed: Followed?

    /// How many of the pages the job found failed (a crawl's pages, followed items).
    public var pagesFailed: Int {
        (crawled?.failed ?? 0) + (followed?.failed ?? 0)
    }

    /// What a command says of the pages `named` found: how many failed, an error (nil when none did), and a crawl
    /// cut short by its `maxPages`, a warning.
    public func remarks(of named: Config.NamedJob) -> (failed: String?, warning: String?) {
        var failed: String?
        var warning: String?
        if let crawl = named.crawl, let crawled {
            if crawled.failed > 0 { failed = "\(crawled.failed) of \(crawled.pages.count) pages of the crawl failed" }
            if crawled.leftAtMaxPages > 0 { warning = CrawlDiscovery.maxPagesWarning(crawl, left: crawled.leftAtMaxPages) }
        }
        if let follow = named.follow, let followed, followed.failed > 0 {
            failed = "\(followed.failed) of \(followed.items.count) followed items got an error instead of their page (in their \"\(follow.into)\")"
        }
        return (failed, warning)
    }
}

/// One job from its start page to its last page, as one unit: the start page (and its `next` pages, which the page
/// runner reads as one job), then its crawl (`Crawler`) or the detail pages of its list (`Follower`), over a
/// `PageRunner`, so that it runs the same on WebKit's pages and on fake ones.
///
/// ```swift
/// let pages = WebParserPages(parser: WebParserRunner(), concurrency: 4)
/// let pipeline = JobPipeline(pages: pages, crawler: Crawler(pages: pages))
/// let (result, findings) = try await pipeline.run(named, memory: nil)
/// ```
public struct JobPipeline: Sendable {
    /// What loads the detail pages a follow finds.
    public var pages: any PageRunner
    /// What loads the start page (with its `next` pages): `pages` unless it is heard otherwise.
    public var startPages: any PageRunner
    /// What crawls from the start page.
    public var crawler: Crawler
    /// Each start page attempt waits for its host's turn as this says (a work queue's host limits).
    public var pass: HostPass = .open
    /// Hears what a crawl tells as it goes.
    public var onCrawlEvent: @Sendable (CrawlEvent) -> Void = { _ in }
    /// Hears how many detail pages are to come, as they are known.
    public var onFound: @Sendable (Int) -> Void = { _ in }

    /// A pipeline whose pages `pages` load and whose crawls `crawler` reads.
    public init(pages: any PageRunner, crawler: Crawler) {
        self.pages = pages
        self.startPages = pages
        self.crawler = crawler
    }

    /// Runs `named` through: its start page, then its crawl or its follow, the state's `memory` of it choosing what
    /// a follow loads and what stands for a crawl's failed pages.
    /// - Throws: what `start` throws.
    public func run(_ named: Config.NamedJob, memory: JobMemory?) async throws -> (result: WebParserResult, findings: JobFindings) {
        let start = try await self.start(named)
        return await finish(named, start: start, memory: memory)
    }

    /// Reads `named`'s start page (with its `next` pages), labelled with the job's name.
    /// - Throws: `WebParserError` when the page failed after its retries; `CancellationError` when the task is
    ///   cancelled; what `pass` throws.
    public func start(_ named: Config.NamedJob) async throws -> WebParserResult {
        try await startPages.run(named.job, label: named.name, pass: pass)
    }

    /// Goes on from `start`, the result of `named`'s start page: crawls from it, or follows the items of its lists
    /// (the result, or each list its object holds; of a list, the items `memory` says the run reports, all of them
    /// without a memory), and gives the result the output shows with what was found. A page that fails is in the
    /// result as its failure, and counted (`JobFindings.pagesFailed`).
    public func finish(_ named: Config.NamedJob, start: WebParserResult, memory: JobMemory?) async -> (result: WebParserResult, findings: JobFindings) {
        var result = start
        var findings = JobFindings(recorded: start)
        if let crawl = named.crawl {
            let crawled = await crawler.crawl(
                crawl, job: named.job, start: start, name: named.name, history: memory?.crawlHistory, onEvent: onCrawlEvent)
            findings.recorded.data = CrawlRecord.list(crawled.pages) { memory?.record(ofPage: $0) }
            result.data = CrawlRecord.object(crawled.pages)
            findings.crawled = crawled
        }
        if let follow = named.follow {
            let chosen = await memory?.reportedItems(in: result.data, tracking: named.tracking)
            let followed = await Follower(pages: pages).followLists(
                follow, in: result.data, base: URL(string: result.finalURL) ?? named.job.url, chosen: chosen, name: named.name, onFound: onFound)
            result.data = followed.list
            findings.shown = followed.items
            findings.followed = followed
        }
        return (result, findings)
    }
}
