import FoundationEssentials
import WebParser

/// An item of a work queue (`webparse work`): an http(s) URL, or a job object with a config job's fields, read as a
/// config's job is, over the worker's defaults (its CONFIG's `defaults` and its job-field options).
package enum QueueItem {
    /// The largest item read, in bytes.
    package static let limit = 1 << 20

    /// The job of `text`, read over `defaults`; a job that gives no script (or scriptFile, or extract), and whose
    /// defaults give none, evaluates `script` (a bare URL, most often). Paths are relative to `directory`.
    /// - Throws: `ConfigError` naming the item `name` when it is larger than `limit`, neither a URL nor a job
    ///   object, or a job object with a problem (an unknown field, a wrong value, no script).
    package static func job(
        from text: Data, named name: String, defaults: ConfigReader.Defaults, script: String? = nil, directory: URL
    ) throws(ConfigError)
        -> Config.NamedJob
    {
        func failure(_ message: String) -> ConfigError { ConfigError(file: name, problems: [.init(path: "", message: message)]) }
        guard text.count <= limit else { throw failure("is larger than \(limit) bytes (1 MiB), the largest item read") }
        guard let string = String(data: text, encoding: .utf8) else { throw failure("is not UTF-8 text") }
        let trimmed = string.trimmingWhitespace()
        var reader = ConfigReader(directory: directory)
        let jobs: [Config.NamedJob]?
        let evaluates = ["script", "scriptFile", "extract"]
        func withScript(_ members: [ConfigReader.Member], keys: [String]) -> [ConfigReader.Member] {
            guard let script, keys.allSatisfy({ !evaluates.contains($0) }), !evaluates.contains(where: defaults.gives) else { return members }
            return members + [ConfigReader.Member(key: "script", input: .arguments([script]), path: "--script")]
        }
        if trimmed.hasPrefix("{") {
            let root: JSONNode
            do {
                root = try JSONNode.parse(Array(trimmed.utf8))
            } catch {
                throw ConfigError(file: name, problems: [.init(path: "", message: "invalid JSON: \(error.message)", line: error.line, column: error.column)])
            }
            guard case .object(let members) = root.value else { throw failure("expected a job object") }
            jobs = reader.jobs(
                from: withScript(members.map { ConfigReader.Member(key: $0.key, input: .node($0.value), path: $0.key) }, keys: members.map(\.key)),
                defaults: defaults, at: .node(root), path: "")
        } else if let url = URL(string: trimmed), ["http", "https"].contains(url.scheme?.lowercased() ?? "") {
            jobs = reader.jobs(
                from: withScript([ConfigReader.Member(key: "url", input: .arguments([trimmed]), path: "url")], keys: ["url"]), defaults: defaults,
                at: .arguments([]), path: "")
        } else {
            let shown = trimmed.count > 80 ? trimmed.prefix(77) + "..." : trimmed[...]
            throw failure("is neither an http(s) URL nor a job object: \(shown)")
        }
        guard let jobs, reader.problems.isEmpty else { throw ConfigError(file: name, problems: reader.problems) }
        guard jobs.count == 1, var job = jobs.first else { throw failure("is \(jobs.count) jobs (urls, a range); an item is one job") }
        if job.name.isEmpty { job.name = job.job.url.absoluteString }
        return job
    }
}
