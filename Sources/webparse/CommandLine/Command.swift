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
    /// What each code the command exits with means.
    var exitCodes: [(ExitCode, String)] { get }
    /// The whole help text.
    var help: String { get }
    var completion: CompletionInfo { get }
    /// Whether the command loads pages (and so starts WebKit).
    var loadsPages: Bool { get }
    /// Parses `arguments` (those after the command's name) and runs the command.
    func execute(_ arguments: [String]) async -> ExitCode
}

/// What shell completion needs to know about a command.
struct CompletionInfo: Sendable {
    var options: [OptionSpelling]
    /// Words the operands can be; empty: file names.
    var operandWords: [String]
}

extension OptionSpelling {
    /// What a shell completes an option's value with.
    enum CompletedValue: Equatable {
        /// No value: a flag.
        case none
        case file
        case directory
        /// One of the config's job names.
        case jobName
        /// One of these words.
        case word([String])
        /// Anything: nothing is offered.
        case free
    }

    /// What a shell completes this option's value with.
    var completedValue: CompletedValue {
        guard let valueName else { return .none }
        if valueName.contains("FILE") { return .file }
        if valueName == "DIR" { return .directory }
        if completesJobNames { return .jobName }
        return values.isEmpty ? .free : .word(values)
    }
}
