/// Why the command line's own work (a session, a state file, the output) cannot go on or went wrong: what to
/// tell the user, and the exit code that says so. Configs report their problems as `ConfigError`, jobs as
/// `WebParserError`, command lines as `UsageError`; everything else a command meets is a `CommandFailure`.
struct CommandFailure: Error {
    /// One or more lines for stderr, without the `webparse COMMAND:` prefix.
    let message: String
    let code: ExitCode
}
