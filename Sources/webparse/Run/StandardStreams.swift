import Foundation

/// stdout carries results only; stderr is for people.
enum StandardStreams {
    /// Writes `data` and a newline to stdout at once (no buffering, so a pipe sees each line as it comes).
    static func writeResult(_ data: Data) {
        FileHandle.standardOutput.write(data + Data("\n".utf8))
    }

    /// Writes `text` to stdout as it is: help and completion scripts, which are what was asked for.
    static func writeText(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }

    /// Writes `line` and a newline to stderr.
    static func tell(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }

    /// Writes `line`, an error, to stderr: in red on a terminal that wants colour.
    static func tellError(_ line: String) {
        tell(usesColor ? "\u{1B}[31m\(line)\u{1B}[0m" : line)
    }

    /// True when stderr is a terminal, where progress is shown by default.
    static let stderrIsTerminal = isatty(STDERR_FILENO) == 1

    /// Colour only on a terminal, and never when `NO_COLOR` is set (https://no-color.org) or `TERM=dumb`.
    static let usesColor: Bool = {
        let environment = ProcessInfo.processInfo.environment
        return stderrIsTerminal && (environment["NO_COLOR"] ?? "").isEmpty && environment["TERM"] != "dumb"
    }()
}
