import Foundation
import WebParserCore
import WebParser

/// Settings of commands that describe one job on the command line (`eval`, `snapshot`): the values of the
/// job-field options given, by field key, as each field's option collects them.
protocol JobOptionSettings: Sendable {
    var fields: [String: [String]] { get set }
    /// A JSON file holding the job's steps, as a config's `steps` array.
    var stepsFile: String? { get set }
}

extension CommandOption where Settings: JobOptionSettings {
    /// One option per job field that has one (`--timeout`, `--header`…), as `webparse help run` lists the fields.
    static var jobFieldOptions: [Self] {
        [.value("steps", "FILE", "run the steps in FILE, a JSON array as a config's steps field (instead of --step)") { $0.stepsFile = $1 }]
        + JobFields.all.compactMap { field in
            field.option.map { option in
                Self(name: option.name, short: option.short, valueName: option.valueName, help: option.help) { settings, value in
                    settings.fields[field.key] = option.adding(value, to: settings.fields[field.key, default: []])
                }
            }
        }
    }
}

/// Turns a command line's URL, script and job-field options into a job, read by the job fields' own readers
/// and checked as a config's job is.
enum JobOptions {
    /// Whether `fields` ask for the values user scripts emit rather than a script's result.
    static func collectsEmitted(_ fields: [String: [String]]) -> Bool { fields["collect"] == ["emitted"] }

    /// The job for `url` and `script` (none for a job that collects emitted values) with the options in
    /// `fields` and the steps in `stepsFile`; `waitFor` applies unless `--wait-for` was given. Relative paths
    /// are relative to the current folder.
    /// - Throws: `CommandFailure` (exit 2) listing every problem, each named by its operand or option.
    static func job(url: String, script: String?, waitFor: String?, fields: [String: [String]], stepsFile: String? = nil)
        throws(CommandFailure) -> WebParserJob
    {
        var members = [ConfigReader.Member(key: "url", input: .arguments([url]), path: "URL")]
        if let script { members.append(ConfigReader.Member(key: "script", input: .arguments([script]), path: "SCRIPT")) }
        if let waitFor, fields["waitFor"] == nil {
            members.append(ConfigReader.Member(key: "waitFor", input: .arguments([waitFor]), path: "--wait-for"))
        }
        for field in JobFields.all {
            guard let option = field.option, let values = fields[field.key] else { continue }
            members.append(ConfigReader.Member(key: field.key, input: .arguments(values), path: "--" + option.name))
        }
        if let stepsFile {
            guard fields["steps"] == nil else { throw CommandFailure.usage("give --step or --steps, not both") }
            switch ConfigReader.Member.steps(fromFile: stepsFile) {
            case .success(let member): members.append(member)
            case .failure(let problem): throw CommandFailure.usage(problem.message)
            }
        }
        var reader = ConfigReader(directory: URL(fileURLWithPath: FileManager.default.currentDirectoryPath))
        let jobs = reader.jobs(from: members, at: .arguments([]), path: "")
        guard let jobs, reader.problems.isEmpty else { throw CommandFailure.usage(reader.problems) }
        guard jobs.count == 1 else { throw CommandFailure.usage("URL: one page at a time; for several, use a config's urls or run --urls") }
        return jobs[0].job
    }
}
