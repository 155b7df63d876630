import FoundationEssentials
import WebParserCore
import WebParser

/// Runs a run's jobs up to `concurrency` at a time on the run's pages, and hands each outcome over as it comes.
/// A job starts once the jobs it runs `after` have succeeded, and is not run when one of them failed.
/// (Jobs with different languages never overlap: the library's session sees to that.)
struct JobScheduler {
    /// The pages the run may have at once, which the pages its jobs' crawls and follows find share.
    let pages: WebParserPages
    let concurrency: Int
    let reporter: ProgressReporter
    /// What counts the jobs' pages, for `--metrics` and `--metrics-file`.
    var metrics: PageMetrics?
    /// Where each job's page messages go, besides the reporter: a stream of its emitted values, say.
    var onMessage: @Sendable (Config.NamedJob) -> (@Sendable (WebParserMessage) -> Void)? = { _ in nil }

    /// Why a run stopped before all its jobs ended.
    enum Stop: Error {
        /// WebKit cannot run here; every job would fail the same way.
        case environment(WebParserError)
        case interrupted
        /// Where the hosts' limits are kept could not be used (the queue's Redis).
        case hostBook(any Error)
    }

    /// Runs `jobs`; `handle` gets each job's index and outcome in the order they finish.
    /// - Throws: `Stop` when the run cannot go on; the jobs still running are cancelled first.
    func run(_ jobs: [Config.NamedJob], handle: (Int, JobOutcome) async -> Void) async throws(Stop) {
        let stop: Stop? = await withTaskGroup(of: (Int, Result<JobOutcome, Stop>).self) { group in
            var running = 0
            var waiting = Array(jobs.indices)
            var succeeded: Set<String> = []
            var ended: Set<String> = []
            while !waiting.isEmpty || running > 0 {
                // Jobs whose predecessors failed (or can no longer run) are not run; the others start in order.
                while let index = waiting.first(where: { jobs[$0].after.contains { ended.contains($0) && !succeeded.contains($0) } }) {
                    waiting.removeAll { $0 == index }
                    let failed = jobs[index].after.first { ended.contains($0) && !succeeded.contains($0) } ?? ""
                    ended.insert(jobs[index].name)
                    await handle(index, Self.notRun(jobs[index], because: "it runs after \"\(failed)\", which failed"))
                }
                while running < concurrency, let index = waiting.first(where: { jobs[$0].after.allSatisfy(succeeded.contains) }) {
                    waiting.removeAll { $0 == index }
                    running += 1
                    group.addTask { (index, await runJob(jobs[index])) }
                }
                if running == 0 {
                    // What still waits waits for jobs that are not in this run.
                    for index in waiting {
                        let missing = jobs[index].after.first { !succeeded.contains($0) } ?? ""
                        await handle(index, Self.notRun(jobs[index], because: "it runs after \"\(missing)\", which did not run"))
                    }
                    break
                }
                guard let (index, result) = await group.next() else { break }
                running -= 1
                ended.insert(jobs[index].name)
                switch result {
                case .success(let outcome):
                    if case .success = outcome.result { succeeded.insert(outcome.name) }
                    await handle(index, outcome)
                case .failure(let stop):
                    group.cancelAll()
                    return stop
                }
            }
            return nil
        }
        if let stop { throw stop }
    }

    /// The outcome of a job that was not run, and why.
    private static func notRun(_ named: Config.NamedJob, because reason: String) -> JobOutcome {
        JobOutcome(
            name: named.name, url: named.job.url,
            result: .failure(.notRun(reason)), elapsed: .zero)
    }

    /// Runs `named` on one of the run's pages, each attempt in its host's turn as `pass` gives it, and says how it
    /// ended.
    func runJob(_ named: Config.NamedJob, pass: HostPass = .open) async -> Result<JobOutcome, Stop> {
        let start = ContinuousClock.now
        let result: Result<WebParserResult, JobFailure>
        do {
            let report = reporter.messageHandler(for: named.name)
            let other = onMessage(named)
            let counts = metrics?.observer(job: named.name, url: named.job.url)
            let heard = pages.watched { [reporter] _, label in
                let observe = reporter.observer(for: label)
                return PageListeners(
                    onStateChange: { state in
                        observe(state)
                        counts?(state)
                    },
                    onMessage: { message in
                        report(message)
                        other?(message)
                    })
            }
            result = .success(try await heard.run(named.job, label: named.name, pass: pass))
        } catch let error as WebParserError {
            if case .environmentUnavailable = error.kind { return .failure(.environment(error)) }
            result = .failure(.failed(error))
        } catch is CancellationError {
            return .failure(.interrupted)
        } catch {
            return .failure(Task.isCancelled ? .interrupted : .hostBook(error))
        }
        if case .success(let success) = result { reporter.warnIfCutShort(named.name, success) }
        return .success(
            JobOutcome(
                name: named.name, url: named.job.url, result: result, elapsed: ContinuousClock.now - start,
                collectsEmitted: named.job.evaluation.collect == .emitted))
    }
}
