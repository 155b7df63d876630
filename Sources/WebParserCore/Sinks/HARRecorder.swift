import FoundationEssentials
import Synchronization
import WebParser

/// The requests of a run's pages, kept per job (and per page a job's crawl or follow loaded) as each attempt ends,
/// and written as one HAR file at the end of the run, whether its jobs succeeded or not.
package final class HARRecorder: Sendable {
    package let path: String
    package let content: HARContent
    /// The last attempt's requests of each page, by its name, the pages in the order they were asked for, and the
    /// values of the environment variables the jobs' steps typed, by name.
    private let recorded = Mutex(Recorded())

    private struct Recorded {
        package var requests: [String: [WebParserRequest]] = [:]
        package var pages: [(name: String, url: String)] = []
        package var secrets: [String: String] = [:]
    }

    /// A recorder writing to `path`, with the response bodies `content` says (embedded by default).
    /// - Throws: `DeliveryFailure` (`.usage`) when `path` cannot be written, before anything runs.
    package init(path: String, content: HARContent?) throws(DeliveryFailure) {
        if let problem = AtomicFile.checkWritable(path) { throw DeliveryFailure.usage("--har: \(problem)") }
        self.path = path
        self.content = content ?? .embed
    }

    /// Records `job`'s requests as the page `name`, its `secrets` shown as `[env NAME]`: asks the job for them,
    /// and hands back the handler that keeps them.
    package func record(_ job: inout WebParserJob, as name: String, secrets: [String: String] = [:]) -> @Sendable (WebParserMessage) -> Void {
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
    package func recording(_ job: inout WebParserJob, as name: String, besides handler: @escaping @Sendable (WebParserMessage) -> Void)
        -> @Sendable (WebParserMessage) -> Void
    {
        let keep = record(&job, as: name)
        return { message in
            keep(message)
            handler(message)
        }
    }

    /// Writes the HAR file.
    /// - Throws: `DeliveryFailure` (`.failed`) when it cannot be written.
    package func write() throws(DeliveryFailure) {
        let log = recorded.withLock { recorded in
            HARLog.json(
                of: recorded.pages.map { HARLog.Page(name: $0.name, url: $0.url, requests: recorded.requests[$0.name] ?? []) },
                version: ReleaseVersion.number, secrets: recorded.secrets)
        }
        do throws(AtomicFile.Failure) {
            // Private, as state files are: a HAR holds cookies, headers and what steps typed.
            try AtomicFile.write(log, to: path, permissions: 0o600, exactPermissions: true)
        } catch {
            throw DeliveryFailure(message: "--har: \(error)", kind: .failed)
        }
    }
}
