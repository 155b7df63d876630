import Foundation
import WebParser

/// `webparse run CONFIG`: runs the config's jobs one after another and prints their results.
struct RunCommand {
    struct Settings: TalkativeSettings {
        var configPath = ""
        var only: [String] = []
        var jsonLines = false
        var output: String?
        var verbosity = Verbosity.normal
    }

    static let command = TableCommand<Settings>(
        name: "run", operands: "CONFIG", summary: "run the jobs in CONFIG and print their results",
        details: """
            Loads each job's page in an offscreen WebKit view, evaluates the job's script until it returns
            something other than null, undefined, "", [] or {}, and prints the result as JSON on stdout. One job:
            its result alone. A "jobs" list: one object with each successful job's result under its name, in
            config order (failed jobs are explained on stderr). CONFIG "-" reads the config from stdin.
            Only results go to stdout; progress and errors go to stderr.

            Job fields (every one but name can also be set in "defaults"):
            \(JobFields.all.map { "  " + $0.key.padding(toLength: 14, withPad: " ", startingAt: 0) + $0.summary }.joined(separator: "\n"))

            \(ExitCode.help)
            """,
        options: [
            .value("only", "NAME", "run only the named job; repeat, or separate names with commas") { settings, names throws(UsageError) in
                guard !names.trimmingCharacters(in: .whitespaces).isEmpty else { throw UsageError(message: "--only needs a job name") }
                settings.only.append(names)
            },
            .flag("jsonl", "one JSON line per job as it finishes, with its status, URL, attempts and time") { $0.jsonLines = true },
            .value("output", short: "o", "FILE", "write the output to FILE, atomically, instead of stdout (\"-\": stdout)") {
                $0.output = $1 == "-" ? nil : $1
            },
            .quiet, .verbose,
        ],
        initial: Settings(), takeOperands: TableCommand.single("CONFIG") { $0.configPath = $1 },
        run: { await RunCommand(settings: $0).execute() })

    let settings: Settings

    func execute() async -> ExitCode {
        let config: Config
        do {
            config = try ConfigLoader.load(path: settings.configPath)
        } catch {
            StandardStreams.tellError(error.description)
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
        if let output = settings.output, let problem = AtomicFile.checkWritable(output) {
            StandardStreams.tellError("webparse run: --output: \(problem)")
            return .usage
        }
        let jobs = only.isEmpty ? config.jobs : config.jobs.filter { only.contains($0.name) }
        let reporter = ProgressReporter(verbosity: settings.verbosity)
        let parser = WebParser()
        var outcomes: [JobOutcome] = []
        var lines = Data()
        for named in jobs {
            let start = ContinuousClock.now
            let result: Result<WebParserResult, WebParserError>
            do {
                result = .success(try await parser.run(named.job, onStateChange: reporter.observer(for: named.name)))
            } catch let error as WebParserError {
                reporter.jobFailed(named.name, error)
                if case .environmentUnavailable = error.kind { return .environment }
                result = .failure(error)
            } catch {
                return .interrupted
            }
            let outcome = JobOutcome(name: named.name, url: named.job.url, result: result, elapsed: ContinuousClock.now - start)
            outcomes.append(outcome)
            if settings.jsonLines {
                settings.output == nil ? StandardStreams.writeResult(outcome.jsonLine) : lines.append(outcome.jsonLine + Data("\n".utf8))
            }
        }
        let succeeded = outcomes.compactMap { outcome in (try? outcome.result.get()).map { (outcome.name, $0.data) } }
        if !settings.jsonLines {
            let document = config.isSingleJob ? succeeded.first?.1
                : JSONText.object(succeeded.map { ($0.0, JSONText.Value.raw($0.1)) })
            if let document {
                settings.output == nil ? StandardStreams.writeResult(document) : lines.append(document + Data("\n".utf8))
            }
        }
        // A run where every job failed keeps the last output, unless the output is the failure records.
        if let output = settings.output, !succeeded.isEmpty || settings.jsonLines && !outcomes.isEmpty {
            do {
                try AtomicFile.write(lines, to: output)
            } catch {
                StandardStreams.tellError("webparse run: \(error)")
                return .jobFailed
            }
        }
        return succeeded.count == outcomes.count ? .success : .jobFailed
    }
}
