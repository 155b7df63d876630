import Foundation
import WebParserCore
import WebParser

/// `webparse run CONFIG`: runs the config's jobs one after another and prints their results, or, with
/// `--state` and `--new-only`, only what they hold that earlier runs did not.
struct RunCommand {
    struct Settings: TalkativeSettings, SessionOptionSettings {
        var configPath = ""
        /// A file (or "-") of URLs to run `script` on, in place of a config.
        var urlsPath: String?
        var script: String?
        /// Whether the results of a run of several jobs are printed as one list.
        var merge = false
        /// Apprise URLs the new items go to, and the line for each.
        var notify: [String] = []
        var notifyConfigs: [String] = []
        var notifyFromEnvironment = false
        var notifyFormat: String?
        /// Whether the run only lists the config's jobs, or reports without writing the state.
        var list = false
        var dryRun = false
        /// What --new-only reports: new items, changed ones, or both; and whether a changed value is a diff.
        var report = Report.added
        var diff = false
        var only: [String] = []
        var shard: Shard?
        var jsonLines = false
        var output: String?
        var statePath: String?
        var newOnly = false
        var emitInitial = false
        var failAfter: Int?
        var waitLock: Duration = .zero
        /// The run settings the options give, over the config's.
        var run = RunSettings()
        var logConsole = false
        var session = SessionOptions()
        var verbosity = Verbosity.normal

        /// Whether new items are sent through Apprise.
        var notifies: Bool { !notify.isEmpty || !notifyConfigs.isEmpty || notifyFromEnvironment }
    }

    static let command = TableCommand<Settings>(
        name: "run", operands: "CONFIG | --urls FILE --script SCRIPT", summary: "run the jobs in CONFIG and print their results",
        details: """
            Loads each job's page in an offscreen WebKit view, evaluates the job's script until it returns
            something other than null, undefined, "", [] or {}, and prints the result as JSON on stdout. One job:
            its result alone. A "jobs" list: one object with each successful job's result under its name, in
            config order (failed jobs are explained on stderr). CONFIG "-" reads the config from stdin.
            Only results go to stdout; progress and errors go to stderr.

            With --state FILE, webparse remembers each job's items between runs; with --new-only it prints
            only the items not seen before, and nothing at all when nothing is new: made for cron.

            Job fields (every one but name can also be set in "defaults"):
            \(JobFields.all.map { "  " + $0.key.padding(toLength: JobFields.keyWidth, withPad: " ", startingAt: 0) + $0.summary }.joined(separator: "\n"))

            Settings of the whole run, at the config's top level (the options of the same name override them):
            \((RunFields.all.map { ($0.key, $0.summary) } + SessionFields.all.map { ($0.key, $0.summary) }).map {
                "  " + $0.0.padding(toLength: JobFields.keyWidth, withPad: " ", startingAt: 0) + $0.1 }.joined(separator: "\n"))

            \(ExitCode.help)
            """,
        options: [
            .value("only", "NAME", "run only the named job; repeat, or separate names with commas") { settings, names throws(CommandFailure) in
                guard !names.trimmingCharacters(in: .whitespaces).isEmpty else { throw CommandFailure.usage("--only needs a job name") }
                settings.only.append(names)
            }.completingJobNames(),
            .value("shard", "K/N", "run only the jobs in shard K of N (by a stable hash of their names)") { settings, text throws(CommandFailure) in
                settings.shard = try Shard(parsing: text)
            },
            .value("urls", "FILE", "run --script on every URL in FILE (one per line; \"-\": stdin) instead of a config") { $0.urlsPath = $1 },
            .value("script", "SCRIPT", "with --urls: the JavaScript that returns each page's data") { $0.script = $1 },
            .flag("merge", "print every job's list as one list (with --jsonl, one {\"job\", \"item\"} line per item)") { $0.merge = true },
            .flag("jsonl", "one JSON line per job as it finishes (per new item with --new-only)") { $0.jsonLines = true },
            .value("output", short: "o", "FILE", "write the output to FILE, atomically, instead of stdout (\"-\": stdout)") {
                $0.output = $1 == "-" ? nil : $1
            },
            .value("state", "FILE", "remember each job's items, last result and failures in FILE between runs") { $0.statePath = $1 },
            .flag("new-only", "print only items not seen before (needs --state); nothing when nothing is new") { $0.newOnly = true },
            .flag("emit-initial", "with --new-only: print everything on a job's first run instead of nothing") { $0.emitInitial = true },
            .value("fail-after", "N", "with --state: stay silent and exit 0 on a failing job until it failed N runs in a row") { settings, text throws(CommandFailure) in
                guard let count = Int(text), (1...1000).contains(count) else {
                    throw CommandFailure.usage("--fail-after: expected a number of runs from 1 to 1000, got '\(text)'")
                }
                settings.failAfter = count
            },
            .value("wait-lock", "SECONDS", "with --state: wait this long for another run using the same FILE") { settings, text throws(CommandFailure) in
                guard let seconds = JSONNode.number(writtenAs: text), (0...86_400).contains(seconds) else {
                    throw CommandFailure.usage("--wait-lock: expected a number of seconds from 0 to 86400, got '\(text)'")
                }
                settings.waitLock = .milliseconds(Int64(seconds * 1000))
            },
            .flag("log-console", "print every page's console lines and uncaught errors on stderr") { $0.logConsole = true },
            .value("notify", "URL", "with --state: send new items through Apprise to URL (ntfy://…, mailto://…, json://…); repeatable") {
                $0.notify.append($1)
            },
            .value("notify-config", "FILE", "with --state: send new items through the services of an Apprise configuration FILE (tokens stay out of crontab and ps); repeatable") {
                $0.notifyConfigs.append($1)
            },
            .flag("notify-env", "with --state: send new items through Apprise's own defaults: APPRISE_URLS, APPRISE_CONFIG(_PATH), its configuration files") {
                $0.notifyFromEnvironment = true
            },
            .value("notify-format", "TEMPLATE", "the line for each new item in --notify: {job}, {item}, {FIELD} (default: its title and URL)") {
                $0.notifyFormat = $1
            },
            .value("report", "WHAT", "with --new-only: added items (default), changed (seen before by their key, content changed) or all") { settings, text throws(CommandFailure) in
                guard let report = Report(rawValue: text) else {
                    throw CommandFailure.usage("--report: expected added, changed or all, got '\(text)'")
                }
                settings.report = report
            },
            .flag("diff", "with --new-only: show how a result that is not a list changed, as a unified diff") { $0.diff = true },
            .flag("dry-run", "with --state: show what would be reported, and write nothing into the state (try one job with --only)") { $0.dryRun = true },
            .flag("list", "print the config's job names, one per line, and run nothing") { $0.list = true },
        ] + CommandOption.fieldOptions(RunFields.all, into: \.run) + CommandOption.sessionOptions + [.quiet, .verbose],
        initial: Settings(),
        takeOperands: { settings, operands throws(CommandFailure) in
            if settings.urlsPath != nil {
                guard operands.isEmpty else { throw CommandFailure.usage("give CONFIG or --urls, not both") }
                guard settings.script != nil else { throw CommandFailure.usage("--urls needs --script SCRIPT") }
            } else {
                guard settings.script == nil else { throw CommandFailure.usage("--script goes with --urls") }
                try TableCommand<Settings>.single("CONFIG") { $0.configPath = $1 }(&settings, operands)
            }
            if settings.statePath == nil {
                let needing = [("--new-only", settings.newOnly), ("--emit-initial", settings.emitInitial),
                               ("--notify", !settings.notify.isEmpty), ("--notify-config", !settings.notifyConfigs.isEmpty),
                               ("--notify-env", settings.notifyFromEnvironment), ("--dry-run", settings.dryRun),
                               ("--fail-after", settings.failAfter != nil), ("--wait-lock", settings.waitLock > .zero)]
                if let option = needing.first(where: \.1)?.0 { throw CommandFailure.usage("\(option) needs --state FILE") }
            }
            if settings.emitInitial && !settings.newOnly { throw CommandFailure.usage("--emit-initial goes with --new-only") }
            if !settings.newOnly, let option = [("--report", settings.report != .added), ("--diff", settings.diff)].first(where: \.1)?.0 {
                throw CommandFailure.usage("\(option) goes with --new-only")
            }
            if settings.merge, let option = [("--report", settings.report != .added), ("--diff", settings.diff)].first(where: \.1)?.0 {
                throw CommandFailure.usage("\(option) does not go with --merge, which lists items only")
            }
            if settings.notifyFormat != nil && !settings.notifies {
                throw CommandFailure.usage("--notify-format goes with --notify URL, --notify-config FILE or --notify-env")
            }
        },
        run: { await RunCommand(settings: $0).execute() })

    let settings: Settings

    /// The config, or the jobs of the `--urls` list. Read while WebKit starts, which adds to the environment: the
    /// config's variables are looked up in the environment webparse was started with.
    /// - Throws: `ConfigError` when it cannot be read or is not valid.
    private func loadConfig() throws(ConfigError) -> Config {
        guard let urlsPath = settings.urlsPath, let script = settings.script else {
            return try ConfigLoader.load(path: settings.configPath, environment: MainCommand.launchEnvironment)
        }
        return try ConfigLoader.loadURLList(path: urlsPath, script: script)
    }

    func execute() async -> ExitCode {
        // WebKit and the display start while the config is read.
        let warmUp = Task { try? await WebParserRunner.prepare() }
        defer { warmUp.cancel() }
        let config: Config
        do {
            config = try loadConfig()
        } catch {
            StandardStreams.tellError(error.isUnreadable ? "webparse run: \(error)" : error.description)
            return .usage
        }
        let names = Set(config.jobs.map(\.name))
        // A name as given, or else a comma-separated list of names.
        let only = settings.only.flatMap { names.contains($0) ? [$0] : $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } }
        let unknown = only.filter { !names.contains($0) }
        guard unknown.isEmpty else {
            StandardStreams.tellError("webparse run: --only: no job named \(unknown.map { "\"\($0)\"" }.joined(separator: ", ")); "
                                      + "the jobs are \(config.jobs.map { "\"\($0.name)\"" }.joined(separator: ", "))")
            return .usage
        }
        if settings.list {
            StandardStreams.writeText(config.jobs.map { $0.name + "\n" }.joined())
            return .success
        }
        var notifier: Notifier?
        do throws(CommandFailure) {
            if settings.notifies {
                let chosen = try Notifier(urls: settings.notify, configs: settings.notifyConfigs, fromEnvironment: settings.notifyFromEnvironment,
                                          format: settings.notifyFormat)
                try await chosen.check()
                notifier = chosen
            }
        } catch {
            StandardStreams.tellError("webparse run: \(error.message)")
            return error.code
        }
        if let output = settings.output, let problem = AtomicFile.checkWritable(output) {
            StandardStreams.tellError("webparse run: --output: \(problem)")
            return .usage
        }
        // The jobs asked for, and the jobs they run after, so that a login runs before the pages behind it.
        var chosen = Set(config.jobs.filter { (only.isEmpty || only.contains($0.name)) && (settings.shard?.contains($0.name) ?? true) }.map(\.name))
        let afterByName = Dictionary(config.jobs.map { ($0.name, $0.after) }, uniquingKeysWith: { first, _ in first })
        var toAdd = Array(chosen)
        while let name = toAdd.popLast() {
            for before in afterByName[name] ?? [] where chosen.insert(before).inserted { toAdd.append(before) }
        }
        let run = settings.run.over(config.run)
        let concurrency = run.concurrency ?? RunSettings.defaultConcurrency
        let setup: SessionSetup
        var memory: RunMemory?
        do throws(CommandFailure) {
            // When every job has a page of its own, no page is ever reused: none is kept (or prepared) for reuse.
            let recycleAfter = chosen.count <= concurrency ? 1
                : run.recycleAfter ?? WebParserSession.Configuration.defaultRecycleAfter
            let memoryLimit: Int? = switch run.memoryLimit {
            case 0?: nil
            case let limit?: limit
            case nil: WebParserSession.Configuration.defaultMemoryLimit
            }
            setup = try await SessionSetup.prepare(settings.session, over: config.session, recycleAfter: recycleAfter,
                                                   memoryLimit: memoryLimit,
                                                   pagesPerProcess: run.pagesPerProcess ?? WebParserSession.Configuration.defaultPagesPerProcess)
            if let statePath = settings.statePath { memory = try await RunMemory.open(statePath, wait: settings.waitLock) }
        } catch {
            StandardStreams.tellError("webparse run: \(error.message)")
            return error.code
        }
        let jobs = config.jobs.filter { chosen.contains($0.name) }.map { named in
            var named = named
            if settings.logConsole { named.job.page.capturesConsole = true }
            if let check = memory?.seenPageCheck(for: named) { named.job.evaluation.pagination?.stopsAfter = check }
            return named
        }

        let reporter = ProgressReporter(verbosity: settings.verbosity)
        let output = RunOutput(settings: settings, isSingleJob: config.isSingleJob)
        var scheduler = JobScheduler(parser: WebParserRunner(session: setup.session),
                                     concurrency: concurrency,
                                     reporter: reporter)
        if output.streamsEmittedValues {
            scheduler.onMessage = { named in
                guard named.job.evaluation.collect == .emitted else { return nil }
                return { message in
                    if case .emitted(let json) = message { output.stream(json, of: named.name) }
                }
            }
        }
        var reportedFailure = false
        var anySuccess = false
        /// The new items of each job (for a result that is not a list, how it changed), for --notify, by the job's
        /// place in the config.
        var news: [(index: Int, name: String, items: [Data], diff: String?)] = []
        do throws(JobScheduler.Stop) {
            try await scheduler.run(jobs) { index, outcome in
                let named = jobs[index]
                var outcome = outcome
                var fresh: RunMemory.Fresh?
                if case .success(let success) = outcome.result, let memory {
                    do throws(WebParserError) {
                        fresh = try await memory.remember(success, of: named, emitInitial: settings.emitInitial)
                    } catch {
                        outcome.result = .failure(.failed(error))
                    }
                }
                if let fresh, !fresh.items.isEmpty { news.append((index, named.name, fresh.items, fresh.isList ? nil : fresh.diff)) }
                if settings.report == .changed, let fresh, fresh.isList, !fresh.keyed, !fresh.items.isEmpty {
                    StandardStreams.tellError("webparse: \(named.name): warning: --report changed: the job has no \"key\", so an item whose "
                        + "content changed counts as new; its \(fresh.items.count) new item\(fresh.items.count == 1 ? " is" : "s are") reported as "
                        + "added (set \"key\" to the field that identifies an item, such as \"key\": \"url\")")
                }
                switch outcome.result {
                case .success:
                    anySuccess = true
                    output.add(outcome, at: index, fresh: fresh, streamed: output.streamsEmittedValues && named.job.evaluation.collect == .emitted)
                case .failure(let error):
                    let runsInARow = memory?.recordFailure(of: named.name, keepCount: settings.failAfter != nil) ?? 1
                    if runsInARow >= (settings.failAfter ?? 1) {
                        reporter.jobFailed(named.name, error, runsInARow: settings.failAfter == nil ? 1 : runsInARow)
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
        // Deliver first, then record: the state advances only for what reached stdout or the output file, so
        // that a full disk or a failed output loses no new item (they are reported again by the next run), and
        // a session folder that cannot be written costs no result.
        var undelivered: String?
        do throws(CommandFailure) { try output.finish() } catch { undelivered = error.message }
        undelivered = undelivered ?? StandardStreams.resultFailure
        if undelivered == nil, !settings.dryRun, let notifier {
            // Notifications are deliveries too: one that fails leaves the state for the next run to report again.
            for job in news.sorted(by: { $0.index < $1.index }) where undelivered == nil {
                do throws(CommandFailure) { try await notifier.send(job.items, diff: job.diff, of: job.name) } catch { undelivered = error.message }
            }
        }
        var recorded = true
        do throws(CommandFailure) {
            try await setup.save(anySuccess: anySuccess)
        } catch {
            StandardStreams.tellError("webparse run: \(error.message)")
            recorded = false
        }
        if let undelivered {
            StandardStreams.tellError("webparse run: \(undelivered)\(memory == nil ? "" : "; the state was not updated")")
            return .jobFailed
        }
        if settings.dryRun {
            StandardStreams.tell("webparse run: a dry run: nothing was written into the state")
            return reportedFailure || !recorded ? .jobFailed : .success
        }
        do throws(CommandFailure) {
            try memory?.save()
        } catch {
            StandardStreams.tellError("webparse run: \(error.message); the results were delivered and will be reported again next run")
            recorded = false
        }
        return reportedFailure || !recorded ? .jobFailed : .success
    }
}

/// What `--new-only` reports of each job.
enum Report: String, Sendable {
    /// Items not seen before (and a changed value that is not a list).
    case added
    /// Items seen before, by their key, whose content changed.
    case changed
    /// Both.
    case all
}

/// `--shard K/N`: the jobs whose stable hash falls in shard K of N.
struct Shard: Sendable, Equatable {
    /// From 1 to `count`.
    let index: Int
    let count: Int

    init(parsing text: String) throws(CommandFailure) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false).map { Int($0) }
        guard parts.count == 2, let index = parts[0], let count = parts[1], (1...1000).contains(count), (1...count).contains(index) else {
            throw CommandFailure.usage("--shard: expected K/N with 1 ≤ K ≤ N ≤ 1000, such as 2/4, got '\(text)'")
        }
        self.index = index
        self.count = count
    }

    /// Whether the job named `name` belongs to this shard: the first 8 bytes of the SHA-256 of its name, modulo
    /// `count`, are `index - 1`. The same name always lands in the same shard, on every host.
    func contains(_ name: String) -> Bool {
        let prefix = SHA256.digest(name.utf8).prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        return Int(prefix % UInt64(count)) == index - 1
    }
}
