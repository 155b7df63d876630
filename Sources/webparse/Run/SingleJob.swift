import FoundationEssentials
import WebParserCore
import WebParser

/// One job given on the command line (`eval`, `snapshot`): built from its options, run in the session they
/// describe, with progress and the page's messages on stderr.
enum SingleJob {
    /// Builds the job with `make` and runs it for the command `page` in the session `settings` give, with their
    /// HAR file and verbosity, following its items' detail pages when it
    /// says (`follow`); `use` gets the result and says how the command ends. Once `use` succeeds, the session's
    /// cookies are saved as the options ask.
    /// - Returns: `use`'s code; `.usage` when the options are wrong (explained with the command's usage), or the code of
    ///   what failed: the session, the job, or saving cookies.
    static func run(
        _ page: some Command, settings: some PageCommandSettings,
        make: () throws(CommandFailure) -> Config.NamedJob, use: (WebParserResult) -> ExitCode
    ) async -> ExitCode {
        let (command, usage) = (page.name, page.usage)
        var named: Config.NamedJob
        var har: HARRecorder?
        do throws(CommandFailure) {
            named = try make()
            har = try settings.harFile.map { path throws(CommandFailure) in
                try CommandFailure.delivering { () throws(DeliveryFailure) in try HARRecorder(path: path, content: settings.harContent) }
            }
        } catch {
            StandardStreams.tellError("webparse \(command): " + error.message.replacing("\n", with: "\nwebparse \(command): "))
            StandardStreams.tell("\(usage)\nSee 'webparse help \(command)'.")
            return error.code
        }
        let (follow, crawl, capturesResponses) = (named.follow, named.crawl, named.job.capture != nil)
        let setup: SessionSetup
        do throws(CommandFailure) {
            setup = try await SessionSetup.prepare(settings.session, over: SessionSettings(), recordsRequests: har != nil) {
                WebParserSession.Configuration(
                    storage: $0, proxy: $1, recycleAfter: follow == nil && crawl == nil ? 1 : WebParserSession.Configuration.defaultRecycleAfter,
                    capturesResponses: capturesResponses)
            }
        } catch {
            StandardStreams.tellError("webparse \(command): \(error.message)")
            return error.code
        }
        let reporter = ProgressReporter(verbosity: settings.verbosity)
        reporter.tellAboutLocale()
        reporter.know(1)
        defer { reporter.end() }
        var result: WebParserResult
        var remarks: (failed: String?, warning: String?) = (nil, nil)
        do {
            defer { writeHAR(har, command) }
            let pages = WebParserPages(parser: WebParserRunner(session: setup.session), concurrency: RunSettings.defaultConcurrency(.current))
            named.name = command
            let keep = har?.record(&named.job, as: command, secrets: named.secrets)
            let pipeline = PageWatch(reporter: reporter, har: har).pipeline(pages, for: named, besides: keep)
            let findings: JobFindings
            (result, findings) = try await pipeline.run(named, memory: nil)
            remarks = findings.remarks(of: named)
            if let warning = remarks.warning { StandardStreams.tell("webparse \(command): \(warning)") }
        } catch let error as WebParserError {
            reporter.jobFailed(command, error)
            if case .environmentUnavailable = error.kind { return .environment }
            return .jobFailed
        } catch {
            return .interrupted
        }
        reporter.warnIfCutShort(command, result)
        let code = use(result)
        guard code == .success else { return code }
        if let failed = remarks.failed { StandardStreams.tellError("webparse \(command): \(failed)") }
        if let problem = StandardStreams.resultFailure {
            StandardStreams.tellError("webparse \(command): \(problem)")
            return .jobFailed
        }
        do throws(CommandFailure) {
            try await setup.save(anySuccess: true, visited: URL(string: result.finalURL).map { [$0] } ?? [])
        } catch {
            StandardStreams.tellError("webparse \(command): \(error.message)")
            return error.code
        }
        return remarks.failed == nil ? .success : .jobFailed
    }

    /// Writes the HAR file, if the command asked for one; a failure to write it is said on stderr.
    private static func writeHAR(_ har: HARRecorder?, _ command: String) {
        do throws(DeliveryFailure) {
            try har?.write()
        } catch {
            StandardStreams.tellError("webparse \(command): \(error.message)")
        }
    }
}
