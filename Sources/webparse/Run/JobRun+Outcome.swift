import FoundationEssentials
import WebParser
import WebParserCore

extension JobRun {
    /// What the run's jobs gave, for the stages after them.
    struct Tally {
        /// Whether a failure was reported (a job, a crawl's page, a followed item), which exits 1.
        var reportedFailure = false
        var anySuccess = false
        /// The jobs whose page was bot protection's, told apart at the end.
        var blocked = 0
        /// Where the successful jobs' pages ended, whose origins' local storage --save-storage keeps.
        var visited: [URL] = []
        /// What each job's report shows (for a result that is not a list, how it changed), for --notify, by the job's
        /// place in the config.
        var news: [(index: Int, name: String, news: Notifier.News)] = []
        /// The jobs whose health --notify tells: failing (after `runs` runs in a row) or, without `runs`, recovered.
        var health: [(index: Int, name: String, failing: StateFile.Failing, runs: Int?)] = []
    }

    /// Takes the outcome of `named`, the job at `index`: its crawl or its followed pages, its state, its output.
    func account(
        _ outcome: JobOutcome, of named: Config.NamedJob, at index: Int, pages: WebParserPages, into tally: inout Tally
    ) async {
        let watch = PageWatch(reporter: reporter, har: har, metrics: metrics.map { ($0, named.name) }, hosts: hosts)
        let report = settings.tracking.report ?? .added
        var outcome = outcome
        var fresh: RunMemory.Fresh?
        // The detail pages of the items the run reports (all of them without --state), each item shown with its
        // page's result; the state records the list as the page gave it.
        var shown: [Data: Data] = [:]
        var page = outcome.result
        var lastmods: [String: String]?
        if let crawl = named.crawl, case .success(var success) = outcome.result {
            let (streams, output) = (output.streamsPages, output)
            let events = watch.crawlEvents(of: named.name) { page in if streams { output.page(page, of: named.name) } }
            let crawled = await watch.crawler(pages).crawl(
                crawl, job: named.job, start: success, name: named.name, history: memory?.crawlHistory(of: named), onEvent: events)
            lastmods = crawled.lastmods
            // The state tracks the pages as records with their URL, a page that failed as it was last read; the output is
            // keyed by URL.
            let memory = memory
            success.data = CrawlRecord.list(crawled.pages) { memory?.record(of: named, page: $0) }
            page = .success(success)
            success.data = CrawlRecord.object(crawled.pages)
            outcome.result = .success(success)
            outcome.pagesCrawled = crawled.pages.count
            if crawled.failed > 0 {
                StandardStreams.tellError("webparse: \(named.name): \(crawled.failed) of \(crawled.pages.count) pages of the crawl failed")
                tally.reportedFailure = true
            }
            if crawled.leftAtMaxPages > 0 {
                StandardStreams.tell("webparse: \(named.name): \(CrawlDiscovery.maxPagesWarning(crawl, left: crawled.leftAtMaxPages))")
            }
        }
        if let follow = named.follow, case .success(var success) = outcome.result {
            let chosen = await memory?.reportedItems(
                in: success, of: named, emitInitial: settings.tracking.emitInitial, changed: (settings.tracking.report ?? .added) != .added)
            let followed = await Follower(pages: pages.watched(by: watch.listeners)).follow(
                follow, in: success.data, base: URL(string: success.finalURL) ?? named.job.url, chosen: chosen, name: named.name,
                onFound: reporter.know)
            success.data = followed.list
            shown = followed.items
            outcome.result = .success(success)
            outcome.detailsFailed = followed.failed
            if followed.failed > 0 {
                StandardStreams.tellError(
                    "webparse: \(named.name): \(followed.failed) of \(followed.items.count) followed items got an error instead of their page (in their \"\(follow.into)\")"
                )
                tally.reportedFailure = true
            }
        }
        if case .success(let success) = page, let memory {
            do throws(WebParserError) {
                let details = shown
                fresh = try await memory.remember(
                    success, of: named, emitInitial: settings.tracking.emitInitial,
                    feedSize: feeds?.size, feedsRemoved: [.removed, .all].contains(report), shown: { details[$0] ?? $0 })
                if let lastmods { memory.keep(lastmods: lastmods, of: named) }
            } catch {
                outcome.result = .failure(.failed(error))
            }
        }
        memory?.ran(named, at: startedAt)
        if let fresh {
            let shown = fresh.shown(report)
            let diff = fresh.isList || fresh.conditional || shown.added.isEmpty ? nil : fresh.diff
            let news = Notifier.News(added: diff == nil ? shown.added : [], changed: shown.changed.map(\.item), removed: shown.removed, diff: diff)
            if !news.isEmpty { tally.news.append((index, named.name, news)) }
            if let recovered = fresh.recovered, case .success = outcome.result { tally.health.append((index, named.name, recovered, nil)) }
        }
        if settings.tracking.report == .changed, let fresh, fresh.isList, !fresh.keyed, !fresh.items.isEmpty {
            StandardStreams.tellError(
                "webparse: \(named.name): warning: --report changed: the job has no \"key\", so an item whose "
                    + "content changed counts as new; its \(fresh.items.count) new item\(fresh.items.count == 1 ? " is" : "s are") reported as "
                    + "added (set \"key\" to the field that identifies an item, such as \"key\": \"url\")")
        }
        switch outcome.result {
        case .success(let result):
            tally.anySuccess = true
            if let url = URL(string: result.finalURL) { tally.visited.append(url) }
            let streamed =
                output.streamsEmittedValues && named.job.evaluation.collect == .emitted || output.streamsPages && named.crawl != nil
            output.add(outcome, at: index, fresh: fresh, streamed: streamed)
        case .failure(let error):
            if case .failed(let failure) = error, failure.kind.isBlocked { tally.blocked += 1 }
            let runsInARow = memory?.recordFailure(of: named.name, error, at: startedAt) ?? 1
            if runsInARow >= (settings.tracking.failAfter ?? 1) {
                reporter.jobFailed(named.name, error, runsInARow: settings.tracking.failAfter == nil ? 1 : runsInARow)
                tally.reportedFailure = true
                if let failing = memory?.failing(of: named.name), failing.notified != true {
                    tally.health.append((index, named.name, failing, runsInARow))
                }
            }
            output.add(outcome, at: index, fresh: nil)
        }
    }
}
