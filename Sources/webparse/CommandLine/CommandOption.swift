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

    /// An option whose value is a whole number within `range`, such as `--fail-after N`, read as a field's number is;
    /// `what` names it in the problem ("a number of runs").
    static func count(
        _ name: String, _ valueName: String, in range: ClosedRange<Int>, what: String, _ help: String,
        _ apply: @escaping @Sendable (inout Settings, Int) -> Void
    ) -> Self {
        read(name, valueName, help, { text throws(ConfigError) in try FieldReader.count(of: "--" + name, text, in: range, what: what) }, apply)
    }

    /// An option whose value is a number of seconds within `range`, such as `--lease SECONDS`, read as a field's is.
    static func seconds(
        _ name: String, in range: ClosedRange<Double>, _ help: String, _ apply: @escaping @Sendable (inout Settings, Duration) -> Void
    ) -> Self {
        read(name, "SECONDS", help, { text throws(ConfigError) in try FieldReader.seconds(of: "--" + name, text, in: range) }, apply)
    }

    /// An option whose value `reader` reads as a field's is; a value it refuses is a usage error with its problems.
    private static func read<Value>(
        _ name: String, _ valueName: String, _ help: String, _ reader: @escaping @Sendable (String) throws(ConfigError) -> Value,
        _ apply: @escaping @Sendable (inout Settings, Value) -> Void
    ) -> Self {
        value(name, valueName, help) { settings, text throws(CommandFailure) in
            do throws(ConfigError) {
                apply(&settings, try reader(text))
            } catch {
                throw CommandFailure.usage(error.problems)
            }
        }
    }
}
