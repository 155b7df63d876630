import FoundationEssentials
import Synchronization
import WebParser
import WebParserCore
import WebParserVersion

/// Settings of commands that write a HAR file (`--har FILE`).
protocol HARSettings: Sendable {
    var harFile: String? { get set }
}

extension CommandOption where Settings: HARSettings {
    /// `--har FILE`.
    static var har: Self {
        .value("har", "FILE", "write every page's requests to FILE as a HAR 1.2 file, atomically (bodies as capture took them)") { $0.harFile = $1 }
    }
}

/// The requests of a run's pages, kept per job as each attempt ends, and written as one HAR file at the end of
/// the run, whether its jobs succeeded or not.
final class HARRecorder: Sendable {
    let path: String
    /// The last attempt's requests of each job, by the job's name, and the jobs in the order they were asked for.
    private let recorded = Mutex(Recorded())

    private struct Recorded {
        var requests: [String: [WebParserRequest]] = [:]
        var pages: [(name: String, url: String)] = []
    }

    /// A recorder writing to `path`.
    /// - Throws: `CommandFailure` (exit 2) when `path` cannot be written, before anything runs.
    init(path: String) throws(CommandFailure) {
        if let problem = AtomicFile.checkWritable(path) { throw CommandFailure.usage("--har: \(problem)") }
        self.path = path
    }

    /// Records `job`'s requests as `name`: asks the job for them, and hands back the handler that keeps them.
    func record(_ job: inout WebParserJob, as name: String) -> @Sendable (WebParserMessage) -> Void {
        job.recordsRequests = true
        recorded.withLock { $0.pages.append((name, job.url.absoluteString)) }
        return { [self] message in
            guard case .requests(let list) = message else { return }
            recorded.withLock { $0.requests[name] = list }
        }
    }

    /// Writes the HAR file.
    /// - Throws: `CommandFailure` (exit 1) when it cannot be written.
    func write() throws(CommandFailure) {
        let log = recorded.withLock { recorded in
            HARLog.json(
                of: recorded.pages.map { HARLog.Page(name: $0.name, url: $0.url, requests: recorded.requests[$0.name] ?? []) },
                version: String(cString: webparse_version()))
        }
        do throws(AtomicFile.Failure) {
            // Private, as state files are: a HAR holds cookies, headers and what steps typed.
            try AtomicFile.write(log, to: path, permissions: 0o600, exactPermissions: true)
        } catch {
            throw CommandFailure(message: "--har: \(error)", code: .jobFailed)
        }
    }
}
