import WebParserCore
/// One option of a command: one line in the command's table.
struct CommandOption<Settings>: Sendable {
    /// The long name, without dashes: `timeout` for `--timeout`.
    let name: String
    let short: Character?
    /// The value's placeholder in help (`SECONDS`); nil for a flag.
    let valueName: String?
    let help: String
    /// Applies the option (its value, or "" for a flag) to the command's settings.
    let apply: @Sendable (inout Settings, String) throws(CommandFailure) -> Void
    /// Whether its value is a job name of the config, which shell completion asks `webparse run --list` for.
    var completesJobNames = false
    /// The words its value can be, when they are few (shell completion offers them).
    var values: [String] = []

    /// This option, its value one of `values`.
    func choosing(_ values: [String]) -> Self {
        var option = self
        option.values = values
        return option
    }

    /// This option, its value completed with the config's job names.
    func completingJobNames() -> Self {
        var option = self
        option.completesJobNames = true
        return option
    }

    /// An option without a value, such as `--jsonl`.
    static func flag(
        _ name: String, short: Character? = nil, _ help: String,
        _ apply: @escaping @Sendable (inout Settings) -> Void
    ) -> Self {
        Self(name: name, short: short, valueName: nil, help: help) { settings, _ in apply(&settings) }
    }

    /// An option with a value, such as `--output FILE`; it may be given as `--output=FILE` too.
    static func value(
        _ name: String, short: Character? = nil, _ valueName: String, _ help: String,
        _ apply: @escaping @Sendable (inout Settings, String) throws(CommandFailure) -> Void
    ) -> Self {
        Self(name: name, short: short, valueName: valueName, help: help, apply: apply)
    }

    /// `--name VALUE` or `-x`, for help.
    var synopsis: String {
        let names = (short.map { "-\($0), " } ?? "    ") + "--" + name
        return valueName.map { names + " " + $0 } ?? names
    }
}
