import WebParserCore
/// webparse's exit codes: part of its interface, documented in the README and `--help`.
enum ExitCode: Int32 {
    /// Every job succeeded.
    case success = 0
    /// At least one job failed; the other jobs' results were still printed.
    case jobFailed = 1
    /// The command line or the config is wrong; nothing was loaded.
    case usage = 2
    /// WebKit cannot run here: no display can be had, or GTK or WebKit failed to start.
    case environment = 3
    /// Another run holds the `--state` file (and `--wait-lock` ran out).
    case stateLocked = 4
    /// Another run holds the `--session` folder (and its wait ran out).
    case sessionLocked = 5
    /// `webparse work`: the queue's Redis cannot be reached (for a minute), refuses the password, or holds a key of
    /// the queue with another type.
    case queueUnavailable = 6
    /// Stopped by SIGHUP (the terminal went away).
    case hangUp = 129
    /// stdout was closed by its reader (`webparse run … | head -1`): the run stopped there and recorded nothing
    /// in the `--state` file; 128 + SIGPIPE, as a shell reports a program a closed pipe ended.
    case outputClosed = 141
    /// Interrupted by SIGINT (Ctrl-C).
    case interrupted = 130
    /// Stopped by SIGTERM.
    case terminated = 143

    /// What each code means, in the order help and the manual page list them.
    static let meanings: [(ExitCode, String)] = [
        (.success, "every job succeeded"),
        (.jobFailed, "a job failed (the other results are still printed)"),
        (.usage, "usage or config error (nothing was loaded)"),
        (.environment, "WebKit cannot run here: no display and no Xvfb, or WebKit failed to start"),
        (.stateLocked, "another run is using the --state file"),
        (.sessionLocked, "another run is using the --session folder"),
        (.queueUnavailable, "work: the queue's Redis cannot be reached, refuses the password, or holds a key of another type"),
        (.hangUp, "stopped by SIGHUP"),
        (.outputClosed, "stdout was closed by its reader (such as head); nothing was recorded in the state"),
        (.interrupted, "interrupted by SIGINT (Ctrl-C)"),
        (.terminated, "stopped by SIGTERM")
    ]

    /// The table in `--help`: every code.
    static let help = help(meanings)

    /// The table of `codes`, as a command's help shows it.
    static func help(_ codes: [(ExitCode, String)]) -> String {
        "Exit codes:\n" + codes.map { code, meaning in "  " + String(code.rawValue).padded(to: 5) + meaning }.joined(separator: "\n")
    }

    /// `codes` with what they mean for every command (`meanings`).
    static func general(_ codes: ExitCode...) -> [(ExitCode, String)] {
        codes.compactMap { code in meanings.first { $0.0 == code } }
    }

    /// What the signals that stop a command mean.
    static let stopped = general(.hangUp, .interrupted, .terminated)
}
