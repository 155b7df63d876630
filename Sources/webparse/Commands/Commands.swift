import WebParserCore
/// Every command of `webparse`.
enum Commands {
    static let all: [any Command] = [
        RunCommand.command, EvalCommand.command, SnapshotCommand.command, WorkCommand.command, ValidateCommand.command, StatusCommand.command,
        CompletionsCommand.command,
        HelpCommand.command
    ]

    static func named(_ name: String) -> (any Command)? { all.first { $0.name == name } }

    /// The command `arguments` name, and its place: the first argument, or after options meant for it
    /// (`webparse -q run …`); nil when there is none.
    static func named(in arguments: [String]) -> (command: any Command, position: Int)? {
        guard let first = arguments.first else { return nil }
        let position = first.hasPrefix("-") ? arguments.firstIndex { named($0) != nil } : 0
        guard let position, let command = named(arguments[position]) else { return nil }
        return (command, position)
    }

    static var names: String { all.map(\.name).joined(separator: ", ") }
}
