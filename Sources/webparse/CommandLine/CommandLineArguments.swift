/// What the user asked for on the command line.
enum Invocation: Equatable {
    /// `webparse help [COMMAND]`, `--help`, `-h`, or no arguments at all.
    case help(command: String?)
    /// `webparse --version`.
    case version
    /// `webparse run CONFIG [options]`.
    case run(RunOptions)
}

/// The options of `webparse run`.
struct RunOptions: Equatable {
    var configPath: String
    var verbosity = Verbosity.normal
}

/// How much webparse says on stderr.
enum Verbosity: Equatable {
    /// Errors only.
    case quiet
    /// Progress when stderr is a terminal, and errors.
    case normal
    /// Progress always, and errors.
    case verbose
}

/// A command line webparse does not understand, with what to do instead.
struct UsageError: Error, Equatable {
    var message: String
}

/// Turns `CommandLine.arguments` (without the program name) into an `Invocation`.
///
/// Options may come before or after the command's operands; `--` ends the options.
enum CommandLineParser {
    static func parse(_ arguments: [String]) throws(UsageError) -> Invocation {
        var scanner = ArgumentScanner(arguments)
        guard let first = scanner.next() else { return .help(command: nil) }
        switch first {
        case .option("help"), .option("h"): return .help(command: nil)
        case .option("version"): return .version
        case .option(let name): throw UsageError(message: "unknown option \(dashed(name)); see 'webparse --help'")
        case .operand("help"):
            let topic = scanner.next()
            guard case .operand(let command)? = topic else { return .help(command: nil) }
            return .help(command: command)
        case .operand("run"): return try parseRun(&scanner)
        case .operand(let command):
            throw UsageError(message: "unknown command '\(command)'; the commands are: run, help")
        }
    }

    private static func parseRun(_ scanner: inout ArgumentScanner) throws(UsageError) -> Invocation {
        var operands: [String] = []
        var verbosity = Verbosity.normal
        while let token = scanner.next() {
            switch token {
            case .operand(let operand): operands.append(operand)
            case .option("help"), .option("h"): return .help(command: "run")
            case .option("quiet"), .option("q"): verbosity = .quiet
            case .option("verbose"), .option("v"): verbosity = .verbose
            case .option(let name):
                throw UsageError(message: "unknown option \(dashed(name)) for run; see 'webparse help run'")
            }
        }
        guard operands.count == 1 else {
            throw UsageError(message: operands.isEmpty ? "run needs a config file: webparse run CONFIG"
                             : "run takes one config file, got \(operands.count): \(operands.joined(separator: " "))")
        }
        return .run(RunOptions(configPath: operands[0], verbosity: verbosity))
    }

    private static func dashed(_ name: String) -> String { (name.count == 1 ? "-" : "--") + name }
}

/// Splits arguments into options (`-q`, `--quiet`) and operands.
struct ArgumentScanner {
    enum Token: Equatable {
        /// An option's name, without dashes.
        case option(String)
        case operand(String)
    }

    private var arguments: ArraySlice<String>
    private var optionsEnded = false

    init(_ arguments: [String]) {
        self.arguments = arguments[...]
    }

    mutating func next() -> Token? {
        guard let argument = arguments.popFirst() else { return nil }
        if optionsEnded || argument == "-" || !argument.hasPrefix("-") { return .operand(argument) }
        if argument == "--" {
            optionsEnded = true
            return next()
        }
        return .option(String(argument.drop { $0 == "-" }))
    }
}
