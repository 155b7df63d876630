import FoundationEssentials
import Glibc
import WebParserCore
import WebParser

/// `webparse eval URL [SCRIPT|-]`: one page, no config file.
struct EvalCommand {
    struct Settings: PageCommandSettings, JobOptionSettings {
        var url = ""
        var script: String?
        var scriptFile: String?
        var raw = false
        /// `--items` and `--field`: an extraction instead of SCRIPT.
        var items: String?
        var extractFields: [String] = []
        /// The job fields the options give.
        var fields = ConfigReader.Defaults()
        var stepsFile: String?
        var session = SessionOptions()
        var harFile: String?
        var harContent: HARContent?
        var verbosity = Verbosity.normal
    }

    /// What `eval` evaluates without a SCRIPT: the rendered page, once it has loaded.
    static let renderedHTML = "document.documentElement.outerHTML"
    static let loaded = "document.readyState === 'complete'"

    static let command = TableCommand<Settings>(
        name: "eval", operands: "URL [SCRIPT|-]", summary: "evaluate SCRIPT in one page and print the result",
        details: """
            Loads URL (an http(s) or file URL, a path, or a host name such as example.com/updates, loaded over
            https) and prints SCRIPT's first non-empty result as JSON; "-" reads SCRIPT from stdin, and
            --script-file from a file. Without SCRIPT, prints the rendered HTML once the page has loaded (add
            --wait-for to wait for the data too). The options set the job fields of the same name (see 'webparse
            help run').
            """,
        exitCodes: [(.success, "the page gave its result"), (.jobFailed, "the page failed, or a page its follow or its crawl found did")]
            + ExitCode.general(.usage, .environment, .sessionLocked, .outputClosed) + ExitCode.stopped,
        options: [
            .value("script-file", "FILE", "read SCRIPT from FILE") { $0.scriptFile = $1 },
            .flag("raw", "print a string result as it is, not as a JSON string") { $0.raw = true },
            .value("items", "SELECTOR", "extract the items SELECTOR matches (CSS, or xpath:…) instead of evaluating SCRIPT") { $0.items = $1 },
            .value("field", "NAME=SELECTOR", "a field of each item (of the page without --items): .title, a@href, xpath:…; repeatable") {
                $0.extractFields.append($1)
            }
        ] + CommandOption.jobFieldOptions + CommandOption.pageCommandOptions(),
        initial: Settings(),
        takeOperands: { settings, operands throws(CommandFailure) in
            guard (1...2).contains(operands.count) else {
                throw CommandFailure.usage(operands.isEmpty ? "missing URL" : "expected URL and at most one SCRIPT")
            }
            settings.url = operands[0]
            settings.script = operands.count == 2 ? operands[1] : nil
            if settings.script != nil && settings.scriptFile != nil { throw CommandFailure.usage("give SCRIPT or --script-file, not both") }
        },
        loadsPages: true,
        run: { await EvalCommand(settings: $0).execute() })

    let settings: Settings

    func execute() async -> ExitCode {
        await SingleJob.run(Self.command, settings: settings) { () throws(CommandFailure) in
            if settings.items != nil || !settings.extractFields.isEmpty {
                guard settings.script == nil && settings.scriptFile == nil else { throw CommandFailure.usage("give SCRIPT or --items/--field, not both") }
                var reader = FieldReader(directory: URL(fileURLWithPath: FileManager.default.currentDirectoryPath))
                guard let extraction = reader.extraction(items: settings.items, fields: settings.extractFields) else {
                    throw CommandFailure.usage(reader.problems)
                }
                // The extraction is read instead of a script.
                var named = try JobOptions.job(url: settings.url, script: "true", waitFor: nil, fields: settings.fields, stepsFile: settings.stepsFile)
                named.job.evaluation.extract = extraction
                return named
            }
            let script = try givenScript()
            // Without SCRIPT: the rendered HTML once loaded, or, collecting emitted values or responses, no script
            // at all.
            let emitted = settings.fields.collectsWithoutScript || settings.fields.gives("extract")
            return try JobOptions.job(
                url: settings.url, script: script ?? (emitted ? nil : Self.renderedHTML),
                waitFor: script == nil && !emitted ? Self.loaded : nil, fields: settings.fields,
                stepsFile: settings.stepsFile)
        } use: { result in
            StandardStreams.writeResult(settings.raw ? Self.rawText(result.data) : result.data)
            return .success
        }
    }

    /// SCRIPT as given: the operand, stdin for "-", or the contents of --script-file; nil for none.
    /// - Throws: `CommandFailure` (exit 2) when stdin or the file cannot be read as UTF-8 text.
    private func givenScript() throws(CommandFailure) -> String? {
        let file = settings.script == "-" ? nil : settings.scriptFile
        guard settings.script == "-" || file != nil else { return settings.script }
        let name = file.map { "--script-file: \($0)" } ?? "SCRIPT from stdin"
        let data: Data
        do {
            data = try file.map { path throws(InputFile.Failure) in try InputFile.read(path) } ?? InputFile.read(descriptor: STDIN_FILENO)
        } catch {
            throw CommandFailure.usage("\(name) \(error)")
        }
        guard let text = String(data: data, encoding: .utf8) else { throw CommandFailure.usage("\(name): not UTF-8 text") }
        return text
    }

    /// A JSON string's contents; any other JSON as it is.
    private static func rawText(_ json: Data) -> Data {
        guard json.first == UInt8(ascii: "\""), let text = (try? JSONNode.parse(Array(json), rules: .lenient))?.string else { return json }
        return Data(text.utf8)
    }
}
