import WebParserCore
/// `webparse help [COMMAND]`, and the text of `webparse --help`.
struct HelpCommand {
    struct Settings: Sendable {
        var topic: String?
        var manual = false
    }

    /// `webparse VERSION`, VERSION from the repository's VERSION file.
    static let version = "webparse " + ReleaseVersion.number

    static let command = TableCommand<Settings>(
        name: "help", operands: "[COMMAND]", summary: "show help, for one command if named",
        details: "Shows what webparse does, or the usage, options and details of COMMAND.",
        exitCodes: [(.success, "the help was printed"), (.usage, "a command webparse does not have")],
        options: [.flag("man", "print the manual page webparse(1), in roff") { $0.manual = true }], initial: Settings(),
        takeOperands: { settings, operands throws(CommandFailure) in
            guard operands.count <= 1 else { throw CommandFailure.usage("expected at most one COMMAND") }
            settings.topic = operands.first
        },
        run: { settings in
            if settings.manual {
                StandardStreams.writeText(ManPage.text)
                return .success
            }
            guard let topic = settings.topic else {
                StandardStreams.writeText(general)
                return .success
            }
            guard let command = Commands.named(topic) else {
                let near = Spelling.nearest(to: topic, among: Commands.all.map(\.name)).map { "did you mean '\($0)'? " } ?? ""
                StandardStreams.tellError("webparse help: no command '\(topic)'; \(near)the commands are \(Commands.names)")
                return .usage
            }
            StandardStreams.writeText(command.help)
            return .success
        })

    /// What `webparse --help` prints.
    static var general: String {
        let width = (Commands.all.map(\.name.count).max() ?? 0) + 4
        return """
            webparse: load JavaScript-rendered pages in WebKitGTK and print the data a script extracts, as JSON.

            Usage: webparse COMMAND [options]

            Commands:
            \(Commands.all.map { "  " + $0.name.padded(to: width) + $0.summary }.joined(separator: "\n"))

            Options:
              -h, --help    show this help ('webparse help COMMAND' for a command's)
              --version     print the version

            A config is a JSON file holding one job or a list of them:
              {"url": "https://example.com/updates", "script": "document.title"}
              {"defaults": {"timeout": 20}, "jobs": [{"name": "comics", "url": "…", "script": "…"}, …]}

            \(ExitCode.help)

            """
    }

    /// What `webparse` alone prints on stderr.
    static var shortUsage: String {
        "Usage: webparse COMMAND [options]; the commands are \(Commands.names). See 'webparse --help'."
    }
}
