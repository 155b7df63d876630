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
    /// Interrupted by SIGINT (Ctrl-C).
    case interrupted = 130
    /// Stopped by SIGTERM.
    case terminated = 143
}
