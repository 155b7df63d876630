import WebParserCore
/// Settings of commands that talk on stderr.
protocol TalkativeSettings: Sendable {
    var verbosity: Verbosity { get set }
}

extension CommandOption where Settings: TalkativeSettings {
    static var quiet: Self { .flag("quiet", short: "q", "print nothing on stderr but errors") { $0.verbosity = .quiet } }
    static var verbose: Self {
        .flag("verbose", short: "v", "print a line for each step of each job on stderr (not a terminal's progress line)") {
            $0.verbosity = .verbose
        }
    }
}

extension TableCommand {
    /// A `takeOperands` for commands with exactly one operand, named `name` in messages.
    static func single(_ name: String, _ store: @escaping @Sendable (inout Settings, String) -> Void)
        -> @Sendable (inout Settings, [String]) throws(CommandFailure) -> Void
    {
        { settings, operands throws(CommandFailure) in
            guard operands.count == 1 else {
                throw CommandFailure.usage(
                    operands.isEmpty
                        ? "missing \(name)"
                        : "expected one \(name), got \(operands.count): \(operands.joined(separator: " "))")
            }
            store(&settings, operands[0])
        }
    }
}

/// Settings of the commands that load pages (`run`, `eval`, `snapshot`): a session, a HAR file, how much is said.
protocol PageCommandSettings: TalkativeSettings, SessionOptionSettings, HARSettings {}

extension CommandOption where Settings: PageCommandSettings {
    /// The options every command that loads pages ends its table with: the session's, `--har`, then `--quiet` and
    /// `--verbose`; with `harContent`, `--har-content` after `--har` (`run` reads it as a field of the config's).
    static func pageCommandOptions(harContent: Bool = true) -> [Self] {
        sessionOptions + [.har] + (harContent ? [.harContent] : []) + [.quiet, .verbose]
    }
}
