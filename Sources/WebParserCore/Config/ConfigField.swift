import FoundationEssentials

/// One field of a config: its key, what it means, how the command line spells it, and how it is read, from a
/// config's node or from the option's values alike. The job, run and session fields are tables of these
/// (`JobFields`, `RunFields`, `SessionFields`), which config files, `defaults`, the commands' options, help,
/// completions and the JSON Schema all follow.
package struct ConfigField<Draft>: Sendable {
    /// How the command line gives a field: `--timeout 5`, `--header 'A: b'` (repeatable), `--no-javascript`.
    package struct Option: SpelledOption, Sendable {
        /// What the option takes.
        package enum Takes: Sendable {
            /// One value, named in help by its placeholder (`SECONDS`); given again, the last one counts.
            case value(String)
            /// One value per use, each adding to the field's list.
            case values(String)
            /// Nothing: the option sets the field to this flag.
            case flag(Bool)
        }

        package var spelling: OptionSpelling
        package let takes: Takes

        /// What one use of the option adds to the values given so far (`argument` is "" for a flag).
        package func adding(_ argument: String, to values: [String]) -> [String] {
            switch takes {
            case .value: [argument]
            case .values: values + [argument]
            case .flag(let flag): [String(flag)]
            }
        }
    }

    package let key: String
    /// What the field does, for help.
    package let summary: String
    package let option: Option?
    /// Reads the field, named `path` in problems, from its input into the draft.
    let read: @Sendable (inout FieldReader, String, FieldInput, inout Draft) -> Void

    /// Reads the option's `values` (as `Option.adding` collected them) into `draft`; paths in `values` are
    /// relative to `directory`.
    /// - Returns: the problems, each named by the option (`--timeout`); empty when the values were read.
    package func readOption(_ values: [String], into draft: inout Draft, directory: URL) -> [ConfigError.Problem] {
        var reader = FieldReader(directory: directory)
        read(&reader, "--" + (option?.name ?? key), .arguments(values), &draft)
        return reader.problems
    }
}

extension ConfigField.Option {
    private init(_ name: String, short: Character? = nil, takes: Takes, help: String) {
        let valueName: String? =
            switch takes {
            case .value(let name), .values(let name): name
            case .flag: nil
            }
        self.init(spelling: OptionSpelling(name: name, short: short, valueName: valueName, help: help), takes: takes)
    }

    static func value(_ name: String, short: Character? = nil, _ valueName: String, _ help: String) -> Self {
        Self(name, short: short, takes: .value(valueName), help: help)
    }

    static func values(_ name: String, _ valueName: String, _ help: String) -> Self {
        Self(name, takes: .values(valueName), help: help)
    }

    static func flag(_ name: String, _ flag: Bool, _ help: String) -> Self {
        Self(name, takes: .flag(flag), help: help)
    }
}
