import WebParserCore
/// A command of `webparse`, whatever its settings.
protocol Command: Sendable {
    var name: String { get }
    /// One line for the list of commands.
    var summary: String { get }
    /// `Usage: webparse NAME OPERANDS [options]`.
    var usage: String { get }
    /// Paragraphs on what the command does, after the usage line in help.
    var details: String { get }
    /// The whole help text.
    var help: String { get }
    var completion: CompletionInfo { get }
    /// Parses `arguments` (those after the command's name) and runs the command.
    func execute(_ arguments: [String]) async -> ExitCode
}

/// What shell completion needs to know about a command.
struct CompletionInfo: Sendable {
    struct Option: Sendable {
        var name: String
        var short: Character?
        /// The value's placeholder (`FILE`, `SECONDS`); nil for a flag.
        var valueName: String?
        var help: String
        /// Whether its value is one of the config's job names.
        var completesJobNames = false
        /// The words its value can be, when they are few.
        var values: [String] = []

        var takesValue: Bool { valueName != nil }
        /// Whether the value is a file name, worth completing as one.
        var takesFile: Bool { valueName?.contains("FILE") == true }
        /// Whether the value is a folder.
        var takesDirectory: Bool { valueName == "DIR" }
    }

    var options: [Option]
    /// Words the operands can be; empty: file names.
    var operandWords: [String]
}
