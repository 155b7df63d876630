import FoundationEssentials
import WebParser

/// The Atom feeds of a run (`run --feed`): one file for every job, or, for a path ending in "/", one file per job
/// in that folder (`DIR/JOB.atom`). They are made from the entries the state keeps, written when the state is.
package struct FeedFiles {
    package let path: String
    package let size: Int
    package let force: Bool

    /// The feeds at `path` (a folder when it ends in "/"), `size` entries each, replacing a file that is not a
    /// feed webparse wrote when `force`.
    package init(path: String, size: Int, force: Bool) {
        self.path = path
        self.size = size
        self.force = force
    }

    /// The feed file of the job `name`.
    package func file(for name: String) -> String {
        guard path.hasSuffix("/") else { return path }
        return path + String(name.map { $0 == "/" || $0 == "\0" ? "-" : $0 }) + ".atom"
    }

    /// Checks, before anything runs, that every feed file can be written and that each that exists is a feed
    /// webparse wrote (or `force`).
    /// - Throws: `DeliveryFailure` (`.usage`) naming the file.
    package func check(jobs: [String]) throws(DeliveryFailure) {
        let files = path.hasSuffix("/") ? jobs.map(file(for:)) : [path]
        for file in Set(files).sorted() {
            if let problem = AtomicFile.checkWritable(file) { throw DeliveryFailure.usage("--feed: \(problem)") }
            guard !force, let data = FileManager.default.contents(atPath: file), !AtomFeed.isWebparseFeed(data) else { continue }
            throw DeliveryFailure.usage("--feed: \(file) is not an Atom feed webparse wrote; it is left as it is (--feed-force replaces it)")
        }
    }

    /// Writes the feeds of `jobs` from the entries `memory` holds, readable by others only if the state file is: each
    /// job's feed titled as its `feed.name` says, else as its page is.
    /// - Throws: `DeliveryFailure` (`.failed`) when one cannot be written.
    package func write(jobs: [Config.NamedJob], memory: RunMemory, now: Date = Date()) throws(DeliveryFailure) {
        let version = ReleaseVersion.number
        let title = { (job: Config.NamedJob) in job.tracking.feed?.name ?? memory.feedTitle(of: job.name) }
        let feeds: [(file: String, title: String, entries: [AtomFeed.Entry])] =
            path.hasSuffix("/")
            ? jobs.map { (file(for: $0.name), title($0), memory.feedEntries(of: $0.name)) }
            : [(path, jobs.map(title).joined(separator: ", "), AtomFeed.combined(jobs.map { memory.feedEntries(of: $0.name) }, size: size))]
        for feed in feeds {
            let document = AtomFeed.document(title: feed.title, path: feed.file, entries: feed.entries, version: version, now: now)
            do throws(AtomicFile.Failure) {
                try AtomicFile.write(document, to: feed.file, permissions: memory.permissions | 0o600, exactPermissions: true)
            } catch {
                throw DeliveryFailure(message: "--feed: \(error)", kind: .failed)
            }
        }
    }
}
