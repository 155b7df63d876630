import WebParserCore

/// One option of a command: one line in the command's table, its spelling and what it does to the settings.
struct CommandOption<Settings>: SpelledOption, Sendable {
    var spelling: OptionSpelling
    /// Applies the option (its value, or "" for a flag) to the command's settings.
    let apply: @Sendable (inout Settings, String) throws(CommandFailure) -> Void

    /// An option without a value, such as `--jsonl`.
    static func flag(
        _ name: String, short: Character? = nil, _ help: String,
        _ apply: @escaping @Sendable (inout Settings) -> Void
    ) -> Self {
        Self(spelling: OptionSpelling(name: name, short: short, valueName: nil, help: help)) { settings, _ in apply(&settings) }
    }

    /// An option with a value, such as `--output FILE`; it may be given as `--output=FILE` too.
    static func value(
        _ name: String, short: Character? = nil, _ valueName: String, _ help: String,
        _ apply: @escaping @Sendable (inout Settings, String) throws(CommandFailure) -> Void
    ) -> Self {
        Self(spelling: OptionSpelling(name: name, short: short, valueName: valueName, help: help), apply: apply)
    }
}
