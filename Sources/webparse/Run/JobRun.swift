import FoundationEssentials
import WebParser
import WebParserCore

/// One run of `run`'s jobs, once everything they need is ready: runs them, hands each outcome to the state and the
/// output (`account`), then delivers (output, notifications, feeds) before it records (the session's cookies, the
/// state file), so that the state advances only for what reached its reader. Each stage after the jobs says how it
/// ended; the exit code is made of those and of the jobs' failures.
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
    /// What counts the run's pages, written to `--metrics-file` at the end.
    let metrics: PageMetrics?
    /// When the run started: when its jobs ran, for the state (and which of them were due).
    let startedAt: Date
    /// Each host's limits, kept for every crawl of the run: two jobs crawling one site keep its `perHost` and `delay`
    /// together, as one crawler would.
    let hosts = LocalHostBook()

    /// How a stage after the jobs ended.
    enum Stage {
        case done
        /// It failed, and said why on stderr.
        case failed
        /// What the run found could not be delivered, for this reason: the state must not advance.
        case undelivered(String)
    }

    /// Runs `jobs`, `concurrency` pages at once, and says how the run ended; with `--metrics-file`, writes the run's
    /// counts there at the end (a run that cannot write them exits 1).
    func run(_ jobs: [Config.NamedJob], concurrency: Int) async -> ExitCode {
        let code = await runStages(jobs, concurrency: concurrency)
        guard let metrics, let path = settings.metricsFile, code != .interrupted else { return code }
        let gauges: [PageMetrics.Gauge] = [
            .init("webparse_last_run_timestamp_seconds", "When the run ended, in seconds since the epoch.", Date().timeIntervalSince1970.rounded()),
            .init("webparse_last_run_exit_code", "The run's exit code (0: every job succeeded).", Double(code.rawValue))
        ]
        do throws(AtomicFile.Failure) {
            try AtomicFile.write(Data(metrics.text(gauges: gauges).utf8), to: path, permissions: 0o644)
        } catch {
            StandardStreams.tellError("webparse run: --metrics-file: \(error)")
            return code == .success ? .jobFailed : code
        }
        return code
    }

    /// Runs `jobs` and the stages after them, and says how the run ended.
    private func runStages(_ jobs: [Config.NamedJob], concurrency: Int) async -> ExitCode {
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
        let stages = [writeHAR(), await deliver(tally, of: jobs), await saveSession(tally)]
        for case .undelivered(let reason) in stages {
            StandardStreams.tellError("webparse run: \(reason)\(memory == nil ? "" : "; the state was not updated")")
            return .jobFailed
        }
        let recorded: Stage
        if settings.tracking.dryRun {
            StandardStreams.tell("webparse run: a dry run: nothing was written into the state")
            recorded = .done
        } else {
            recorded = saveState()
        }
        let failed = (stages + [recorded]).contains { if case .done = $0 { false } else { true } }
        return tally.reportedFailure || failed ? .jobFailed : .success
    }

    /// Runs the jobs side by side, each a pipeline from its start page to its crawl's or its follow's last page, each
    /// outcome accounted for as it comes.
    /// - Throws: `JobScheduler.Stop` when WebKit cannot run or the run is interrupted.
    private func runJobs(_ jobs: [Config.NamedJob], concurrency: Int) async throws(JobScheduler.Stop) -> Tally {
        var jobs = jobs
        let pages = WebParserPages(parser: WebParserRunner(session: setup.session), concurrency: concurrency)
        // With --har, each job records its requests; the handlers keep them, by job name.
        var keepers: [String: @Sendable (WebParserMessage) -> Void] = [:]
        if let har {
            for index in jobs.indices { keepers[jobs[index].name] = har.record(&jobs[index].job, as: jobs[index].name, secrets: jobs[index].secrets) }
        }
        let reportsChanged = (settings.tracking.report ?? .added) != .added
        var tally = Tally()
        let prepared = jobs
        let kept = keepers
        try await JobScheduler(concurrency: concurrency).run(
            prepared, pipeline: { pipeline(for: $0, on: pages, keeping: kept[$0.name]) },
            memory: { memory?.jobMemory(of: $0, emitInitial: settings.tracking.emitInitial, reportsChanged: reportsChanged) },
            handle: { index, ended in await account(ended, of: prepared[index], at: index, into: &tally) })
        return tally
    }

    /// The pipeline of `named` on `pages`: heard by the run's reporter and counts, its requests kept by `keep` (with
    /// `--har`), its emitted values and its crawl's pages streamed as the output asks.
    private func pipeline(for named: Config.NamedJob, on pages: WebParserPages, keeping keep: (@Sendable (WebParserMessage) -> Void)?) -> JobPipeline {
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
        do throws(CommandFailure) {
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
        do throws(CommandFailure) { try output.finish() } catch { return .undelivered(error.message) }
        if let problem = StandardStreams.resultFailure { return .undelivered(problem) }
        guard !settings.tracking.dryRun else { return .done }
        if let notifier {
            do throws(CommandFailure) {
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
            do throws(CommandFailure) { try feeds.write(jobs: jobs, memory: memory) } catch { return .undelivered(error.message) }
        }
        return .done
    }

    /// Saves the session's cookies and storage as the options ask.
    private func saveSession(_ tally: Tally) async -> Stage {
        do throws(CommandFailure) {
            try await setup.save(anySuccess: tally.anySuccess, visited: tally.visited)
            return .done
        } catch {
            StandardStreams.tellError("webparse run: \(error.message)")
            return .failed
        }
    }

    /// Writes the state file, once everything was delivered.
    private func saveState() -> Stage {
        do throws(CommandFailure) {
            try memory?.save()
            return .done
        } catch {
            StandardStreams.tellError("webparse run: \(error.message); the results were delivered and will be reported again next run")
            return .failed
        }
    }
}
