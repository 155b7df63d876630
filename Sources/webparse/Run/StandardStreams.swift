import Foundation

/// stdout carries results only; stderr is for people.
enum StandardStreams {
    /// Writes `data` and a newline to stdout.
    static func writeResult(_ data: Data) {
        FileHandle.standardOutput.write(data + Data("\n".utf8))
    }

    /// Writes `line` and a newline to stderr.
    static func tell(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }

    /// True when stderr is a terminal, where progress is shown by default.
    static var stderrIsTerminal: Bool { isatty(STDERR_FILENO) == 1 }
}
