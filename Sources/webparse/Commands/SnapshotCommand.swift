import FoundationEssentials
import WebParserCore
import WebParser

/// `webparse snapshot URL --png FILE [--full-page] [--html FILE]`: what a page looks like to webparse, for
/// debugging a job.
struct SnapshotCommand {
    struct Settings: PageCommandSettings, JobOptionSettings {
        var url = ""
        var png: String?
        var fullPage = false
        var html: String?
        /// The job fields the options give.
        var fields = ConfigReader.Defaults()
        var stepsFile: String?
        var session = SessionOptions()
        var harFile: String?
        var harContent: HARContent?
        var verbosity = Verbosity.normal
    }

    static let command = TableCommand<Settings>(
        name: "snapshot", operands: "URL", summary: "save a PNG and the rendered HTML of a page, to see what a job sees",
        details: """
            Loads URL as a job would (the options set the job fields of the same name, see 'webparse help run';
            images, media and fonts are blocked unless --block says otherwise), waits until the page has loaded
            (or until --wait-for is truthy), and writes a PNG of the viewport (the whole page with --full-page)
            and the rendered HTML. Files are replaced atomically. Prints {"png", "html", "finalURL", "httpStatus"}
            on stdout.
            """,
        exitCodes: [(.success, "the files were written"), (.jobFailed, "the page failed, or a file could not be written")]
            + ExitCode.general(.usage, .environment, .sessionLocked, .outputClosed) + ExitCode.stopped,
        options: [
            .value("png", "FILE", "write a PNG of the page to FILE") { $0.png = $1 },
            .flag("full-page", "take the whole page rather than the viewport") { $0.fullPage = true },
            .value("html", "FILE", "write the rendered HTML to FILE") { $0.html = $1 }
        ] + CommandOption.jobFieldOptions.filter { !["screenshot", "collect", "capture", "follow", "crawl"].contains($0.name) }
            + CommandOption.pageCommandOptions(),
        initial: Settings(),
        takeOperands: { settings, operands throws(CommandFailure) in
            try TableCommand<Settings>.single("URL") { $0.url = $1 }(&settings, operands)
            guard settings.png != nil || settings.html != nil else { throw CommandFailure.usage("give --png FILE, --html FILE or both") }
            if settings.fullPage && settings.png == nil { throw CommandFailure.usage("--full-page goes with --png") }
        },
        loadsPages: true,
        run: { await SnapshotCommand(settings: $0).execute() })

    let settings: Settings

    func execute() async -> ExitCode {
        await SingleJob.run(Self.command, settings: settings) { () throws(CommandFailure) in
            var job = try JobOptions.job(
                url: settings.url, script: settings.html == nil ? "true" : EvalCommand.renderedHTML,
                waitFor: EvalCommand.loaded, fields: settings.fields, stepsFile: settings.stepsFile)
            job.job.evaluation.screenshot = try settings.png.map { path throws(CommandFailure) in
                WebParserJob.Screenshot(file: try Self.writableFile(path, option: "--png"), fullPage: settings.fullPage)
            }
            if let html = settings.html { _ = try Self.writableFile(html, option: "--html") }
            return job
        } use: { result in
            if let html = settings.html {
                let text = (try? JSONNode.parse(Array(result.data), rules: .lenient))?.string ?? ""
                do {
                    try AtomicFile.write(Data(text.utf8), to: html)
                } catch {
                    StandardStreams.tellError("webparse snapshot: --html: \(error)")
                    return .jobFailed
                }
            }
            StandardStreams.writeResult(
                JSONText.object([
                    ("png", settings.png.map { .string(URL(fileURLWithPath: $0).standardizedFileURL.path) } ?? .null),
                    ("html", settings.html.map { .string(URL(fileURLWithPath: $0).standardizedFileURL.path) } ?? .null),
                    ("finalURL", .string(URLRedaction.redact(result.finalURL))),
                    ("httpStatus", result.httpStatus.map(JSONText.Value.integer) ?? .null)
                ]))
            return .success
        }
    }

    /// `path` as a file URL, if its folder exists.
    private static func writableFile(_ path: String, option: String) throws(CommandFailure) -> URL {
        let url = URL(fileURLWithPath: path).standardizedFileURL
        if let problem = AtomicFile.checkWritable(path) { throw CommandFailure.usage("\(option): \(problem)") }
        return url
    }
}
