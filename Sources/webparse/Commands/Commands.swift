import WebParserCore
/// Every command of `webparse`.
enum Commands {
    static let all: [any Command] = [
        RunCommand.command, EvalCommand.command, SnapshotCommand.command, ValidateCommand.command, CompletionsCommand.command,
        HelpCommand.command
    ]

    static func named(_ name: String) -> (any Command)? { all.first { $0.name == name } }

    static var names: String { all.map(\.name).joined(separator: ", ") }
}
