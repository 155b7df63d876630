import FoundationEssentials
import Glibc
import WebParser
import WebParserCore

/// The `webparse` command: finds the command named on the command line, runs it, exits with its code.
@main
enum MainCommand {
    static func main() async {
        _ = LaunchEnvironment.variables  // read before WebKit's settings are added to the environment
        _ = ProcessRenewal.launchDescriptors  // read before webparse opens any
        // A closed stdout or stderr is an error a write reports (StandardStreams), not a signal that kills.
        signal(SIGPIPE, SIG_IGN)
        StandardStreams.endWhenOutputCloses { ProcessExit.exit(.outputClosed) }
        let arguments = Array(CommandLine.arguments.dropFirst())
        // While this is the process's one thread: setenv is unsafe beside another thread's getenv.
        if Commands.named(in: arguments)?.command.loadsPages == true { WebParserRunner.prepareEnvironment() }
        let work = Task { await execute(arguments) }
        let trap = SignalTrap(cancelling: work)
        var code = await work.value
        if let interruption = trap.interruption { code = interruption }
        ProcessExit.exit(code)
    }

    private static func execute(_ arguments: [String]) async -> ExitCode {
        guard let first = arguments.first else {
            StandardStreams.tell(HelpCommand.shortUsage)
            return .usage
        }
        switch first {
        case "--help", "-h":
            StandardStreams.writeText(HelpCommand.general)
            return .success
        case "--version":
            StandardStreams.writeText(HelpCommand.version + "\n")
            return .success
        default:
            // Options may come before the command (`webparse -q run …`): they are the command's own.
            guard let (command, position) = Commands.named(in: arguments) else {
                let isOption = first.hasPrefix("-")
                let near = Spelling.nearest(to: first, among: isOption ? ["--help", "--version"] : Commands.all.map(\.name))
                StandardStreams.tellError(
                    "webparse: unknown \(isOption ? "option" : "command") '\(first)'" + (near.map { "; did you mean '\($0)'?" } ?? ""))
                StandardStreams.tell(HelpCommand.shortUsage)
                return .usage
            }
            return await command.execute(Array(arguments[..<position] + arguments[(position + 1)...]))
        }
    }
}
