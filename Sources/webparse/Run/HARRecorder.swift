import FoundationEssentials
import Synchronization
import WebParser
import WebParserCore

/// Settings of commands that write a HAR file (`--har FILE`, `--har-content`).
protocol HARSettings: Sendable {
    var harFile: String? { get set }
    var harContent: HARContent? { get set }
}

extension CommandOption where Settings: HARSettings {
    /// `--har FILE`.
    static var har: Self {
        .value("har", "FILE", "write every page's requests (and their bodies, see --har-content) to FILE as a HAR 1.2 file, atomically") {
            $0.harFile = $1
        }
    }

    /// `--har-content embed|omit`, as the config field `harContent` reads it.
    static var harContent: Self { fieldOptions([RunFields.harContent], into: \.harContentDraft)[0] }
}

extension HARSettings {
    /// `harContent` as the run settings' field reads it.
    var harContentDraft: RunSettings {
        get { RunSettings(harContent: harContent) }
        set { harContent = newValue.harContent }
    }
}

/// The requests of a run's pages, kept per job (and per page a job's crawl or follow loaded) as each attempt ends,
/// and written as one HAR file at the end of the run, whether its jobs succeeded or not.
final class HARRecorder: Sendable {
    let path: String
    let content: HARContent
    /// The last attempt's requests of each page, by its name, the pages in the order they were asked for, and the
    /// values of the environment variables the jobs' steps typed, by name.
    private let recorded = Mutex(Recorded())

    private struct Recorded {
        var requests: [String: [WebParserRequest]] = [:]
        var pages: [(name: String, url: String)] = []
        var secrets: [String: String] = [:]
    }

    /// A recorder writing to `path`, with the response bodies `content` says (embedded by default).
    /// - Throws: `CommandFailure` (exit 2) when `path` cannot be written, before anything runs.
    init(path: String, content: HARContent?) throws(CommandFailure) {
        if let problem = AtomicFile.checkWritable(path) { throw CommandFailure.usage("--har: \(problem)") }
        self.path = path
        self.content = content ?? .embed
    }

    /// Records `job`'s requests as the page `name`, its `secrets` shown as `[env NAME]`: asks the job for them,
    /// and hands back the handler that keeps them.
    func record(_ job: inout WebParserJob, as name: String, secrets: [String: String] = [:]) -> @Sendable (WebParserMessage) -> Void {
        job.recordsRequests = true
        job.recordsBodies = content == .embed
        recorded.withLock {
            $0.pages.append((name, job.url.absoluteString))
            $0.secrets.merge(secrets) { $1 }
        }
        return { [self] message in
            guard case .requests(let list) = message else { return }
            recorded.withLock { $0.requests[name] = list }
        }
    }

    /// `handler` and, before it, the recording of `job`'s requests as the page `name`.
    func recording(_ job: inout WebParserJob, as name: String, besides handler: @escaping @Sendable (WebParserMessage) -> Void)
        -> @Sendable (WebParserMessage) -> Void
    {
        let keep = record(&job, as: name)
        return { message in
            keep(message)
            handler(message)
        }
    }

    /// Writes the HAR file.
    /// - Throws: `CommandFailure` (exit 1) when it cannot be written.
    func write() throws(CommandFailure) {
        let log = recorded.withLock { recorded in
            HARLog.json(
                of: recorded.pages.map { HARLog.Page(name: $0.name, url: $0.url, requests: recorded.requests[$0.name] ?? []) },
                version: ReleaseVersion.number, secrets: recorded.secrets)
        }
        do throws(AtomicFile.Failure) {
            // Private, as state files are: a HAR holds cookies, headers and what steps typed.
            try AtomicFile.write(log, to: path, permissions: 0o600, exactPermissions: true)
        } catch {
            throw CommandFailure(message: "--har: \(error)", code: .jobFailed)
        }
    }
}
