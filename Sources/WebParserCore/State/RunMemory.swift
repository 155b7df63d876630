import FoundationEssentials
import Glibc
import WebParser

/// The `--state` file during one run: locked for the run, read once, updated job by job in memory, and
/// written once at the end, atomically, and only if it changed. A failed job changes nothing it remembers of its
/// items: only its health (why and since when it fails, how many runs in a row).
package final class RunMemory: ChangeStateStore {
    package typealias Failure = Never

    /// What a successful job brought that the state did not hold.
    package struct Fresh {
        /// New items of a list result, or the changed value of another result, as the page wrote them.
        package var items: [Data]
        package var isList: Bool
        /// Items seen before whose content changed, as the page wrote them now, and before.
        package var changed: [(item: Data, before: Data)] = []
        /// How a result that is not a list changed, as a unified diff; nil when it did not or the state did not
        /// know it before.
        package var diff: String?
        /// What a result that is not a list was before it changed (canonical JSON), when the state knew it.
        package var before: Data?
        /// Whether the job's items are told apart by a `key`: without one, an item whose content changed is new.
        package var keyed = true
        /// Items earlier results listed that the last `confirm` lacked, as canonical JSON.
        package var removed: [Data] = []
        /// Whether the job has a `when`: then `items` are those it came to hold for, and `changed` those that changed
        /// while it held.
        package var conditional = false
        /// Why the job's runs failed until this one, when `--notify` said so: it now says the job recovered.
        package var recovered: StateFile.Failing?

        /// What the news holds that `report` shows: the new items (with a `when`, those it came to hold for), those
        /// that changed, those removed. A result that is not a list and changed is a change when the state knew it
        /// before and the report shows changes; a list without a key has no changed items, only new ones (a changed
        /// item among them), which `changed` shows rather than lose them; with a `when`, `changed` shows the items it
        /// came to hold for too.
        package func shown(_ report: Report) -> (added: [Data], changed: [(item: Data, before: Data)], removed: [Data]) {
            let showsChanged = report == .changed || report == .all
            let showsAdded = report == .added || report == .all || report == .changed && (conditional || isList && !keyed)
            if !isList, !conditional, let value = items.first, let before, showsChanged { return ([], [(value, before)], []) }
            return (showsAdded ? items : [], showsChanged ? changed : [], report == .removed || report == .all ? removed : [])
        }
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
    /// - Throws: `DeliveryFailure` (`.usage` for an unusable file, `.stateLocked` when another run holds it).
    package static func open(_ given: String, wait: Duration) async throws(DeliveryFailure) -> RunMemory {
        if let problem = AtomicFile.checkWritable(given) {
            throw DeliveryFailure(message: "--state: \(problem)", kind: .usage)
        }
        let path: String
        do {
            path = try AtomicFile.finalTarget(of: given)
        } catch {
            throw DeliveryFailure(message: "--state: \(error)", kind: .usage)
        }
        let lock: RunLock
        do {
            lock = try await RunLock.acquire(
                path + ".lock", guarding: given, wait: wait,
                advice: "try again later, or pass --wait-lock SECONDS")
        } catch let busy as RunLock.Busy {
            throw DeliveryFailure(message: busy.description, kind: .stateLocked)
        } catch {
            throw DeliveryFailure(message: "--state: \(error)", kind: .usage)
        }
        do throws(StateFile.Unreadable) {
            let (state, bytes) = try StateFile.load(path: path)
            return RunMemory(path: path, lock: lock, state: state, original: bytes)
        } catch {
            throw DeliveryFailure(message: "--state: \(error)", kind: .usage)
        }
    }

    /// Records `result`, a successful result of `job`, and returns what is new in it. On the job's first run
    /// everything is recorded and nothing is new, unless `emitInitial`.
    /// - Throws: `WebParserError` (`.unsupportedResult`) when the result cannot be tracked (nested deeper than
    ///   `ChangeTracker.rules` allow); the state is left as it was for the job, which must then fail.
    /// With `feedSize`, the new items (and with `feedsRemoved` the removed ones) also become the job's newest feed entries,
    /// at most `feedSize` kept. The state
    /// records the items as the page gave them; what is reported (the new and changed items, the feed's entries) is
    /// each item as `shown` makes it (with its followed detail page, say).
    package func remember(
        _ result: WebParserResult, of job: Config.NamedJob, emitInitial: Bool, feedSize: Int? = nil, feedsRemoved: Bool = false,
        shown: @escaping @Sendable (Data) -> Data = { $0 }
    ) async throws(WebParserError) -> Fresh {
        let (previous, tracking, now, name) = (state.jobs[job.name], job.tracking, Date(), job.name)
        var changes: Changes
        var store = self
        do throws(ChangeTrackingFailure<Never>) {
            changes = try await store.track(result.data, of: job.name, tracking: tracking, at: now)
        } catch {
            switch error {
            case .untrackable(let kind): throw WebParserError(kind, url: result.finalURL, attempts: result.attempts)
            case .store(let never): switch never {}
            }
        }
        // What is reported (the new and changed items, the feed's entries) is each item as `shown` makes it.
        let (tracked, quiet) = (changes, JobMemory.isQuiet(changes, emitInitial: emitInitial))
        let (reported, diff, entries) = await LargeStack.run { () -> (Changes, String?, [AtomFeed.Entry]) in
            var reported = tracked
            reported.fresh = tracked.fresh.map(shown)
            reported.changed = tracked.changed.map { (shown($0.item), $0.before) }
            let entries =
                feedSize == nil
                ? []
                : AtomFeed.entries(for: quiet ? [] : reported.fresh, job: name, key: tracking.key, mapping: tracking.feed, now: now)
                    + AtomFeed.entries(
                        for: quiet || !feedsRemoved ? [] : reported.removed, job: name, key: tracking.key, mapping: tracking.feed, now: now,
                        removed: true)
            return (reported, reported.changedValue.map(ChangeTracker.diff), entries)
        }
        changes = reported
        if let feedSize {
            state.jobs[name]?.feed = AtomFeed.merge(entries, before: previous?.feed ?? [], size: feedSize)
            state.jobs[name]?.feedTitle = result.title ?? previous?.feedTitle
        }
        for note in changes.conditionNotes { StandardStreams.tellError("webparse: \(job.name): \(note)") }
        if changes.itemsWithoutKey > 0, let key = job.tracking.key {
            StandardStreams.tell(
                "webparse: \(job.name): \(changes.itemsWithoutKey) items have no \"\(key)\"; "
                    + "they are told apart by their whole content")
        }
        return Fresh(
            items: quiet ? [] : changes.fresh, isList: changes.isList, changed: changes.changed,
            diff: diff, before: changes.changedValue.map { Data($0.before.utf8) }, keyed: job.tracking.key != nil,
            removed: quiet ? [] : changes.removed, conditional: job.tracking.when != nil,
            recovered: previous?.failing?.notified == true ? previous?.failing : nil)
    }

    /// What the state file holds of the job `key` now.
    package func state(of key: String) -> StateFile.Job? {
        state.jobs[key]
    }

    /// Replaces the job `key`'s state with `changes.updated`: no other writer shares the run's state file.
    package func replace(_ key: String, with changes: Changes) -> Bool {
        state.jobs[key] = changes.updated
        return true
    }

    /// What the state knows of `job` now, for its pipeline: whether a first run reports its items (`emitInitial`)
    /// and whether the run reports changed items (`reportsChanged`).
    package func jobMemory(of job: Config.NamedJob, emitInitial: Bool, reportsChanged: Bool) -> JobMemory {
        JobMemory(previous: state.jobs[job.name], emitInitial: emitInitial, reportsChanged: reportsChanged)
    }

    /// Keeps `lastmods`, the sitemaps' `lastmod` of the pages `job`'s crawl read, for its next crawl; after
    /// `remember` took the crawl's result.
    package func keep(lastmods: [String: String], of job: Config.NamedJob) {
        state.jobs[job.name]?.lastmods = lastmods.isEmpty ? nil : lastmods
    }

    /// The title of the job `name`'s feed: its page's title, or "webparse: NAME" while none is known.
    package func feedTitle(of name: String) -> String {
        state.jobs[name]?.feedTitle ?? "webparse: \(name)"
    }

    /// The feed entries the state holds for the job `name`, newest first.
    package func feedEntries(of name: String) -> [AtomFeed.Entry] {
        state.jobs[name]?.feed ?? []
    }

    /// The state file's permission bits.
    package var permissions: mode_t {
        var status = stat()
        return stat(path, &status) == 0 ? status.st_mode & 0o777 : 0o600
    }

    /// For a paginated job that stops at seen pages (`stopAtSeen`): the check that a page's items were all seen
    /// in earlier runs, as the state holds them at the start of this run; nil when the job does not ask.
    package func seenPageCheck(for job: Config.NamedJob) -> PageCheck? {
        guard job.tracking.stopsAtSeen, job.job.evaluation.pagination != nil else { return nil }
        let (previous, tracking) = (state.jobs[job.name], job.tracking)
        return PageCheck { ChangeTracker.allSeen(in: $0, by: previous, tracking: tracking) }
    }

    /// Records a failed run of the job `name`, with `failure`, at `time`, and returns how many runs in a row have
    /// failed: the job's health (`failing`) says since when and why; what it remembers of its items is left as it was.
    package func recordFailure(of name: String, _ failure: JobFailure, at time: Date) -> Int {
        var job = state.jobs[name] ?? StateFile.Job()
        job.consecutiveFailures = min(job.consecutiveFailures + 1, StateFile.failureLimit)
        var failing = job.failing ?? StateFile.Failing(code: failure.code, message: failure.description, since: time.formatted(.iso8601))
        failing.code = failure.code
        failing.message = failure.description
        job.failing = failing
        state.jobs[name] = job
        return job.consecutiveFailures
    }

    /// Why the job `name` fails, as the state holds it; nil while it does not.
    package func failing(of name: String) -> StateFile.Failing? {
        state.jobs[name]?.failing
    }

    /// Records that `--notify` said the job `name` fails, so that it says when it recovers, and not again before.
    package func markNotified(_ name: String) {
        state.jobs[name]?.failing?.notified = true
    }

    /// Records that `job` ran at `time`, and with an `every`, when it is due next.
    package func ran(_ job: Config.NamedJob, at time: Date) {
        state.jobs[job.name, default: StateFile.Job()].lastRun = time.formatted(.iso8601)
        state.jobs[job.name]?.due = job.schedule.map { $0.due(after: time, name: job.name).formatted(.iso8601) }
    }

    /// When `job` is due next, if it is not due at `time`: it has an `every`, and ran in its slot already; nil when
    /// it is due.
    package func notDue(_ job: Config.NamedJob, at time: Date) -> Date? {
        guard let schedule = job.schedule, let text = state.jobs[job.name]?.lastRun, let lastRun = try? Date(text, strategy: .iso8601) else { return nil }
        let due = schedule.due(after: lastRun, name: job.name)
        return due > time ? due : nil
    }

    /// Writes the state if it changed (a new state file readable by its owner only; an existing one keeps its
    /// permissions).
    /// - Throws: `DeliveryFailure` (`.failed`) when it cannot be written.
    package func save() throws(DeliveryFailure) {
        let bytes = state.encoded()
        guard bytes != original else { return }
        do {
            try AtomicFile.write(bytes, to: path, permissions: 0o600)
        } catch {
            throw DeliveryFailure(message: "--state: \(error)", kind: .failed)
        }
    }
}
