import WebParserCore
/// A command defined by a table of options; parsing, usage and help all come from the table.
struct TableCommand<Settings: Sendable>: Command {
    let name: String
    /// The operands in the usage line: `CONFIG`, `URL [SCRIPT]`.
    let operands: String
    let summary: String
    /// Paragraphs after the usage line in help.
    let details: String
    /// What each code the command exits with means, as its help lists them.
    let exitCodes: [(ExitCode, String)]
    let options: [CommandOption<Settings>]
    var operandWords: [String] = []
    let initial: Settings
    /// Checks and stores the operands.
    let takeOperands: @Sendable (inout Settings, [String]) throws(CommandFailure) -> Void
    /// Checks the settings as a whole once every option and operand is in: the options against each other.
    var validate: @Sendable (Settings) throws(CommandFailure) -> Void = { _ in }
    var loadsPages = false
    let run: @Sendable (Settings) async -> ExitCode

    var usage: String { "Usage: webparse \(name) \(operands) [options]" }

    var help: String {
        let width = max(options.map(\.synopsis.count).max() ?? 0, "-h, --help".count) + 2
        let lines =
            options.map { option in
                "  " + option.synopsis.padded(to: width) + option.help
            } + ["  " + "-h, --help".padded(to: width) + "show this help"]
        return usage + "\n\n" + details + "\n\nOptions:\n" + lines.joined(separator: "\n") + "\n\n" + ExitCode.help(exitCodes) + "\n"
    }

    var completion: CompletionInfo {
        CompletionInfo(
            options: options.map(\.spelling) + [OptionSpelling(name: "help", short: "h", valueName: nil, help: "show this help")],
            operandWords: operandWords)
    }

    func execute(_ arguments: [String]) async -> ExitCode {
        let settings: Settings
        do {
            guard let parsed = try parse(arguments) else {
                StandardStreams.writeText(help)
                return .success
            }
            settings = parsed
        } catch {
            StandardStreams.tellError("webparse \(name): \(error.message)")
            StandardStreams.tell("\(usage)\nSee 'webparse help \(name)'.")
            return error.code
        }
        return await run(settings)
    }

    /// The settings the arguments give, or nil when they ask for help.
    func parse(_ arguments: [String]) throws(CommandFailure) -> Settings? {
        var settings = initial
        var operands: [String] = []
        var remaining = arguments[...]
        var optionsEnded = false
        while let argument = remaining.popFirst() {
            if optionsEnded || argument == "-" || !argument.hasPrefix("-") {
                operands.append(argument)
                continue
            }
            if argument == "--" {
                optionsEnded = true
                continue
            }
            if argument == "--help" || argument == "-h" || argument.hasPrefix("--help=") { return nil }
            let (spelling, inlineValue) = split(argument)
            guard let option = options.first(where: { "--" + $0.name == spelling || $0.short.map { "-\($0)" } == spelling }) else {
                let near = Spelling.nearest(to: spelling, among: options.map { "--" + $0.name } + ["--help"])
                throw CommandFailure.usage("unknown option \(spelling)" + (near.map { "; did you mean \($0)?" } ?? ""))
            }
            guard option.valueName != nil else {
                guard inlineValue == nil else { throw CommandFailure.usage("--\(option.name) takes no value") }
                try option.apply(&settings, "")
                continue
            }
            guard let value = inlineValue ?? remaining.popFirst() else {
                throw CommandFailure.usage("--\(option.name) needs a value (\(option.valueName!))")
            }
            try option.apply(&settings, value)
        }
        try takeOperands(&settings, operands)
        try validate(settings)
        return settings
    }

    /// `--name=value` → ("--name", "value"); `-j4` → ("-j", "4") for a short option that takes a value.
    private func split(_ argument: String) -> (String, String?) {
        if argument.hasPrefix("--") {
            guard let equals = argument.firstIndex(of: "=") else { return (argument, nil) }
            return (String(argument[..<equals]), String(argument[argument.index(after: equals)...]))
        }
        let short = String(argument.prefix(2))
        guard argument.count > 2, options.contains(where: { $0.short.map { "-\($0)" } == short && $0.valueName != nil }) else {
            return (argument, nil)
        }
        return (short, String(argument.dropFirst(2)))
    }
}
