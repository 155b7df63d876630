import FoundationEssentials
import WebParser

/// What a run of a config will do, decided before anything loads: which jobs run (those asked for by `--only`
/// or a shard, and the jobs they run `after`, in config order), how many pages at once, and how the session
/// uses its web processes.
package struct RunPlan: Sendable {
    /// The jobs that run, in config order.
    package let jobs: [Config.NamedJob]
    /// How many pages at once.
    package let concurrency: Int
    /// The run's settings: the options' over the config's.
    package let settings: RunSettings
    /// The CPU and memory the run's container gives it, which size the defaults.
    package let limits: ContainerLimits
    /// Whether a page is loaded again after its job: the run has more jobs than pages at once, or loads more pages
    /// than its jobs' (it follows or crawls).
    private let reusesPages: Bool
    /// Whether a job may capture responses (which the session must be made for).
    private let capturesResponses: Bool

    /// Names given to `--only` that no job of the config has.
    package struct UnknownJobs: Error, Sendable, CustomStringConvertible {
        package let names: [String]
        /// The config's job names, for the message.
        package let known: [String]
        package var description: String {
            "no job named \(names.map { "\"\($0)\"" }.joined(separator: ", ")); "
                + "the jobs are \(known.map { "\"\($0)\"" }.joined(separator: ", "))"
        }
    }

    /// The plan for `config`: the jobs named in `only` (each a name, or names separated by commas; none: every
    /// job) that fall in `shard`, with the jobs they run after, and `given` run settings over the config's; the
    /// defaults (pages at once, the memory limit) are sized by the container's `limits`.
    /// - Throws: `RunPlan.UnknownJobs` when `only` names a job the config does not have.
    package init(
        config: Config, only: [String] = [], shard: Shard? = nil, settings given: RunSettings = RunSettings(),
        limits: ContainerLimits = ContainerLimits.current
    ) throws(UnknownJobs) {
        let names = Set(config.jobs.map(\.name))
        // A name as given, or else a comma-separated list of names.
        let only = only.flatMap { names.contains($0) ? [$0] : $0.split(separator: ",").map { $0.trimmingSpaces() } }
        let unknown = only.filter { !names.contains($0) }
        guard unknown.isEmpty else { throw UnknownJobs(names: unknown, known: config.jobs.map(\.name)) }
        var chosen = Set(config.jobs.filter { (only.isEmpty || only.contains($0.name)) && (shard?.contains($0.name) ?? true) }.map(\.name))
        let afterByName = Dictionary(config.jobs.map { ($0.name, $0.after) }, uniquingKeysWith: { first, _ in first })
        var toAdd = Array(chosen)
        while let name = toAdd.popLast() {
            for before in afterByName[name] ?? [] where chosen.insert(before).inserted { toAdd.append(before) }
        }
        jobs = config.jobs.filter { chosen.contains($0.name) }
        settings = given.over(config.run)
        self.limits = limits
        concurrency = settings.concurrency ?? RunSettings.defaultConcurrency(limits)
        reusesPages = jobs.count > concurrency || jobs.contains { $0.follow != nil || $0.crawl != nil }
        capturesResponses = jobs.contains { $0.job.capture != nil }
    }

    /// The plan's jobs that are due, in config order, with the jobs they run `after` (due or not: a login a due job
    /// needs); and the others, each with when it is due. `notDue` says when a job is due, if it is not now.
    package func dueJobs(notDue: (Config.NamedJob) -> Date?) -> (jobs: [Config.NamedJob], skipped: [(name: String, due: Date)]) {
        let waiting = Dictionary(jobs.compactMap { job in notDue(job).map { (job.name, $0) } }, uniquingKeysWith: { first, _ in first })
        var chosen = Set(jobs.map(\.name).filter { waiting[$0] == nil })
        let afterByName = Dictionary(jobs.map { ($0.name, $0.after) }, uniquingKeysWith: { first, _ in first })
        var toAdd = Array(chosen)
        while let name = toAdd.popLast() {
            for before in afterByName[name] ?? [] where chosen.insert(before).inserted { toAdd.append(before) }
        }
        let skipped = jobs.compactMap { job in chosen.contains(job.name) ? nil : waiting[job.name].map { (job.name, $0) } }
        return (jobs.filter { chosen.contains($0.name) }, skipped)
    }

    /// The plan of a work queue's worker: no jobs known in advance (its items come as it runs, and its pages are used
    /// again), `given` run settings over its config's `configured`.
    package init(worker given: RunSettings, over configured: RunSettings, limits: ContainerLimits = ContainerLimits.current) {
        jobs = []
        settings = given.over(configured)
        self.limits = limits
        concurrency = settings.concurrency ?? RunSettings.defaultConcurrency(limits)
        reusesPages = true
        capturesResponses = true
    }

    /// The session's configuration for the plan, keeping its data in `storage` and reaching servers through
    /// `proxy`: when every job has a page of its own (and none follows or crawls, loading more pages), no page is
    /// ever reused, so none is kept (or prepared) for reuse; a memory limit of 0 is none. When memory is the constraint (a memory limit given, or the
    /// container's), pages of a site go four to a process unless the settings say how many.
    package func sessionConfiguration(storage: WebParserSession.Storage, proxy: WebParserSession.Proxy?)
        -> WebParserSession.Configuration
    {
        let memoryBound = (settings.memoryLimit ?? 0) > 0 || limits.memory != nil
        let pagesPerProcess =
            settings.pagesPerProcess ?? (memoryBound ? RunSettings.memoryBoundPagesPerProcess : WebParserSession.Configuration.defaultPagesPerProcess)
        let recycleAfter = reusesPages ? settings.recycleAfter ?? WebParserSession.Configuration.defaultRecycleAfter : 1
        let memoryLimit: Int? =
            switch settings.memoryLimit {
            case 0?: nil
            case let limit?: limit
            case nil: RunSettings.defaultMemoryLimit(limits, concurrency: concurrency, pagesPerProcess: pagesPerProcess)
            }
        return WebParserSession.Configuration(
            storage: storage, proxy: proxy, recycleAfter: recycleAfter, memoryLimit: memoryLimit, pagesPerProcess: pagesPerProcess,
            capturesResponses: capturesResponses)
    }
}
