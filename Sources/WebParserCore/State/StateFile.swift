import FoundationEssentials
import WebParser

/// What `--state FILE` remembers between runs, per job. A JSON file, versioned, written atomically:
///
/// ```json
/// {"version": 3, "jobs": {"comics": {"seen": ["k:\"c-112\"", "h:3f2a…"], "contents": {"k:\"c-112\"": "{…}"},
///   "lastResult": "5d41…", "lastSuccess": "2026-11-30T10:00:00Z", "consecutiveFailures": 0}}}
/// ```
///
/// Version 2 added `contents` and `lastValue` (to tell changed items and values); version 3 the job's health
/// (`failing`, `lastRun`, `lastChange`, `due`) and what conditions and removals need (`holding`, `listed`, `absent`).
/// An older file is read as this version without what it did not record yet, and written as this version.
public struct StateFile: Codable, Equatable, Sendable {
    /// The format's version; a file of another version is not read.
    static let currentVersion = 3
    /// The versions this webparse reads.
    static let readableVersions = 1...currentVersion

    /// One job's memory.
    public struct Job: Codable, Equatable, Sendable {
        /// The identities of the items seen, oldest first: `k:` and the item's key as canonical JSON, or `h:` and
        /// the SHA-256 of the whole item's canonical JSON.
        public var seen: [String] = []
        /// The canonical JSON of each item with a tracking key, by identity, to tell an item whose content
        /// changed (version 2).
        public var contents: [String: String]?
        /// The SHA-256 of the last successful result's canonical JSON.
        public var lastResult: String?
        /// The last successful result's canonical JSON, when it is not a list, to show how it changed
        /// (version 2).
        public var lastValue: String?
        /// When the last successful run ended, in ISO 8601.
        public var lastSuccess: String?
        /// The `lastmod` each page of a crawl had in its sitemaps when it was read, by page URL (`CrawlHistory`): a
        /// page with the same `lastmod` at the next crawl is not loaded again.
        public var lastmods: [String: String]?
        /// Runs in a row that failed.
        public var consecutiveFailures = 0
        /// Why the job's runs fail, and since when; nil while its last run succeeded (version 3).
        public var failing: Failing?
        /// When the job last ran, successful or not, in ISO 8601 (version 3).
        public var lastRun: String?
        /// When a run last found the job's result changed (items new, changed or removed, or another value), in
        /// ISO 8601 (version 3).
        public var lastChange: String?
        /// When the job is next due, for a job that runs `every` so often, in ISO 8601 (version 3).
        public var due: String?
        /// The identities of the items whose `when` held at the last run (`result` for a result that is not a list);
        /// nil when the job had no `when` then (version 3).
        public var holding: [String]?
        /// How many of the newest identities of `seen` the last result listed: the items it had (version 3).
        public var listed: Int?
        /// The items earlier results listed that the last ones lack, by identity: in how many runs in a row, fewer
        /// than the job's `confirm` (version 3).
        public var absent: [String: Int]?
        /// The newest entries of the job's feed (`run --feed`), newest first.
        package var feed: [AtomFeed.Entry]?
        /// The title of the job's page when its feed was last updated: the feed's title.
        package var feedTitle: String?

        /// A job with no memory yet.
        public init() {}
    }

    /// Why a job's runs fail, and since when.
    public struct Failing: Codable, Equatable, Sendable {
        /// The failure's stable name, such as `timed-out` or `blocked` (`WebParserError.Code`), or `not-run`.
        public var code: String
        /// The last failure in words.
        public var message: String
        /// When the first failing run of the streak ran, in ISO 8601.
        public var since: String
        /// Whether `--notify` said the job fails: it then says when it recovers.
        public var notified: Bool?

        /// A failure with `code` and `message` since `since`, not yet notified.
        public init(code: String, message: String, since: String) {
            self.code = code
            self.message = message
            self.since = since
        }
    }

    var version = currentVersion
    /// Each job's memory, by job name.
    public var jobs: [String: Job] = [:]

    /// An empty state.
    public init() {}

    /// Reads the state at `path`; a missing file is an empty state.
    /// - Throws: `StateFile.Unreadable` for a file that is not a webparse state file of this version.
    public static func load(path: String) throws(Unreadable) -> (state: StateFile, bytes: Data?) {
        guard FileManager.default.fileExists(atPath: path) else { return (StateFile(), nil) }
        let bytes: Data
        do {
            bytes = try InputFile.read(path, what: "state file", limit: maximumSize)
        } catch {
            throw Unreadable(path: path, reason: error.reason)
        }
        struct Version: Decodable { var version: Int }
        guard let version = try? JSONDecoder().decode(Version.self, from: bytes) else {
            throw Unreadable(path: path, reason: "is not a webparse state file")
        }
        guard readableVersions.contains(version.version) else {
            throw Unreadable(
                path: path, reason: "has version \(version.version); this webparse reads versions \(readableVersions.lowerBound) to \(currentVersion)")
        }
        var state: StateFile
        do {
            state = try JSONDecoder().decode(StateFile.self, from: bytes)
        } catch {
            throw Unreadable(path: path, reason: "is not a webparse state file (\(error))")
        }
        if let problem = state.outOfRange() { throw Unreadable(path: path, reason: problem) }
        // An older file is this version without what it did not record yet.
        state.version = currentVersion
        return (state, bytes)
    }

    /// The largest state file read: 256 MiB, what about 700 jobs remembering 5,000 items each take.
    static let maximumSize = 256 << 20

    /// The most runs in a row a state file may say failed: far more than a century of runs every minute, and
    /// far from any arithmetic overflow.
    package static let failureLimit = 100_000_000

    /// What a hand-edited file holds that no run writes, naming the field; nil when every field is in range.
    private func outOfRange() -> String? {
        for (name, job) in jobs.sorted(by: { $0.key < $1.key }) {
            guard (0...Self.failureLimit).contains(job.consecutiveFailures) else {
                return "jobs.\(name).consecutiveFailures: expected a count from 0 to \(Self.failureLimit), got \(job.consecutiveFailures)"
            }
            if let listed = job.listed, !(0...job.seen.count).contains(listed) {
                return "jobs.\(name).listed: expected a count from 0 to \(job.seen.count) (the items of seen), got \(listed)"
            }
            if let (identity, runs) = job.absent?.first(where: { $0.value < 1 || $0.value > 100 }) {
                return "jobs.\(name).absent.\(identity): expected a count of runs from 1 to 100, got \(runs)"
            }
        }
        return nil
    }

    /// The file's text: keys sorted, so that the same state is always the same bytes.
    public func encoded() -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        return (try? encoder.encode(self)).map { $0 + Data("\n".utf8) } ?? Data()
    }

    /// A state file that cannot be used, and why.
    public struct Unreadable: Error, CustomStringConvertible {
        /// The state file.
        public let path: String
        /// Why it cannot be used, such as "is not a webparse state file".
        public let reason: String
        /// "FILE: REASON; move it away to start afresh".
        public var description: String { "\(path): \(reason); move it away to start afresh" }
    }
}
