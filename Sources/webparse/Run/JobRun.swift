import FoundationEssentials
import WebParserCore
import WebParser

/// One run of `run`'s jobs, once everything they need is ready: runs them, hands each outcome to the state and the
/// output, then delivers (output, notifications) before it records (the session's cookies, the state file), so
/// that the state advances only for what reached its reader.
struct JobRun {
    let settings: RunCommand.Settings
    let setup: SessionSetup
    let memory: RunMemory?
    let notifier: Notifier?
    /// Where `--har` keeps the jobs' requests, and `--feed`'s files.
    let har: HARRecorder?
    let feeds: FeedFiles?
    let output: RunOutput
    let reporter: ProgressReporter

    /// Runs `jobs`, `concurrency` pages at once, and says how the run ended.
    func run(_ jobs: [Config.NamedJob], concurrency: Int) async -> ExitCode {
        reporter.tellAboutLocale()
        reporter.know(jobs.count)
        defer { reporter.end() }
        var jobs = jobs
        let parser = WebParserRunner(session: setup.session)
        let slots = PageSlots(concurrency)
        var scheduler = JobScheduler(parser: parser, concurrency: concurrency, reporter: reporter, slots: slots)
        // With --har, each job records its requests; the handlers keep them, by job name.
        var keepers: [String: @Sendable (WebParserMessage) -> Void] = [:]
        if let har {
            for index in jobs.indices { keepers[jobs[index].name] = har.record(&jobs[index].job, as: jobs[index].name, secrets: jobs[index].secrets) }
        }
        let streams = output.streamsEmittedValues
        let output = output
        let kept = keepers
        scheduler.onMessage = { named in
            let keep = kept[named.name]
            let streamsEmitted = streams && named.job.evaluation.collect == .emitted
            guard keep != nil || streamsEmitted else { return nil }
            return { message in
                keep?(message)
                if streamsEmitted, case .emitted(let json) = message { output.stream(json, of: named.name) }
            }
        }
        var reportedFailure = false
        var anySuccess = false
        /// The jobs whose page was bot protection's, told apart at the end.
        var blocked = 0
        /// Where the successful jobs' pages ended, whose origins' local storage --save-storage keeps.
        var visited: [URL] = []
        /// The new items of each job (for a result that is not a list, how it changed), for --notify, by the job's
        /// place in the config.
        var news: [(index: Int, name: String, items: [Data], diff: String?)] = []
        do throws(JobScheduler.Stop) {
            try await scheduler.run(jobs) { index, outcome in
                let named = jobs[index]
                var outcome = outcome
                var fresh: RunMemory.Fresh?
                // The detail pages of the items the run reports (all of them without --state), each item shown with its
                // page's result; the state records the list as the page gave it.
                var shown: [Data: Data] = [:]
                var page = outcome.result
                if let crawl = named.crawl, case .success(var success) = outcome.result {
                    let streams = output.streamsPages
                    let crawled = await CrawlRunner(
                        parser: parser, slots: slots, reporter: reporter, name: named.name, har: har,
                        onPage: { url, result in if streams { output.page(url, result, of: named.name) } }
                    ).crawl(crawl, job: named.job, start: success)
                    // The state tracks the pages as records with their URL; the output is keyed by URL.
                    success.data = CrawlRecord.list(crawled.pages)
                    page = .success(success)
                    success.data = CrawlRecord.object(crawled.pages)
                    outcome.result = .success(success)
                    outcome.pagesCrawled = crawled.pages.count
                    if crawled.failed > 0 {
                        StandardStreams.tellError("webparse: \(named.name): \(crawled.failed) of \(crawled.pages.count) pages of the crawl failed")
                        reportedFailure = true
                    }
                    if crawled.leftAtMaxPages > 0 {
                        StandardStreams.tell(
                            "webparse: \(named.name): warning: the crawl stopped at maxPages (\(crawl.maxPages)); \(crawled.leftAtMaxPages) links it found were not loaded"
                        )
                    }
                }
                if let follow = named.follow, case .success(var success) = outcome.result {
                    let chosen = await memory?.reportedItems(
                        in: success, of: named, emitInitial: settings.tracking.emitInitial, changed: (settings.tracking.report ?? .added) != .added)
                    let followed = await FollowRunner(parser: parser, slots: slots, reporter: reporter, name: named.name, har: har)
                        .follow(follow, in: success.data, base: URL(string: success.finalURL) ?? named.job.url, chosen: chosen)
                    success.data = followed.list
                    shown = followed.items
                    outcome.result = .success(success)
                    outcome.detailsFailed = followed.failed
                    if followed.failed > 0 {
                        StandardStreams.tellError(
                            "webparse: \(named.name): \(followed.failed) of \(followed.items.count) followed items got an error instead of their page (in their \"\(follow.into)\")"
                        )
                        reportedFailure = true
                    }
                }
                if case .success(let success) = page, let memory {
                    do throws(WebParserError) {
                        let details = shown
                        fresh = try await memory.remember(
                            success, of: named, emitInitial: settings.tracking.emitInitial,
                            feedSize: feeds?.size, shown: { details[$0] ?? $0 })
                    } catch {
                        outcome.result = .failure(.failed(error))
                    }
                }
                if let fresh, !fresh.items.isEmpty { news.append((index, named.name, fresh.items, fresh.isList ? nil : fresh.diff)) }
                if settings.tracking.report == .changed, let fresh, fresh.isList, !fresh.keyed, !fresh.items.isEmpty {
                    StandardStreams.tellError(
                        "webparse: \(named.name): warning: --report changed: the job has no \"key\", so an item whose "
                            + "content changed counts as new; its \(fresh.items.count) new item\(fresh.items.count == 1 ? " is" : "s are") reported as "
                            + "added (set \"key\" to the field that identifies an item, such as \"key\": \"url\")")
                }
                switch outcome.result {
                case .success(let result):
                    anySuccess = true
                    if let url = URL(string: result.finalURL) { visited.append(url) }
                    let streamed =
                        output.streamsEmittedValues && named.job.evaluation.collect == .emitted || output.streamsPages && named.crawl != nil
                    output.add(outcome, at: index, fresh: fresh, streamed: streamed)
                case .failure(let error):
                    if case .failed(let failure) = error, failure.kind.isBlocked { blocked += 1 }
                    let runsInARow = memory?.recordFailure(of: named.name, keepCount: settings.tracking.failAfter != nil) ?? 1
                    if runsInARow >= (settings.tracking.failAfter ?? 1) {
                        reporter.jobFailed(named.name, error, runsInARow: settings.tracking.failAfter == nil ? 1 : runsInARow)
                        reportedFailure = true
                    }
                    output.add(outcome, at: index, fresh: nil)
                }
            }
        } catch {
            switch error {
            case .environment(let failure):
                StandardStreams.tellError("webparse: \(failure)")
                return .environment
            case .interrupted:
                return .interrupted
            }
        }
        if blocked > 0 {
            StandardStreams.tellError(
                "webparse run: \(blocked) of \(jobs.count) job\(jobs.count == 1 ? " was" : "s were") blocked by bot protection "
                    + "(see \"Blocked pages\" in webparse's docs/failures.md: a session, cookies from a browser, a slower schedule)")
        }
        var harFailed = false
        do throws(CommandFailure) {
            try har?.write()
        } catch {
            StandardStreams.tellError("webparse run: \(error.message)")
            harFailed = true
        }
        // Deliver first, then record: the state advances only for what reached stdout or the output file, so
        // that a full disk or a failed output loses no new item (they are reported again by the next run), and
        // a session folder that cannot be written costs no result.
        var undelivered: String?
        do throws(CommandFailure) { try output.finish() } catch { undelivered = error.message }
        undelivered = undelivered ?? StandardStreams.resultFailure
        if undelivered == nil, !settings.tracking.dryRun, let notifier {
            // Notifications are deliveries too: one that fails leaves the state for the next run to report again.
            for job in news.sorted(by: { $0.index < $1.index }) where undelivered == nil {
                do throws(CommandFailure) { try await notifier.send(job.items, diff: job.diff, of: job.name) } catch { undelivered = error.message }
            }
        }
        // The feed is a delivery too: one that cannot be written leaves the state for the next run to report again.
        if undelivered == nil, !settings.tracking.dryRun, let memory, let feeds {
            do throws(CommandFailure) { try feeds.write(jobs: jobs, memory: memory) } catch { undelivered = error.message }
        }
        var recorded = true
        do throws(CommandFailure) {
            try await setup.save(anySuccess: anySuccess, visited: visited)
        } catch {
            StandardStreams.tellError("webparse run: \(error.message)")
            recorded = false
        }
        if let undelivered {
            StandardStreams.tellError("webparse run: \(undelivered)\(memory == nil ? "" : "; the state was not updated")")
            return .jobFailed
        }
        if settings.tracking.dryRun {
            StandardStreams.tell("webparse run: a dry run: nothing was written into the state")
            return reportedFailure || !recorded ? .jobFailed : .success
        }
        do throws(CommandFailure) {
            try memory?.save()
        } catch {
            StandardStreams.tellError("webparse run: \(error.message); the results were delivered and will be reported again next run")
            recorded = false
        }
        return reportedFailure || !recorded || harFailed ? .jobFailed : .success
    }
}
