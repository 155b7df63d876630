import Foundation
import WebParser

/// Reads a webparse config file (or stdin) and checks every field, reporting all problems at once: what
/// `webparse run` and `webparse validate` do with a config, for a Swift app.
public enum ConfigLoader {
    /// The path that means "read the config from stdin".
    static let standardInput = "-"

    /// Loads the config at `path`, or from stdin when `path` is "-"; paths in a config from stdin are
    /// relative to the current folder.
    /// - Throws: `ConfigError` naming the file and every problem in it.
    public static func load(path: String) throws(ConfigError) -> Config {
        let name = path == standardInput ? "<stdin>" : path
        let bytes = try readBytes(path, name: name)
        let directory = path == standardInput ? URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
            : URL(fileURLWithPath: path).deletingLastPathComponent()
        return try parse(bytes, name: name, directory: directory)
    }

    /// Checks `bytes` as the config named `name`, whose paths are relative to `directory`.
    /// - Throws: `ConfigError` naming `name` and every problem.
    public static func parse(_ bytes: [UInt8], name: String, directory: URL) throws(ConfigError) -> Config {
        let content = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? bytes.dropFirst(3) : bytes[...]
        guard !content.allSatisfy({ [0x20, 0x09, 0x0A, 0x0D].contains($0) }) else {
            throw ConfigError(file: name, problems: [.init(
                path: "", message: "is empty; a config is a JSON object such as {\"url\": \"…\", \"script\": \"…\"}")])
        }
        let root: JSONNode
        do {
            root = try JSONNode.parse(bytes)
        } catch {
            throw ConfigError(file: name, problems: [.init(path: "", message: "invalid JSON: \(error.message)",
                                                          line: error.line, column: error.column)])
        }
        var reader = ConfigReader(directory: directory)
        let config = reader.config(from: root)
        guard let config, reader.problems.isEmpty else {
            let inFileOrder = reader.problems.enumerated().sorted { first, second in
                let a = (first.element.line ?? 0, first.element.column ?? 0, first.offset)
                let b = (second.element.line ?? 0, second.element.column ?? 0, second.offset)
                return a < b
            }.map(\.element)
            throw ConfigError(file: name, problems: inFileOrder)
        }
        return config
    }

    private static func readBytes(_ path: String, name: String) throws(ConfigError) -> [UInt8] {
        func failure(_ message: String) -> ConfigError {
            ConfigError(file: name, problems: [.init(path: "", message: message)], isUnreadable: true)
        }
        do {
            return [UInt8](path == standardInput ? try InputFile.read(descriptor: STDIN_FILENO)
                           : try InputFile.read(path, what: "config file"))
        } catch {
            throw failure(error.reason)
        }
    }
}
