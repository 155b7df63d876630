import FoundationEssentials
import WebParser
import WebParserCore

extension QueueWorker {
    /// Reads `item`, runs its job (a crawl's links and a list's detail pages become items) and settles it: its record to
    /// `NAME:results` or `NAME:failed`. Nil when the loop goes on; how it ends otherwise (its item went back).
    func handle(_ item: WorkQueue.Item, on queue: WorkQueue, _ shared: Shared) async -> LoopEnd? {
        let read: QueueItem
        do throws(ConfigError) {
            read = try QueueItem(
                item.text, named: "item", defaults: config.defaults, script: settings.script, extract: settings.extract, itemFiles: config.itemFiles)
        } catch {
            StandardStreams.tellError("webparse work: \(error.description)")
            metrics.record(job: "-", url: URL(fileURLWithPath: "/"), .failed(code: Self.invalidItemCode), elapsed: .zero)
            let record = JSONText.object([
                ("item", .string(String(decoding: item.text.prefix(1000), as: UTF8.self))), ("status", .string("failed")),
                ("error", .string(error.description)), ("code", .string(Self.invalidItemCode))
            ])
            return await fail(item, on: queue, shared, record: record)
        }
        var named = read.named
        if settings.logConsole { named.job.page.capturesConsole = true }
        reporter.know(1)
        var outcome: JobOutcome
        let ran: Result<JobOutcome, JobScheduler.Stop>
        do {
            // A crawl's pages keep its perHost and delay across every worker; a paused host holds every item's page.
            var delay = Duration.zero
            if let crawl = named.crawl { delay = await CrawlDiscovery.delay(of: crawl, for: named.job.url, robots: shared.robots) }
            let pipeline = PageWatch(reporter: reporter, har: nil, metrics: (metrics, named.name)).pipeline(shared.pages, for: named, besides: nil)
            ran = try await hostGates(queue, for: named.name).run(named.job.url, perHost: named.crawl?.perHost, delay: delay) { pass in
                var held = pipeline
                held.pass = pass
                return await JobScheduler.runStart(named, on: held)
            }
        } catch {
            ran = .failure(Task.isCancelled ? .interrupted : .hostBook(error))
        }
        switch ran {
        case .success(let finished): outcome = finished
        case .failure(let stop):
            _ = try? await queue.release(item)
            switch stop {
            case .environment(let error): return .environment(error)
            case .interrupted: return .stopped
            case .hostBook(let failure as RedisConnection.Failure): return .queue(failure)
            case .hostBook: return .stopped
            }
        }
        // A detail page's record carries the list's item it belongs to, success or failure.
        var extra: [(key: String, value: JSONText.Value)] = read.listItem.map { [(QueueItem.detailKeys.item, .raw($0))] } ?? []
        guard case .success(let result) = outcome.result else {
            if case .failure(let failure) = outcome.result { reporter.jobFailed(named.name, failure) }
            return await fail(item, on: queue, shared, record: outcome.jsonLine(adding: extra))
        }
        reporter.warnIfCutShort(named.name, result)
        // A crawl's links and a list's detail pages become items of the queue.
        do throws(RedisConnection.Failure) {
            if let crawl = named.crawl {
                let asked = CrawlURL.normalized(named.job.url) ?? named.job.url
                let arrival = try await discover(crawl, from: result, askedAt: asked, of: read, item: item, on: queue, shared)
                if let note = arrival.note(asked: asked) {
                    // A page that ended at one read already, or out of the crawl, is dropped, as run drops it.
                    if reporter.isVerbose { StandardStreams.tell("webparse work: \(named.name): \(note)") }
                    await shared.tally.count(succeeded: true, at: nil)
                    try await queue.drop(item)
                    return nil
                }
            }
            if let follow = named.follow {
                extra.append(("detailsQueued", .integer(try await queueDetails(follow, from: result, of: read, item: item, on: queue))))
            }
        } catch {
            return .queue(error)
        }
        do throws(RedisConnection.Failure) {
            let url = URL(string: result.finalURL)
            guard settings.tracksState else { return try await settle(item, on: queue, shared, record: outcome.jsonLine(adding: extra), at: url) }
            return try await settleTracked(item, outcome, adding: extra, of: read, on: queue, shared, at: url)
        } catch .server(let message) {
            // Redis refused the record (larger than its proto-max-bulk-len, or its memory is full): the item fails.
            let refusal = WebParserError(
                .storageFailed("Redis refused the job's record of \(outcome.jsonLine().count) bytes: \(message)"), url: result.finalURL,
                attempts: result.attempts)
            var refused = outcome
            refused.result = .failure(.failed(refusal))
            reporter.jobFailed(named.name, refusal)
            return await fail(item, on: queue, shared, record: refused.jsonLine(adding: extra))
        } catch {
            return .queue(error)
        }
    }

    /// The limits of each host, kept in `queue`'s Redis for every worker; what they do is said of job `name`.
    private func hostGates(_ queue: WorkQueue, for name: String) -> HostGates {
        HostGates(book: QueueHostBook(queue: queue)) { [reporter, vitals] news in
            vitals.paused(news.host, for: news.pause.duration)
            if let warning = news.pause.warning { StandardStreams.tell("webparse work: \(name): \(warning)") }
            if reporter.isVerbose { StandardStreams.tell("webparse work: \(name): \(news.description)") }
        }
    }

    /// Pushes `record` to `NAME:results` and lets `item` go; prints it with `--jsonl`.
    /// - Throws: `RedisConnection.Failure`: `.server` when Redis refused the record.
    private func settle(_ item: WorkQueue.Item, on queue: WorkQueue, _ shared: Shared, record: Data, at url: URL?) async throws(RedisConnection.Failure)
        -> LoopEnd?
    {
        await settled(try await queue.complete(item, record: record), record, shared, succeeded: true, at: url)
        return nil
    }

    /// The `code` of an item's record when the item is no job.
    static let invalidItemCode = "invalid-item"

    /// Pushes `record` to `NAME:failed` and lets `item` go; prints it with `--jsonl`.
    private func fail(_ item: WorkQueue.Item, on queue: WorkQueue, _ shared: Shared, record: Data) async -> LoopEnd? {
        do throws(RedisConnection.Failure) {
            await settled(try await queue.fail(item, record: record), record, shared, succeeded: false, at: nil)
            return nil
        } catch {
            return .queue(error)
        }
    }

    /// Counts a settled item and prints its record; an item whose lease had ended (another worker took it) is told.
    private func settled(_ settled: Bool, _ record: Data, _ shared: Shared, succeeded: Bool, at url: URL?) async {
        guard settled else {
            StandardStreams.tell("webparse work: an item's lease ended before its job did; another worker does it again, and this record was dropped")
            return
        }
        await shared.tally.count(succeeded: succeeded, at: url)
        if settings.jsonLines { StandardStreams.writeResult(record) }
    }

    /// Settles a successful `outcome` of `read` with the job's state in `NAME:state`: reads it, adds to the record
    /// (after `extra`) what is `new` since, and records the state in the step that pushes the record; read again when
    /// another worker recorded the job meanwhile.
    /// - Throws: `RedisConnection.Failure` when Redis cannot be used.
    private func settleTracked(
        _ item: WorkQueue.Item, _ outcome: JobOutcome, adding extra: [(key: String, value: JSONText.Value)], of read: QueueItem,
        on queue: WorkQueue, _ shared: Shared, at url: URL?
    ) async throws(RedisConnection.Failure) -> LoopEnd? {
        guard case .success(let result) = outcome.result else { return nil }
        let named = read.named
        // A crawl's pages and a list's details are tracked each on its own: they share their crawl's or list's name.
        let isPage = named.crawl != nil || read.listItem != nil
        let key = isPage ? named.name + " " + read.page : named.name
        let emitInitial = settings.emitInitial
        var store = QueueChangeState(queue: queue, item: item) { changes in
            let fresh = JobMemory.isQuiet(changes, emitInitial: emitInitial) ? [] : changes.fresh
            return outcome.jsonLine(adding: extra + [("new", .array(fresh.map(JSONText.Value.raw)))])
        }
        let changes: Changes
        do throws(ChangeTrackingFailure<RedisConnection.Failure>) {
            changes = try await store.track(result.data, of: key, tracking: named.tracking, at: Date())
        } catch {
            switch error {
            case .store(let failure): throw failure
            case .untrackable(let kind):
                var failed = outcome
                failed.result = .failure(.failed(WebParserError(kind, url: result.finalURL, attempts: result.attempts)))
                return await fail(item, on: queue, shared, record: failed.jsonLine(adding: extra))
            }
        }
        for note in changes.conditionNotes { StandardStreams.tell("webparse work: \(named.name): \(note)") }
        if let (record, held) = store.settled { await settled(held, record, shared, succeeded: true, at: url) }
        return nil
    }

    /// Lands the crawl's page `result` (asked for at `asked`, in the one form) in the crawl's frontier in the queue
    /// (`QueueFrontier`): the pages it links to that the crawl follows (`CrawlDiscovery`) and no worker has seen are
    /// queued, as items one link deeper than `read`'s. Says how the page arrived (`CrawlFrontier.Arrival`): a page
    /// whose load ended out of the crawl, or at a page another item read, leads nowhere and is not read.
    /// - Throws: `RedisConnection.Failure` when Redis cannot be used.
    private func discover(
        _ crawl: Crawl, from result: WebParserResult, askedAt asked: URL, of read: QueueItem, item: WorkQueue.Item, on queue: WorkQueue,
        _ shared: Shared
    ) async throws(RedisConnection.Failure) -> CrawlFrontier.Arrival {
        let name = read.named.name
        let (ended, inScope, pages, warnings) = await CrawlDiscovery.pages(
            of: result, askedAt: read.named.job.url, depth: read.depth, by: crawl, robots: shared.robots)
        for warning in warnings { StandardStreams.tell("webparse work: \(name): \(warning)") }
        let text = item.text
        var frontier = QueueFrontier(queue: queue, job: name, maxPages: crawl.maxPages, page: read.page) { target in
            Self.crawlItem(target, from: text, name: name)
        }
        let landing = try await frontier.land(CrawlTarget(url: asked, depth: read.depth), at: ended, inScope: inScope) { pages }
        guard case .page = landing.arrival else { return landing.arrival }
        var left = landing.leftAtMaxPages
        if read.depth == 0, let sitemap = crawl.sitemap, left == 0 {
            left = try await queueSitemapPages(sitemap, of: crawl, start: ended, from: read, item: item, on: queue, shared)
        }
        if left > 0 {
            StandardStreams.tell("webparse work: \(name): \(CrawlDiscovery.maxPagesWarning(crawl, left: left))")
        }
        return landing.arrival
    }

    /// Queues the pages the crawl's sitemaps list (`SitemapPages`) that the crawl follows and no worker has seen, as
    /// pages its start page (`read`, which ended at `start`) leads to, a thousand at a time, until the crawl has
    /// `maxPages`; answers how many of the last batch were left at `maxPages`.
    /// - Throws: `RedisConnection.Failure` when Redis cannot be used.
    private func queueSitemapPages(
        _ sitemap: CrawlSitemap, of crawl: Crawl, start: URL, from read: QueueItem, item: WorkQueue.Item, on queue: WorkQueue,
        _ shared: Shared
    ) async throws(RedisConnection.Failure) -> Int {
        let name = read.named.name
        let discovery = CrawlDiscovery(crawl, start: start, robots: shared.robots)
        var left = 0
        var failure: RedisConnection.Failure?
        let tell = { (warning: String) in StandardStreams.tell("webparse work: \(name): \(warning)") }
        await SitemapPages(pages: shared.pages, robots: shared.robots).read(
            sitemap, start: start,
            onPages: { entries in
                for batch in stride(from: 0, to: entries.count, by: 1000).map({ entries[$0..<min($0 + 1000, entries.count)] }) {
                    let (pages, warnings) = await discovery.pages(linkedFrom: batch.map(\.loc), on: start, depth: 0)
                    warnings.forEach(tell)
                    let found = pages.map { Self.crawlItem($0, from: item.text, name: name) }
                    do throws(RedisConnection.Failure) {
                        left = try await queue.discover(found, from: read.page, of: name, maxPages: crawl.maxPages).leftAtMaxPages
                    } catch {
                        failure = error
                        return false
                    }
                    if left > 0 { return false }
                }
                return true
            }, onWarning: tell)
        if let failure { throw failure }
        return left
    }

    /// The crawl's page `target`, found from the page of the item `text`, as an item of the queue, of the crawl
    /// named `name`.
    private static func crawlItem(_ target: CrawlTarget, from text: Data, name: String) -> WorkQueue.FoundPage {
        WorkQueue.FoundPage(
            url: target.url.absoluteString, item: QueueItem.crawled(from: text, url: target.url.absoluteString, name: name, depth: target.depth))
    }

    /// Queues the detail page of each item of the lists `result` holds (`FollowTargets`) that no worker has seen
    /// (`NAME:seen`): an item of `read`'s follow's job, with the list's item. Answers how many were queued.
    /// - Throws: `RedisConnection.Failure` when Redis cannot be used.
    private func queueDetails(
        _ follow: Follow, from result: WebParserResult, of read: QueueItem, item: WorkQueue.Item, on queue: WorkQueue
    ) async throws(RedisConnection.Failure) -> Int {
        let page = URL(string: result.finalURL) ?? read.named.job.url
        let found = FollowTargets.pages(of: result.data, field: follow.field, base: page).map { url, listItem in
            WorkQueue.FoundPage(
                url: url.absoluteString, item: QueueItem.detail(of: item.text, url: url.absoluteString, name: read.named.name, item: listItem))
        }
        return try await queue.discover(found, from: read.page, of: read.named.name, maxPages: Int.max).queued
    }
}
