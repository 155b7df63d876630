import FoundationEssentials
import Glibc
import WebParserCore
import WebParser

/// The `--state` file during one run: locked for the run, read once, updated job by job in memory, and
/// written once at the end, atomically, and only if it changed. A failed job changes nothing in it but,
/// with `--fail-after`, its count of failed runs in a row.
final class RunMemory {
    /// What a successful job brought that the state did not hold.
    struct Fresh {
        /// New items of a list result, or the changed value of another result, as the page wrote them.
        var items: [Data]
        var isList: Bool
        /// Items seen before whose content changed, as the page wrote them now, and before.
        var changed: [(item: Data, before: Data)] = []
        /// How a result that is not a list changed, as a unified diff; nil when it did not or the state did not
        /// know it before.
        var diff: String?
        /// What a result that is not a list was before it changed (canonical JSON), when the state knew it.
        var before: Data?
        /// Whether the job's items are told apart by a `key`: without one, an item whose content changed is new.
        var keyed = true
    }

    private let path: String
    private let lock: RunLock
    private var state: StateFile
    private let original: Data?

    private init(path: String, lock: RunLock, state: StateFile, original: Data?) {
        self.path = path
        self.lock = lock
        self.state = state
        self.original = original
    }

    /// Locks and reads the state file at `path`, waiting up to `wait` for another run that holds it.
    /// A symbolic link is followed to the file it finally names (a dangling one to the file it creates), and the
    /// lock is taken beside that file, so that two names for one state share one lock.
    /// - Throws: `CommandFailure` (exit 2 for an unusable file, 4 when another run holds it).
    static func open(_ given: String, wait: Duration) async throws(CommandFailure) -> RunMemory {
        if let problem = AtomicFile.checkWritable(given) {
            throw CommandFailure(message: "--state: \(problem)", code: .usage)
        }
        let path: String
        do {
            path = try AtomicFile.finalTarget(of: given)
        } catch {
            throw CommandFailure(message: "--state: \(error)", code: .usage)
        }
        let lock: RunLock
        do {
            lock = try await RunLock.acquire(
                path + ".lock", guarding: given, wait: wait,
                advice: "try again later, or pass --wait-lock SECONDS")
        } catch let busy as RunLock.Busy {
            throw CommandFailure(message: busy.description, code: .stateLocked)
        } catch {
            throw CommandFailure(message: "--state: \(error)", code: .usage)
        }
        do throws(StateFile.Unreadable) {
            let (state, bytes) = try StateFile.load(path: path)
            return RunMemory(path: path, lock: lock, state: state, original: bytes)
        } catch {
            throw CommandFailure(message: "--state: \(error)", code: .usage)
        }
    }

    /// Records `result`, a successful result of `job`, and returns what is new in it. On the job's first run
    /// everything is recorded and nothing is new, unless `emitInitial`.
    /// - Throws: `WebParserError` (`.unsupportedResult`) when the result cannot be tracked (nested deeper than
    ///   `ChangeTracker.rules` allow); the state is left as it was for the job, which must then fail.
    /// With `feedSize`, the new items also become the job's newest feed entries, at most `feedSize` kept. The state
    /// records the items as the page gave them; what is reported (the new and changed items, the feed's entries) is
    /// each item as `shown` makes it (with its followed detail page, say).
    func remember(
        _ result: WebParserResult, of job: Config.NamedJob, emitInitial: Bool, feedSize: Int? = nil, shown: @escaping @Sendable (Data) -> Data = { $0 }
    ) async throws(WebParserError) -> Fresh {
        let (data, previous, tracking, now, name) = (result.data, state.jobs[job.name], job.tracking, Date(), job.name)
        let tracked = await LargeStack.run { () -> Result<(Changes, String?, [AtomFeed.Entry]), JSONSyntaxError> in
            Result { () throws(JSONSyntaxError) in
                var changes = try ChangeTracker.changes(in: data, since: previous, tracking: tracking, at: now)
                changes.fresh = changes.fresh.map(shown)
                changes.changed = changes.changed.map { (shown($0.item), $0.before) }
                let reported = changes.isFirstRun && !emitInitial ? [] : changes.fresh
                let entries =
                    feedSize == nil ? [] : AtomFeed.entries(for: reported, job: name, key: tracking.key, mapping: tracking.feed, now: now)
                return (changes, changes.changedValue.map(ChangeTracker.diff), entries)
            }
        }
        var changes: Changes
        let diff: String?
        switch tracked {
        case .success(let found):
            let entries: [AtomFeed.Entry]
            (changes, diff, entries) = found
            if let feedSize {
                changes.updated.feed = AtomFeed.merge(entries, before: previous?.feed ?? [], size: feedSize)
                changes.updated.feedTitle = result.title ?? previous?.feedTitle
            }
        case .failure(let error):
            throw WebParserError(
                .unsupportedResult(
                    "\(error.message) (line \(error.line), column \(error.column)), "
                        + "more than --state can track"), url: result.finalURL, attempts: result.attempts)
        }
        state.jobs[job.name] = changes.updated
        if changes.itemsWithoutKey > 0, let key = job.tracking.key {
            StandardStreams.tell(
                "webparse: \(job.name): \(changes.itemsWithoutKey) items have no \"\(key)\"; "
                    + "they are told apart by their whole content")
        }
        return Fresh(
            items: changes.isFirstRun && !emitInitial ? [] : changes.fresh, isList: changes.isList, changed: changes.changed,
            diff: diff, before: changes.changedValue.map { Data($0.before.utf8) }, keyed: job.tracking.key != nil)
    }

    /// What the state knows of the pages of `job`'s crawl (`CrawlHistory`); nil when it knows none.
    func crawlHistory(of job: Config.NamedJob) -> CrawlHistory? {
        CrawlHistory(state.jobs[job.name])
    }

    /// Keeps `lastmods`, the sitemaps' `lastmod` of the pages `job`'s crawl read, for its next crawl; after
    /// `remember` took the crawl's result.
    func keep(lastmods: [String: String], of job: Config.NamedJob) {
        state.jobs[job.name]?.lastmods = lastmods.isEmpty ? nil : lastmods
    }

    /// The items of `result`, a successful result of `job`, that `remember` would report (the new ones, and with
    /// `changed` those whose content changed), as the page gave them; nil when the result is not a list. Nothing is
    /// recorded.
    func reportedItems(in result: WebParserResult, of job: Config.NamedJob, emitInitial: Bool, changed: Bool) async -> Set<Data>? {
        let (data, previous, tracking) = (result.data, state.jobs[job.name], job.tracking)
        let found = await LargeStack.run { () -> Changes? in
            try? ChangeTracker.changes(in: data, since: previous, tracking: tracking, at: Date())
        }
        guard let changes = found, changes.isList else { return nil }
        guard !changes.isFirstRun || emitInitial else { return [] }
        return Set(changes.fresh + (changed ? changes.changed.map(\.item) : []))
    }

    /// The title of the job `name`'s feed: its page's title, or "webparse: NAME" while none is known.
    func feedTitle(of name: String) -> String {
        state.jobs[name]?.feedTitle ?? "webparse: \(name)"
    }

    /// The feed entries the state holds for the job `name`, newest first.
    func feedEntries(of name: String) -> [AtomFeed.Entry] {
        state.jobs[name]?.feed ?? []
    }

    /// The state file's permission bits.
    var permissions: mode_t {
        var status = stat()
        return stat(path, &status) == 0 ? status.st_mode & 0o777 : 0o600
    }

    /// For a paginated job that stops at seen pages (`stopAtSeen`): the check that a page's items were all seen
    /// in earlier runs, as the state holds them at the start of this run; nil when the job does not ask.
    func seenPageCheck(for job: Config.NamedJob) -> PageCheck? {
        guard job.tracking.stopsAtSeen, job.job.evaluation.pagination != nil else { return nil }
        let (previous, tracking) = (state.jobs[job.name], job.tracking)
        return PageCheck { ChangeTracker.allSeen(in: $0, by: previous, tracking: tracking) }
    }

    /// Counts a failed run of the job `name` and returns how many runs in a row have failed; the count is
    /// kept in the file only when `keepCount` (with `--fail-after`), so that otherwise a failure leaves the
    /// file as it was.
    func recordFailure(of name: String, keepCount: Bool) -> Int {
        let runs = min((state.jobs[name]?.consecutiveFailures ?? 0) + 1, StateFile.failureLimit)
        if keepCount { state.jobs[name, default: StateFile.Job()].consecutiveFailures = runs }
        return runs
    }

    /// Writes the state if it changed (a new state file readable by its owner only; an existing one keeps its
    /// permissions).
    /// - Throws: `CommandFailure` (exit 1) when it cannot be written.
    func save() throws(CommandFailure) {
        let bytes = state.encoded()
        guard bytes != original else { return }
        do {
            try AtomicFile.write(bytes, to: path, permissions: 0o600)
        } catch {
            throw CommandFailure(message: "--state: \(error)", code: .jobFailed)
        }
    }
}
