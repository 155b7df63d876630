import WebParserCore

/// Why a command cannot go on or went wrong: what to tell the user, and the exit code that says so. Configs
/// report their problems as `ConfigError` and jobs as `WebParserError`; everything the command line itself
/// meets, from its own arguments to a state file it cannot save, is a `CommandFailure`.
struct CommandFailure: Error {
    /// One or more lines for stderr, without the `webparse COMMAND:` prefix.
    let message: String
    let code: ExitCode

    /// A command line webparse does not understand, with what is wrong (exit 2, and the command's usage).
    static func usage(_ message: String) -> Self { Self(message: message, code: .usage) }

    /// Options whose values are wrong: one line per problem, named by its option (`--timeout: expected …`).
    static func usage(_ problems: [ConfigError.Problem]) -> Self {
        usage(problems.map { "\($0.path): \($0.message)" }.joined(separator: "\n"))
    }
}
