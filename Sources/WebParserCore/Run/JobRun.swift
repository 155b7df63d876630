import FoundationEssentials
import WebParser

/// One run of `run`'s jobs, once everything they need is ready: runs them, hands each outcome to the state and the
/// output (`account`), then delivers (output, notifications, feeds) before it records (the session's cookies, the
/// state file), so that the state advances only for what reached its reader. Each stage after the jobs says how it
/// ended; how the run ends is made of those and of the jobs' failures.
package struct JobRun {
    package let tracking: TrackingOptions
    /// What loads the jobs' pages, as many at once as the run's `-j`: WebKit's pages in the run's session.
    package let pages: any PageRunner
    /// Saves the session's cookies and storage as the options ask, once the run delivered what it found: whether a
    /// job succeeded and where the successful jobs' pages ended; false when it failed (and said why on stderr).
    package let saveSession: (_ anySuccess: Bool, _ visited: [URL]) async -> Bool
    package let memory: RunMemory?
    package let notifier: Notifier?
    /// Where `--har` keeps the jobs' requests, and `--feed`'s files.
    package let har: HARRecorder?
    package let feeds: FeedFiles?
    package let output: RunOutput
    package let reporter: ProgressReporter
    /// What counts the run's pages, for `--metrics-file`.
    package let metrics: PageMetrics?
    /// When the run started: when its jobs ran, for the state (and which of them were due).
    package let startedAt: Date
    /// Each host's limits, kept for every crawl of the run: two jobs crawling one site keep its `perHost` and `delay`
    /// together, as one crawler would.
    package let hosts = LocalHostBook()

    /// How a run ended.
    package enum End: Sendable, Equatable {
        /// Every job succeeded, and what they found was delivered and recorded.
        case success
        /// A job failed, or what the run found could not all be delivered or recorded (said on stderr).
        case failed
        /// WebKit cannot run here (said on stderr).
        case environment
        /// The run was interrupted: nothing was delivered or recorded.
        case interrupted
    }

    /// How a stage after the jobs ended.
    private enum Stage {
        case done
        /// It failed, and said why on stderr.
        case failed
        /// What the run found could not be delivered, for this reason: the state must not advance.
        case undelivered(String)
    }

    /// A run of jobs on `pages` whose outcomes go to `output` and, as the options ask, to the state (`memory`,
    /// with `tracking`), `notifier`, `har`, `feeds` and `metrics`; `saveSession` saves the session at the end;
    /// `startedAt` is when the run started.
    package init(
        tracking: TrackingOptions, pages: any PageRunner, saveSession: @escaping (Bool, [URL]) async -> Bool, memory: RunMemory?,
        notifier: Notifier?, har: HARRecorder?, feeds: FeedFiles?, output: RunOutput, reporter: ProgressReporter, metrics: PageMetrics?,
        startedAt: Date
    ) {
        self.tracking = tracking
        self.pages = pages
        self.saveSession = saveSession
        self.memory = memory
        self.notifier = notifier
        self.har = har
        self.feeds = feeds
        self.output = output
        self.reporter = reporter
        self.metrics = metrics
        self.startedAt = startedAt
    }

    /// Runs `jobs`, `concurrency` pages at once, and the stages after them, and says how the run ended.
    package func run(_ jobs: [Config.NamedJob], concurrency: Int) async -> End {
        reporter.tellAboutLocale()
        reporter.know(jobs.count)
        defer { reporter.end() }
        let tally: Tally
        do throws(JobScheduler.Stop) {
            tally = try await runJobs(jobs, concurrency: concurrency)
        } catch {
            switch error {
            case .environment(let failure):
                StandardStreams.tellError("webparse: \(failure)")
                return .environment
            case .interrupted, .hostBook:
                // A run's hosts' limits are its own, in memory: only a queue's can fail.
                return .interrupted
            }
        }
        if tally.blocked > 0 {
            StandardStreams.tellError(
                "webparse run: \(tally.blocked) of \(jobs.count) job\(jobs.count == 1 ? " was" : "s were") blocked by bot protection "
                    + "(see \"Blocked pages\" in webparse's docs/failures.md: a session, cookies from a browser, a slower schedule)")
        }
        // Deliver first, then record: the state advances only for what reached stdout or the output file, so that a
        // full disk or a failed output loses no new item (they are reported again by the next run), and a session
        // folder that cannot be written costs no result.
        let stages = [writeHAR(), await deliver(tally, of: jobs), await saveSession(tally.anySuccess, tally.visited) ? .done : .failed]
        for case .undelivered(let reason) in stages {
            StandardStreams.tellError("webparse run: \(reason)\(memory == nil ? "" : "; the state was not updated")")
            return .failed
        }
        let recorded: Stage
        if tracking.dryRun {
            StandardStreams.tell("webparse run: a dry run: nothing was written into the state")
            recorded = .done
        } else {
            recorded = saveState()
        }
        let failed = (stages + [recorded]).contains { if case .done = $0 { false } else { true } }
        return tally.reportedFailure || failed ? .failed : .success
    }

    /// Runs the jobs side by side, each a pipeline from its start page to its crawl's or its follow's last page, each
    /// outcome accounted for as it comes.
    /// - Throws: `JobScheduler.Stop` when WebKit cannot run or the run is interrupted.
    private func runJobs(_ jobs: [Config.NamedJob], concurrency: Int) async throws(JobScheduler.Stop) -> Tally {
        var jobs = jobs
        // With --har, each job records its requests; the handlers keep them, by job name.
        var keepers: [String: @Sendable (WebParserMessage) -> Void] = [:]
        if let har {
            for index in jobs.indices { keepers[jobs[index].name] = har.record(&jobs[index].job, as: jobs[index].name, secrets: jobs[index].secrets) }
        }
        let reportsChanged = (tracking.report ?? .added) != .added
        var tally = Tally()
        let prepared = jobs
        let kept = keepers
        try await JobScheduler(concurrency: concurrency).run(
            prepared, pipeline: { pipeline(for: $0, on: pages, keeping: kept[$0.name]) },
            memory: { memory?.jobMemory(of: $0, emitInitial: tracking.emitInitial, reportsChanged: reportsChanged) },
            handle: { index, ended in await account(ended, of: prepared[index], at: index, into: &tally) })
        return tally
    }

    /// The pipeline of `named` on `pages`: heard by the run's reporter and counts, its requests kept by `keep` (with
    /// `--har`), its emitted values and its crawl's pages streamed as the output asks.
    private func pipeline(for named: Config.NamedJob, on pages: any PageRunner, keeping keep: (@Sendable (WebParserMessage) -> Void)?) -> JobPipeline {
        let output = output
        let streamsEmitted = output.streamsEmittedValues && named.job.evaluation.collect == .emitted
        let name = named.name
        var besides: (@Sendable (WebParserMessage) -> Void)?
        if keep != nil || streamsEmitted {
            besides = { message in
                keep?(message)
                if streamsEmitted, case .emitted(let json) = message { output.stream(json, of: name) }
            }
        }
        let watch = PageWatch(reporter: reporter, har: har, metrics: metrics.map { ($0, named.name) }, hosts: hosts)
        return watch.pipeline(pages, for: named, besides: besides) { page in if output.streamsPages { output.page(page, of: name) } }
    }

    /// Writes the HAR file, if asked.
    private func writeHAR() -> Stage {
        do throws(DeliveryFailure) {
            try har?.write()
            return .done
        } catch {
            StandardStreams.tellError("webparse run: \(error.message)")
            return .failed
        }
    }

    /// Delivers what the run found: the output, then (unless a dry run) the notifications and the feeds, each a
    /// delivery whose failure leaves the state for the next run to report again.
    private func deliver(_ tally: Tally, of jobs: [Config.NamedJob]) async -> Stage {
        do throws(DeliveryFailure) { try output.finish() } catch { return .undelivered(error.message) }
        if let problem = StandardStreams.resultFailure { return .undelivered(problem) }
        guard !tracking.dryRun else { return .done }
        if let notifier {
            do throws(DeliveryFailure) {
                for job in tally.news.sorted(by: { $0.index < $1.index }) { try await notifier.send(job.news, of: job.name) }
                for job in tally.health.sorted(by: { $0.index < $1.index }) {
                    try await notifier.sendHealth(of: job.name, failing: job.failing, runs: job.runs)
                    if job.runs != nil { memory?.markNotified(job.name) }
                }
            } catch {
                return .undelivered(error.message)
            }
        }
        if let memory, let feeds {
            do throws(DeliveryFailure) { try feeds.write(jobs: jobs, memory: memory) } catch { return .undelivered(error.message) }
        }
        return .done
    }

    /// Writes the state file, once everything was delivered.
    private func saveState() -> Stage {
        do throws(DeliveryFailure) {
            try memory?.save()
            return .done
        } catch {
            StandardStreams.tellError("webparse run: \(error.message); the results were delivered and will be reported again next run")
            return .failed
        }
    }
}
