import FoundationEssentials
import WebParserCore
import WebParser

/// `webparse run CONFIG`: runs the config's jobs one after another and prints their results, or, with
/// `--state` and `--new-only`, only what they hold that earlier runs did not.
struct RunCommand {
    struct Settings: PageCommandSettings {
        var source = JobSource.config(path: "")
        /// `--urls FILE` and `--script SCRIPT`, until the operands make them the source.
        var urlsPath: String?
        var script: String?
        var extract: String?
        var selection = SelectionOptions()
        var output = OutputOptions()
        var tracking = TrackingOptions()
        var notify = NotifyOptions()
        /// The run settings the options give, over the config's.
        var run = RunSettings()
        var logConsole = false
        var session = SessionOptions()
        var harFile: String?
        /// Where the run's counts are written at its end, in Prometheus' text format.
        var metricsFile: String?
        /// `--har-content`, a field of the run's settings.
        var harContent: HARContent? {
            get { run.harContent }
            set { run.harContent = newValue }
        }
        var verbosity = Verbosity.normal
    }

    static let command = TableCommand<Settings>(
        name: "run", operands: "CONFIG | --urls FILE --script SCRIPT|--extract JSON", summary: "run the jobs in CONFIG and print their results",
        details: """
            Loads each job's page in an offscreen WebKit view, evaluates the job's script until it returns
            something other than null, undefined, "", [] or {}, and prints the result as JSON on stdout. One job:
            its result alone. A "jobs" list: one object with each successful job's result under its name, in
            config order (failed jobs are explained on stderr). CONFIG "-" reads the config from stdin.
            Only results go to stdout; progress and errors go to stderr.

            With --state FILE, webparse remembers each job's items between runs; with --new-only it prints
            only the items not seen before, and nothing at all when nothing is new: made for cron.

            Job fields (every one but name can also be set in "defaults"):
            \(JobFields.all.map { "  " + $0.key.padded(to: JobFields.keyWidth) + $0.summary }.joined(separator: "\n"))

            Settings of the whole run, at the config's top level (the options of the same name override them):
            \((RunFields.all.map { ($0.key, $0.summary) } + SessionFields.all.map { ($0.key, $0.summary) }).map {
                "  " + $0.0.padded(to: JobFields.keyWidth) + $0.1 }.joined(separator: "\n"))
            """,
        exitCodes: [
            (.success, "every job succeeded"),
            (.jobFailed, "a job failed, or what the run found could not be delivered or recorded (the other results are still printed)")
        ] + ExitCode.general(.usage, .environment, .stateLocked, .sessionLocked, .outputClosed) + ExitCode.stopped,
        options: [
            .value("only", "NAME", "run only the named job; repeat, or separate names with commas") { settings, names throws(CommandFailure) in
                guard !names.trimmingSpaces().isEmpty else { throw CommandFailure.usage("--only needs a job name") }
                settings.selection.only.append(names)
            }.completingJobNames(),
            .value("shard", "K/N", "run only the jobs in shard K of N (by a stable hash of their names)") { settings, text throws(CommandFailure) in
                guard let shard = Shard(parsing: text) else {
                    throw CommandFailure.usage("--shard: expected K/N with 1 ≤ K ≤ N ≤ 1000, such as 2/4, got '\(text)'")
                }
                settings.selection.shard = shard
            },
            .value("urls", "FILE", "run --script on every URL in FILE (one per line; \"-\": stdin) instead of a config") { $0.urlsPath = $1 },
            .value("script", "SCRIPT", "with --urls: the JavaScript that returns each page's data") { $0.script = $1 },
            .value("extract", "JSON", "with --urls: read each page's data by selectors instead (a config's extract, as JSON)") { $0.extract = $1 },
            .flag("merge", "print every job's list as one list (with --jsonl, one {\"job\", \"item\"} line per item)") { $0.output.merge = true },
            .flag("jsonl", "one JSON line per job as it finishes (per new item with --new-only)") { $0.output.format = .jsonLines },
            .value("output", short: "o", "FILE", "write the output to FILE, atomically, instead of stdout (\"-\": stdout)") {
                $0.output.file = $1 == "-" ? nil : $1
            },
            .value(
                "metrics-file", "FILE", "write the run's counts to FILE at its end in Prometheus' text format, atomically (node_exporter's textfile collector)"
            ) {
                $0.metricsFile = $1
            },
            .value("state", "FILE", "remember each job's items, last result and failures in FILE between runs") { $0.tracking.statePath = $1 },
            .flag("new-only", "print only items not seen before (needs --state); nothing when nothing is new") { $0.tracking.newOnly = true },
            .flag("emit-initial", "with --new-only: print everything on a job's first run instead of nothing") { $0.tracking.emitInitial = true },
            .count(
                "fail-after", "N", in: 1...1000, what: "a number of runs",
                "with --state: stay silent and exit 0 on a failing job until it failed N runs in a row (--notify then says so, once)"
            ) { $0.tracking.failAfter = $1 },
            .seconds("wait-lock", in: 0...86_400, "with --state: wait this long for another run using the same FILE") {
                $0.tracking.waitLock = $1
            },
            .flag("log-console", "print every page's console lines and uncaught errors on stderr") { $0.logConsole = true },
            .value(
                "notify", "URL",
                "with --state: send what is new, and when a job starts failing and recovers, through Apprise to URL (ntfy://…, mailto://…, json://…); repeatable"
            ) {
                $0.notify.urls.append($1)
            },
            .value(
                "notify-config", "FILE",
                "with --state: send new items through the services of an Apprise configuration FILE (tokens stay out of crontab and ps); repeatable"
            ) {
                $0.notify.configs.append($1)
            },
            .flag("notify-env", "with --state: send new items through Apprise's own defaults: APPRISE_URLS, APPRISE_CONFIG(_PATH), its configuration files") {
                $0.notify.fromEnvironment = true
            },
            .value("notify-format", "TEMPLATE", "the line for each new item in --notify: {job}, {item}, {FIELD} (default: its title and URL)") {
                $0.notify.format = $1
            },
            .value(
                "report", "WHAT",
                "with --new-only: added items (default), changed (seen before by their key, content changed), removed (missing \"confirm\" runs in a row) or all"
            ) {
                settings, text throws(CommandFailure) in
                guard let report = Report(rawValue: text) else {
                    throw CommandFailure.usage("--report: expected added, changed, removed or all, got '\(text)'")
                }
                settings.tracking.report = report
            }.choosing(Report.allCases.map(\.rawValue)),
            .flag("diff", "with --new-only: show how a result that is not a list changed, as a unified diff") { $0.tracking.diff = true },
            .value("feed", "FILE", "with --state: write an Atom feed of the new items to FILE (or DIR/ for DIR/JOB.atom), newest first") {
                $0.tracking.feedPath = $1
            },
            .count("feed-size", "N", in: 1...10_000, what: "a number of entries", "with --feed: how many entries the feed keeps (default 50)") {
                $0.tracking.feedSize = $1
            },
            .flag("feed-force", "with --feed: replace a FILE that is not a feed webparse wrote") { $0.tracking.feedForce = true },
            .flag("dry-run", "with --state: show what would be reported, and write nothing into the state (try one job with --only)") {
                $0.tracking.dryRun = true
            },
            .flag("list", "print the config's job names, one per line, and run nothing") { $0.selection.list = true },
            .flag("all", "with --state: run every job, also those whose \"every\" says they are not due") { $0.selection.all = true }
        ] + CommandOption.fieldOptions(RunFields.all, into: \.run) + CommandOption.pageCommandOptions(harContent: false),
        initial: Settings(),
        takeOperands: { settings, operands throws(CommandFailure) in
            guard let urlsPath = settings.urlsPath else {
                guard settings.script == nil else { throw CommandFailure.usage("--script goes with --urls") }
                guard settings.extract == nil else { throw CommandFailure.usage("--extract goes with --urls") }
                try TableCommand<Settings>.single("CONFIG") { $0.source = .config(path: $1) }(&settings, operands)
                return
            }
            guard operands.isEmpty else { throw CommandFailure.usage("give CONFIG or --urls, not both") }
            guard (settings.script == nil) != (settings.extract == nil) else {
                throw CommandFailure.usage("--urls needs --script SCRIPT or --extract JSON, one of them")
            }
            settings.source = .urlList(path: urlsPath, script: settings.script, extract: settings.extract)
        },
        validate: { settings throws(CommandFailure) in try settings.validate() },
        loadsPages: true,
        run: { await RunCommand(settings: $0).execute() })

    let settings: Settings

    /// The config, or the jobs of the `--urls` list. Read while WebKit starts, which adds to the environment: the
    /// config's variables are looked up in the environment webparse was started with.
    /// - Throws: `ConfigError` when it cannot be read or is not valid.
    private func loadConfig() throws(ConfigError) -> Config {
        switch settings.source {
        case .config(let path): try ConfigLoader.load(path: path, environment: LaunchEnvironment.variables, defersUnsetVariables: true)
        case .urlList(let path, let script, let extract): try ConfigLoader.loadURLList(path: path, script: script, extract: extract)
        }
    }

    func execute() async -> ExitCode {
        // WebKit and the display start while the config is read.
        let warmUp = Task { try? await WebParserRunner.prepare() }
        defer { warmUp.cancel() }
        let config: Config
        let plan: RunPlan
        do {
            config = try loadConfig()
            plan = try RunPlan(config: config, only: settings.selection.only, shard: settings.selection.shard, settings: settings.run)
        } catch let error as ConfigError {
            StandardStreams.tellError(error.isUnreadable ? "webparse run: \(error)" : error.description)
            return .usage
        } catch {
            StandardStreams.tellError("webparse run: --only: \(error)")
            return .usage
        }
        if settings.selection.list {
            StandardStreams.writeText(config.jobs.map { $0.name + "\n" }.joined())
            return .success
        }
        // The secrets a config refers to are needed by the jobs that run, and only by them.
        if case .config(let path) = settings.source {
            do throws(ConfigError) {
                try ConfigLoader.requireVariables(of: plan.jobs, name: ConfigLoader.name(of: path))
            } catch {
                StandardStreams.tellError(error.description)
                return .usage
            }
        }
        let prepared: Prepared
        do throws(CommandFailure) {
            prepared = try await prepare(for: config, plan)
        } catch {
            StandardStreams.tellError("webparse run: \(error.message)")
            return error.code
        }
        let startedAt = Date()
        let output = RunOutput(output: settings.output, reporting: settings.tracking.reporting, isSingleJob: config.isSingleJob)
        var due = plan.jobs
        if let memory = prepared.memory, !settings.selection.all {
            let skipped: [(name: String, due: Date)]
            (due, skipped) = plan.dueJobs { memory.notDue($0, at: startedAt) }
            for job in skipped {
                output.notDue(job.name, until: job.due)
                if settings.verbosity == .verbose { StandardStreams.tell("webparse: \(job.name): not due until \(job.due.formatted(.iso8601))") }
            }
        }
        let jobs = due.map { named in
            var named = named
            if settings.logConsole { named.job.page.capturesConsole = true }
            if let check = prepared.memory?.seenPageCheck(for: named) { named.job.evaluation.pagination?.stopsAfter = check }
            return named
        }
        let setup = prepared.setup
        let metrics = settings.metricsFile.map { _ in PageMetrics() }
        let run = JobRun(
            tracking: settings.tracking, pages: WebParserPages(parser: WebParserRunner(session: setup.session), concurrency: plan.concurrency),
            saveSession: { anySuccess, visited in
                do throws(CommandFailure) {
                    try await setup.save(anySuccess: anySuccess, visited: visited)
                    return true
                } catch {
                    StandardStreams.tellError("webparse run: \(error.message)")
                    return false
                }
            }, memory: prepared.memory, notifier: prepared.notifier, har: prepared.har, feeds: prepared.feeds, output: output,
            reporter: ProgressReporter(verbosity: settings.verbosity), metrics: metrics, startedAt: startedAt)
        let code: ExitCode =
            switch await run.run(jobs, concurrency: plan.concurrency) {
            case .success: .success
            case .failed: .jobFailed
            case .environment: .environment
            case .interrupted: .interrupted
            }
        return writeMetrics(metrics, exitCode: code)
    }

    /// Writes the run's counts to `--metrics-file`, with its exit `code`, and says how it ends: a run that cannot write
    /// them exits 1; an interrupted run writes none.
    private func writeMetrics(_ metrics: PageMetrics?, exitCode code: ExitCode) -> ExitCode {
        guard let metrics, let path = settings.metricsFile, code != .interrupted else { return code }
        do throws(DeliveryFailure) {
            try MetricsFile(path: path).write(metrics, exitCode: code.rawValue)
        } catch {
            StandardStreams.tellError("webparse run: \(error.message)")
            return code == .success ? .jobFailed : code
        }
        return code
    }

    /// What the run needs before its first job.
    private typealias Prepared = (setup: SessionSetup, memory: RunMemory?, notifier: Notifier?, har: HARRecorder?, feeds: FeedFiles?)

    /// What the run needs before its first job: Apprise checked, the output, HAR and feed files writable, the
    /// session and its folder, and the state file locked and read.
    /// - Throws: `CommandFailure` saying which cannot be used.
    private func prepare(for config: Config, _ plan: RunPlan) async throws(CommandFailure) -> Prepared {
        var notifier: Notifier?
        if settings.notify.isEnabled {
            notifier = try await CommandFailure.delivering { () async throws(DeliveryFailure) in
                let chosen = try Notifier(
                    urls: settings.notify.urls, configs: settings.notify.configs,
                    fromEnvironment: settings.notify.fromEnvironment, format: settings.notify.format)
                try await chosen.check()
                return chosen
            }
        }
        if let output = settings.output.file, let problem = AtomicFile.checkWritable(output) {
            throw CommandFailure.usage("--output: \(problem)")
        }
        if let metrics = settings.metricsFile, let problem = AtomicFile.checkWritable(metrics) {
            throw CommandFailure.usage("--metrics-file: \(problem)")
        }
        let har = try settings.harFile.map { path throws(CommandFailure) in
            try CommandFailure.delivering { () throws(DeliveryFailure) in
                try HARRecorder(path: path, content: settings.run.harContent ?? config.run.harContent)
            }
        }
        let setup = try await SessionSetup.prepare(
            settings.session, over: config.session, recordsRequests: har != nil, configure: plan.sessionConfiguration)
        var memory: RunMemory?
        if let path = settings.tracking.statePath {
            memory = try await CommandFailure.delivering { () async throws(DeliveryFailure) in
                try await RunMemory.open(path, wait: settings.tracking.waitLock)
            }
        }
        let feeds = settings.tracking.feedPath.map { FeedFiles(path: $0, size: settings.tracking.feedSize, force: settings.tracking.feedForce) }
        try CommandFailure.delivering { () throws(DeliveryFailure) in try feeds?.check(jobs: plan.jobs.map(\.name)) }
        return (setup, memory, notifier, har, feeds)
    }
}
