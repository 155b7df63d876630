/// How the command line spells an option: the one description that a command's options, the config fields' options,
/// help, the man page and shell completion share.
package struct OptionSpelling: Sendable {
    /// The long name, without dashes: `timeout` for `--timeout`.
    package let name: String
    package let short: Character?
    /// The value's placeholder in help (`SECONDS`); nil for a flag.
    package let valueName: String?
    /// What the option does, in its own terms, for help.
    package let help: String
    /// The words its value can be, when they are few (shell completion offers them); empty otherwise.
    package var values: [String] = []
    /// Whether its value is a job name of the config, which shell completion asks `webparse run --list` for.
    package var completesJobNames = false

    /// `--name`, short `-s`, taking a value named `valueName` (nil: a flag), doing `help`.
    package init(name: String, short: Character? = nil, valueName: String?, help: String) {
        self.name = name
        self.short = short
        self.valueName = valueName
        self.help = help
    }

    /// `--name VALUE` or `-x, --name`, for help.
    package var synopsis: String {
        let names = (short.map { "-\($0), " } ?? "    ") + "--" + name
        return valueName.map { names + " " + $0 } ?? names
    }
}

/// An option described by a spelling, whose parts read as its own (`option.name`).
@dynamicMemberLookup
package protocol SpelledOption {
    var spelling: OptionSpelling { get set }
}

extension SpelledOption {
    /// The spelling's `member`.
    package subscript<Value>(dynamicMember member: KeyPath<OptionSpelling, Value>) -> Value {
        spelling[keyPath: member]
    }

    /// This option, its value one of `values` (what shell completion offers).
    package func choosing(_ values: [String]) -> Self {
        var option = self
        option.spelling.values = values
        return option
    }

    /// This option, its value completed with the config's job names.
    package func completingJobNames() -> Self {
        var option = self
        option.spelling.completesJobNames = true
        return option
    }
}
