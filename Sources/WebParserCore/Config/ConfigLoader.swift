import FoundationEssentials
import Glibc
import WebParser

/// Reads a webparse config file (or stdin) and checks every field, reporting all problems at once: what
/// `webparse run` and `webparse validate` do with a config, for a Swift app.
public enum ConfigLoader {
    /// The path that means "read the config from stdin".
    static let standardInput = "-"

    /// Loads the config at `path`, or from stdin when `path` is "-"; paths in a config from stdin are
    /// relative to the current folder, and `passwordEnv` and `{"env": NAME}` values are looked up in `environment`.
    /// - Throws: `ConfigError` naming the file and every problem in it.
    public static func load(path: String, environment: [String: String] = ProcessInfo.processInfo.environment)
        throws(ConfigError) -> Config
    {
        try load(path: path, environment: environment, defersUnsetVariables: false)
    }

    /// `load(path:environment:)`; with `defersUnsetVariables`, a variable that is not set leaves its job with the
    /// problem (`Config.NamedJob.unsetVariables`, see `requireVariables`) instead of making the config invalid.
    /// - Throws: `ConfigError` naming the file and every problem in it.
    package static func load(path: String, environment: [String: String], defersUnsetVariables: Bool) throws(ConfigError) -> Config {
        try load(path: path, environment: environment, defersUnsetVariables: defersUnsetVariables) { reader, root, _ in reader.config(from: root) }
    }

    /// The file at `path` (stdin for "-") as `read` reads its JSON with a reader whose paths are relative to the
    /// file's folder (given to `read` too) and whose variables are looked up in `environment`: a config, or a work
    /// queue worker's config.
    /// - Throws: `ConfigError` naming the file and every problem in it, in file order.
    package static func load<Value>(
        path: String, environment: [String: String], defersUnsetVariables: Bool = false,
        reading read: (inout ConfigReader, JSONNode, URL) -> Value?
    ) throws(ConfigError) -> Value {
        let name = name(of: path)
        let bytes = try readBytes(path, name: name)
        let directory =
            path == standardInput
            ? URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
            : URL(fileURLWithPath: path).deletingLastPathComponent()
        return try parse(bytes, name: name, directory: directory, environment: environment, defersUnsetVariables: defersUnsetVariables, reading: read)
    }

    /// The name a config (or URL list) at `path` has in messages: `<stdin>` for "-".
    package static func name(of path: String) -> String {
        path == standardInput ? "<stdin>" : path
    }

    /// Refuses `jobs` of the config named `name` when one of them refers to an environment variable that was not
    /// set: checked for the jobs a run loads, before it loads them.
    /// - Throws: `ConfigError` naming `name` and each such reference.
    package static func requireVariables(of jobs: [Config.NamedJob], name: String) throws(ConfigError) {
        var problems: [ConfigError.Problem] = []
        for problem in jobs.flatMap(\.unsetVariables) where !problems.contains(problem) { problems.append(problem) }
        guard problems.isEmpty else { throw ConfigError(file: name, problems: problems) }
    }

    /// Checks `bytes` as the config named `name`, whose paths are relative to `directory` and whose `passwordEnv`
    /// and `{"env": NAME}` values are looked up in `environment`.
    /// - Throws: `ConfigError` naming `name` and every problem.
    public static func parse(
        _ bytes: [UInt8], name: String, directory: URL,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(ConfigError) -> Config {
        try parse(bytes, name: name, directory: directory, environment: environment, defersUnsetVariables: false) { reader, root, _ in
            reader.config(from: root)
        }
    }

    private static func parse<Value>(
        _ bytes: [UInt8], name: String, directory: URL, environment: [String: String], defersUnsetVariables: Bool,
        reading read: (inout ConfigReader, JSONNode, URL) -> Value?
    ) throws(ConfigError) -> Value {
        let content = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? bytes.dropFirst(3) : bytes[...]
        guard !content.allSatisfy({ [0x20, 0x09, 0x0A, 0x0D].contains($0) }) else {
            throw ConfigError(
                file: name,
                problems: [
                    .init(
                        path: "", message: "is empty; a config is a JSON object such as {\"url\": \"…\", \"script\": \"…\"}")
                ])
        }
        let root: JSONNode
        do {
            root = try JSONNode.parse(bytes)
        } catch {
            throw ConfigError(
                file: name,
                problems: [
                    .init(
                        path: "", message: "invalid JSON: \(error.message)",
                        line: error.line, column: error.column)
                ])
        }
        var reader = ConfigReader(directory: directory, environment: environment, defersUnsetVariables: defersUnsetVariables)
        let value = read(&reader, root, directory)
        guard let value, reader.problems.isEmpty else {
            let inFileOrder = reader.problems.enumerated().sorted { first, second in
                let a = (first.element.line ?? 0, first.element.column ?? 0, first.offset)
                let b = (second.element.line ?? 0, second.element.column ?? 0, second.offset)
                return a < b
            }.map(\.element)
            throw ConfigError(file: name, problems: inFileOrder)
        }
        return value
    }

    /// The jobs of the URL list at `path` (stdin for "-"), each evaluating `script` (or reading `extract`, a
    /// config's extract as JSON): see `urlList`.
    /// - Throws: `ConfigError` when the list cannot be read, is not UTF-8, or holds something that is not a URL.
    public static func loadURLList(path: String, script: String?, extract: String? = nil) throws(ConfigError) -> Config {
        let name = name(of: path)
        guard let text = String(bytes: try readBytes(path, name: name), encoding: .utf8) else {
            throw ConfigError(file: name, problems: [.init(path: "", message: "is not UTF-8 text")], isUnreadable: true)
        }
        return try urlList(
            text, name: name, script: script, extract: extract, directory: URL(fileURLWithPath: FileManager.default.currentDirectoryPath))
    }

    /// A config of one job per URL in `text` (one per line; blank lines and lines starting with `#` are
    /// skipped), each named by its URL (a URL listed twice: `URL-2`) and evaluating `script` (or reading
    /// `extract`, a config's extract as JSON), as `webparse run --urls FILE --script SCRIPT` runs them; relative
    /// paths are relative to `directory`.
    /// - Throws: `ConfigError` naming `name` and every URL that is not one, by its line.
    public static func urlList(_ text: String, name: String, script: String?, extract: String? = nil, directory: URL) throws(ConfigError) -> Config {
        var reader = ConfigReader(directory: directory)
        var jobs: [Config.NamedJob] = []
        var local: [String] = []
        for (index, line) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let url = line.trimmingSpaces()
            guard !url.isEmpty, !url.hasPrefix("#") else { continue }
            let evaluation =
                extract.map { ConfigReader.Member(key: "extract", input: .arguments([$0]), path: "--extract") }
                ?? ConfigReader.Member(key: "script", input: .arguments([script ?? ""]), path: "--script")
            let members = [ConfigReader.Member(key: "url", input: .arguments([url]), path: "line \(index + 1)"), evaluation]
            let found = reader.jobs(from: members, at: .arguments([]), path: "") ?? []
            // A list of URLs often comes from pages; a page must not make webparse read a local file.
            if found.contains(where: \.job.url.isFileURL) { local.append("line \(index + 1)") }
            jobs += found
        }
        let notWeb = local.map { ConfigError.Problem(path: $0, message: "a URL list holds web pages only (http or https); use a config for local files") }
        guard notWeb.isEmpty else { throw ConfigError(file: name, problems: reader.problems + notWeb) }
        guard reader.problems.isEmpty else { throw ConfigError(file: name, problems: reader.problems) }
        guard !jobs.isEmpty else { throw ConfigError(file: name, problems: [.init(path: "", message: "holds no URL")]) }
        // Each result is named by its URL: a list's pages are told apart by nothing else.
        return Config(jobs: reader.uniquelyNamed(jobs, base: \.absoluteString), isSingleJob: false)
    }

    private static func readBytes(_ path: String, name: String) throws(ConfigError) -> [UInt8] {
        func failure(_ message: String) -> ConfigError {
            ConfigError(file: name, problems: [.init(path: "", message: message)], isUnreadable: true)
        }
        do {
            return [UInt8](
                path == standardInput
                    ? try InputFile.read(descriptor: STDIN_FILENO)
                    : try InputFile.read(path, what: "config file"))
        } catch {
            throw failure(error.reason)
        }
    }
}
