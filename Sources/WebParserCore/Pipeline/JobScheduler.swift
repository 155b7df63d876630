import FoundationEssentials
import WebParser

/// Runs a run's jobs side by side, each a `JobPipeline`, and hands each one's outcome over as it ends.
///
/// A job holds one of `concurrency` job places while its start page is read; its crawl or its follow then goes on
/// beside the other jobs without holding one, its pages sharing the run's pages (`-j`) and each host's limits
/// with every other job's. So a crawl never keeps another job from starting, nor its outcome from being handed over.
/// A job starts once the jobs it runs `after` have succeeded, and is not run when one of them failed.
public struct JobScheduler: Sendable {
    /// How many jobs may read their start page at once.
    public let concurrency: Int

    /// A scheduler that starts `concurrency` (at least one) jobs at once.
    public init(concurrency: Int) {
        self.concurrency = max(concurrency, 1)
    }

    /// Why a run stopped before all its jobs ended.
    public enum Stop: Error {
        /// WebKit cannot run here; every job would fail the same way.
        case environment(WebParserError)
        /// The run was cancelled (a signal).
        case interrupted
        /// Where the hosts' limits are kept could not be used (a work queue's Redis).
        case hostBook(any Error)
    }

    /// How a job of the run ended.
    package struct Ended: Sendable {
        /// Its outcome, as the output shows it.
        package var outcome: JobOutcome
        /// What its crawl or follow found; nil when it failed or was not run.
        package var findings: JobFindings?
    }

    /// What a job's task gave the scheduler.
    private enum Stage: Sendable {
        /// The job's start page was read at `since`; the rest of its pipeline goes on, with the state's `memory` of it.
        case started(Int, WebParserResult, since: ContinuousClock.Instant, pipeline: JobPipeline, memory: JobMemory?)
        /// The job ended: at its start page (`atStart`), or at the end of its crawl or follow.
        case ended(Int, Ended, atStart: Bool)
        case stopped(Stop)
    }

    /// Runs `jobs`, each through the pipeline `pipeline` gives it, with the state's `memory` of it; `handle` gets each
    /// job's index and how it ended, in the order they end. `pipeline` and `memory` are asked, in order, as each job
    /// starts.
    /// - Throws: `Stop` when the run cannot go on (the jobs still running are cancelled first), or when it was
    ///   cancelled.
    package func run(
        _ jobs: [Config.NamedJob], pipeline: (Config.NamedJob) -> JobPipeline, memory: (Config.NamedJob) -> JobMemory?,
        handle: (Int, Ended) async -> Void
    ) async throws(Stop) {
        let stop: Stop? = await withTaskGroup(of: Stage.self) { group in
            var (starting, finishing) = (0, 0)
            var waiting = Array(jobs.indices)
            var succeeded: Set<String> = []
            var ended: Set<String> = []
            while !waiting.isEmpty || starting + finishing > 0 {
                // Jobs whose predecessors failed (or can no longer run) are not run; the others start in order.
                while let index = waiting.first(where: { jobs[$0].after.contains { ended.contains($0) && !succeeded.contains($0) } }) {
                    waiting.removeAll { $0 == index }
                    let failed = jobs[index].after.first { ended.contains($0) && !succeeded.contains($0) } ?? ""
                    ended.insert(jobs[index].name)
                    await handle(index, Self.notRun(jobs[index], because: "it runs after \"\(failed)\", which failed"))
                }
                while starting < concurrency, let index = waiting.first(where: { jobs[$0].after.allSatisfy(succeeded.contains) }) {
                    waiting.removeAll { $0 == index }
                    starting += 1
                    let (named, job, known) = (jobs[index], pipeline(jobs[index]), memory(jobs[index]))
                    group.addTask { await Self.start(named, at: index, on: job, memory: known) }
                }
                if starting + finishing == 0 {
                    // What still waits waits for jobs that are not in this run.
                    for index in waiting {
                        let missing = jobs[index].after.first { !succeeded.contains($0) } ?? ""
                        await handle(index, Self.notRun(jobs[index], because: "it runs after \"\(missing)\", which did not run"))
                    }
                    break
                }
                switch await group.next() {
                case .started(let index, let start, let since, let job, let known):
                    (starting, finishing) = (starting - 1, finishing + 1)
                    let named = jobs[index]
                    group.addTask {
                        let (result, findings) = await job.finish(named, start: start, memory: known)
                        return .ended(index, Self.ended(named, .success(result), since: since, findings: findings), atStart: false)
                    }
                case .ended(let index, let end, let atStart):
                    if atStart { starting -= 1 } else { finishing -= 1 }
                    ended.insert(jobs[index].name)
                    if case .success = end.outcome.result { succeeded.insert(jobs[index].name) }
                    await handle(index, end)
                case .stopped(let stop):
                    group.cancelAll()
                    return stop
                case nil:
                    return nil
                }
            }
            return nil
        }
        if let stop { throw stop }
        if Task.isCancelled { throw .interrupted }
    }

    /// Reads the start page of `named` alone on `pipeline` (a work queue's item, whose crawl and follow become items
    /// of the queue), and says how the job ended.
    package static func runStart(_ named: Config.NamedJob, on pipeline: JobPipeline) async -> Result<JobOutcome, Stop> {
        switch await start(named, at: 0, on: pipeline, memory: nil) {
        case .started(_, let result, let since, _, _): .success(ended(named, .success(result), since: since).outcome)
        case .ended(_, let end, _): .success(end.outcome)
        case .stopped(let stop): .failure(stop)
        }
    }

    /// Reads the start page of `named`, the job at `index`, on `pipeline`, whose rest goes on with `memory`.
    private static func start(_ named: Config.NamedJob, at index: Int, on pipeline: JobPipeline, memory: JobMemory?) async -> Stage {
        let since = ContinuousClock.now
        do {
            return .started(index, try await pipeline.start(named), since: since, pipeline: pipeline, memory: memory)
        } catch let error as WebParserError {
            if case .environmentUnavailable = error.kind { return .stopped(.environment(error)) }
            return .ended(index, ended(named, .failure(.failed(error)), since: since), atStart: true)
        } catch is CancellationError {
            return .stopped(.interrupted)
        } catch {
            return .stopped(Task.isCancelled ? .interrupted : .hostBook(error))
        }
    }

    /// How `named` ended with `result`, started at `since`.
    private static func ended(
        _ named: Config.NamedJob, _ result: Result<WebParserResult, JobFailure>, since: ContinuousClock.Instant, findings: JobFindings? = nil
    ) -> Ended {
        var outcome = JobOutcome(
            name: named.name, url: named.job.url, result: result, elapsed: ContinuousClock.now - since,
            collectsEmitted: named.job.evaluation.collect == .emitted)
        outcome.detailsFailed = findings?.followed?.failed ?? 0
        outcome.pagesCrawled = findings?.crawled?.pages.count
        return Ended(outcome: outcome, findings: findings)
    }

    /// How a job that was not run ended, and why.
    private static func notRun(_ named: Config.NamedJob, because reason: String) -> Ended {
        Ended(outcome: JobOutcome(name: named.name, url: named.job.url, result: .failure(.notRun(reason)), elapsed: .zero), findings: nil)
    }
}
