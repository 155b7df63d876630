import FoundationEssentials
import Glibc
import WebParser
import Synchronization

/// stdout carries results only; stderr is for people. Both are written straight to their file descriptors, and
/// a write that fails never crashes webparse: a stdout whose reader has gone (`| head`) ends the run at once
/// (`endWhenOutputCloses`, which the command line sets), before anything is recorded in the state; any other failure to write a result
/// (a full disk) is remembered as `resultFailure`, so that the run ends with an error and records nothing; a
/// failure to write on stderr costs nothing but the message.
package enum StandardStreams {
    /// Why a result could not be written to stdout, if one could not.
    package static var resultFailure: String? { failure.withLock { $0 } }
    private static let failure = Mutex<String?>(nil)

    /// What ends the process when stdout's reader has gone; until the command line sets it, such a write is a
    /// failure like any other.
    private static let outputClosed = Mutex<@Sendable () -> Void>({})

    /// Ends the process with `end` when stdout's reader has gone, before anything else is written or recorded.
    package static func endWhenOutputCloses(_ end: @escaping @Sendable () -> Never) {
        outputClosed.withLock { $0 = { end() } }
    }

    /// Writes `data` and a newline to stdout at once (no buffering, so a pipe sees each line as it comes).
    package static func writeResult(_ data: Data) {
        guard let problem = DescriptorWriter.write(data + Data("\n".utf8), to: STDOUT_FILENO) else { return }
        if problem == EPIPE { outputClosed.withLock { $0 }() }
        failure.withLock { $0 = $0 ?? "cannot write the results to stdout: \(String(cString: strerror(problem)))" }
    }

    /// Writes `text` to stdout as it is: help and completion scripts, which are what was asked for.
    package static func writeText(_ text: String) {
        _ = DescriptorWriter.write(Data(text.utf8), to: STDOUT_FILENO)
    }

    /// Writes `line` and a newline to stderr (above the progress line, when one is shown).
    package static func tell(_ line: String) {
        progress.withLock { shown in
            let clear = shown == nil ? "" : "\r\u{1B}[K"
            _ = DescriptorWriter.write(Data((clear + line + "\n" + (shown ?? "")).utf8), to: STDERR_FILENO)
        }
    }

    /// The progress line shown at the bottom of the terminal, if one is.
    private static let progress = Mutex<String?>(nil)

    /// Shows `line` as the progress line, in place of the one before; nil takes it away.
    package static func showProgress(_ line: String?) {
        progress.withLock { shown in
            guard shown != nil || line != nil else { return }
            _ = DescriptorWriter.write(Data(("\r\u{1B}[K" + (line ?? "")).utf8), to: STDERR_FILENO)
            shown = line
        }
    }

    /// Writes `line`, an error, to stderr: in red on a terminal that wants colour.
    package static func tellError(_ line: String) {
        tell(usesColor ? "\u{1B}[31m\(line)\u{1B}[0m" : line)
    }

    /// True when stderr is a terminal, where progress is shown by default.
    package static let stderrIsTerminal = isatty(STDERR_FILENO) == 1

    /// Colour only on a terminal, and never when `NO_COLOR` is set (https://no-color.org) or `TERM=dumb`. Read
    /// from the environment webparse was started with: the first message may come while WebKit starts and adds
    /// to the environment, and reading it then could read freed memory.
    package static let usesColor: Bool = {
        let environment = LaunchEnvironment.variables
        return stderrIsTerminal && (environment["NO_COLOR"] ?? "").isEmpty && environment["TERM"] != "dumb"
    }()
}
