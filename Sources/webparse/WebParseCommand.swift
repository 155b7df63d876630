import Foundation
import WebParser

/// The `webparse` command: parses the command line, runs the command, exits with its code.
@main
enum WebParseCommand {
    static func main() async {
        let arguments = Array(CommandLine.arguments.dropFirst())
        let work = Task { await execute(arguments) }
        let trap = SignalTrap(cancelling: work)
        var code = await work.value
        if let interruption = trap.interruption { code = interruption }
        ProcessExit.exit(code)
    }

    private static func execute(_ arguments: [String]) async -> ExitCode {
        let invocation: Invocation
        do {
            invocation = try CommandLineParser.parse(arguments)
        } catch {
            StandardStreams.tell("webparse: \(error.message)")
            return .usage
        }
        switch invocation {
        case .help(let command):
            guard let text = HelpText.text(for: command) else {
                StandardStreams.tell("webparse: no help for '\(command ?? "")'; the commands are: run, help")
                return .usage
            }
            print(text)
            return .success
        case .version:
            print(HelpText.version)
            return .success
        case .run(let options):
            return await RunCommand(options: options).execute()
        }
    }
}
