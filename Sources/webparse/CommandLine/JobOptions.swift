import Foundation
import WebParseCore
import WebParser

/// Settings of commands that describe one job on the command line (`eval`, `snapshot`): the job-field
/// options given, by field key, with their values in order.
protocol JobOptionSettings: Sendable {
    var fields: [String: [String]] { get set }
}

extension CommandOption where Settings: JobOptionSettings {
    /// One option per job field that has one (`--timeout`, `--header`…), as `webparse help run` lists the fields.
    static var jobFieldOptions: [Self] {
        JobFields.all.compactMap { field in
            field.option.map { option in
                Self(name: option.name, short: nil, valueName: option.valueName, help: option.help) { settings, value in
                    settings.fields[field.key] = option.repeatable || option.valueName == nil
                        ? settings.fields[field.key, default: []] + [value] : [value]
                }
            }
        }
    }
}

/// Turns a command line's URL, script and job-field options into a job, checked as a config's job would be.
enum JobOptions {
    /// Whether `fields` ask for the values user scripts emit rather than a script's result.
    static func collectsEmitted(_ fields: [String: [String]]) -> Bool { fields["collect"] == ["emitted"] }

    /// The job for `url` and `script` (none for a job that collects emitted values) with the options in
    /// `fields`; `waitFor` applies unless `--wait-for` was given. Relative paths are relative to the current
    /// folder.
    /// - Throws: `UsageError` listing every problem, each named by its operand or option.
    static func job(url: String, script: String?, waitFor: String?, fields: [String: [String]]) throws(UsageError) -> WebParserJob {
        func member(_ key: String, _ value: JSONNode.Value, _ path: String) -> ConfigReader.Member {
            ConfigReader.Member(key: key, node: JSONNode(value: value, line: 0, column: 0), path: path)
        }
        var members = [member("url", .string(url), "URL")]
        if let script { members.append(member("script", .string(script), "SCRIPT")) }
        if let waitFor, fields["waitFor"] == nil {
            members.append(member("waitFor", .string(waitFor), "--wait-for"))
        }
        for field in JobFields.all {
            guard let option = field.option, let values = fields[field.key] else { continue }
            members.append(member(field.key, try option.node(values), "--" + option.name))
        }
        var reader = ConfigReader(directory: URL(fileURLWithPath: FileManager.default.currentDirectoryPath))
        let named = reader.job(from: members, at: JSONNode(value: .null, line: 0, column: 0), path: "")
        guard let named, reader.problems.isEmpty else {
            throw UsageError(message: reader.problems.map { "\($0.path): \($0.message)" }.joined(separator: "\n"))
        }
        return named.job
    }
}
