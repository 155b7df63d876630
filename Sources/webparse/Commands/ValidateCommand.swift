import WebParser
import WebParserCore
/// `webparse validate CONFIG`: checks a config without loading anything.
struct ValidateCommand {
    struct Settings: Sendable {
        var configPath = ""
    }

    static let command = TableCommand<Settings>(
        name: "validate", operands: "CONFIG", summary: "check CONFIG and print ok or its problems",
        details: """
            Checks every field of CONFIG ("-" for stdin) as 'webparse run' would, without loading any page.
            Prints "ok" on stdout and exits 0, or prints its problems on stderr (the first 100, then how many more)
            and exits 2. An environment variable the config refers to (passwordEnv, {"env": …}) need not be set:
            a note on stderr names each that is not, which a run of its job needs.
            """,
        exitCodes: [(.success, "the config is valid"), (.usage, "the config is not valid or cannot be read (its problems on stderr)")],
        options: [], initial: Settings(), takeOperands: TableCommand.single("CONFIG") { $0.configPath = $1 },
        run: { settings in
            do throws(ConfigError) {
                let config = try ConfigLoader.load(path: settings.configPath, environment: LaunchEnvironment.variables, defersUnsetVariables: true)
                do throws(ConfigError) {
                    try ConfigLoader.requireVariables(of: config.jobs, name: ConfigLoader.name(of: settings.configPath))
                } catch {
                    let notes = error.description.split(separator: "\n").map { "webparse validate: note: \($0) (a run of its job needs it)" }
                    StandardStreams.tellError(notes.joined(separator: "\n"))
                }
                StandardStreams.writeText("ok\n")
                return .success
            } catch {
                StandardStreams.tellError(error.isUnreadable ? "webparse validate: \(error)" : error.description)
                return .usage
            }
        })
}
