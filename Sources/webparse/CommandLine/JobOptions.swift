import FoundationEssentials
import WebParserCore
import WebParser

/// Settings of commands that describe one job on the command line (`eval`, `snapshot`): the job fields the
/// options give, read by each field's own reader as the option is parsed.
protocol JobOptionSettings: Sendable {
    var fields: ConfigReader.Defaults { get set }
    /// A JSON file holding the job's steps, as a config's `steps` array.
    var stepsFile: String? { get set }
}

extension CommandOption where Settings: JobOptionSettings {
    /// One option per job field that has one (`--timeout`, `--header`…), as `webparse help run` lists the fields.
    static var jobFieldOptions: [Self] {
        [.value("steps", "FILE", "run the steps in FILE, a JSON array as a config's steps field (instead of --step)") { $0.stepsFile = $1 }]
            + JobFields.all.compactMap { field in
                field.option.map { option in
                    Self(spelling: option.spelling) { settings, value in
                        settings.fields.read(option: field, value, directory: URL(fileURLWithPath: FileManager.default.currentDirectoryPath))
                    }
                }
            }
    }
}

/// Turns a command line's URL and script, and the job fields its options gave, into a job, checked as a
/// config's job is.
enum JobOptions {
    /// The job for `url` and `script` (none for a job that collects emitted values) with the job fields `fields`
    /// gives and the steps in `stepsFile`; `waitFor` applies unless `--wait-for` was given. Relative paths are
    /// relative to the current folder.
    /// - Throws: `CommandFailure` (exit 2) listing every problem, each named by its operand or option.
    static func job(url: String, script: String?, waitFor: String?, fields: ConfigReader.Defaults, stepsFile: String? = nil)
        throws(CommandFailure) -> Config.NamedJob
    {
        var members = [ConfigReader.Member(key: "url", input: .arguments([url]), path: "URL")]
        if let script { members.append(ConfigReader.Member(key: "script", input: .arguments([script]), path: "SCRIPT")) }
        if let waitFor, !fields.gives("waitFor") {
            members.append(ConfigReader.Member(key: "waitFor", input: .arguments([waitFor]), path: "--wait-for"))
        }
        if let stepsFile {
            guard !fields.gives("steps") else { throw CommandFailure.usage("give --step or --steps, not both") }
            switch ConfigReader.Member.steps(fromFile: stepsFile) {
            case .success(let member): members.append(member)
            case .failure(let problem): throw CommandFailure.usage(problem.message)
            }
        }
        var reader = ConfigReader(directory: URL(fileURLWithPath: FileManager.default.currentDirectoryPath))
        let jobs = reader.jobs(from: members, defaults: fields, at: .arguments([]), path: "")
        guard let jobs, fields.problems.isEmpty, reader.problems.isEmpty else { throw CommandFailure.usage(fields.problems + reader.problems) }
        guard jobs.count == 1 else { throw CommandFailure.usage("URL: one page at a time; for several, use a config's urls or run --urls") }
        return jobs[0]
    }
}
