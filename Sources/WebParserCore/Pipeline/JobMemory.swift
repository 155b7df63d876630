import FoundationEssentials
import WebParser

/// What the change state knew of one job when its run started, and how the run reports changes: what a job's
/// pipeline reads of the state (the items a follow loads, a crawl's history, the records that stand for pages that
/// failed). Only the job itself changes what the state holds of it, so this stays true while the job runs.
public struct JobMemory: Sendable {
    /// The state's record of the job; nil when it has none (its first run).
    public let previous: StateFile.Job?
    /// Whether a first run reports its items as new (`--emit-initial`).
    public let emitInitial: Bool
    /// Whether the run reports items whose content changed, not only new ones (`--report changed` or `all`).
    public let reportsChanged: Bool

    /// The memory of a job the state holds as `previous`.
    public init(previous: StateFile.Job?, emitInitial: Bool, reportsChanged: Bool) {
        self.previous = previous
        self.emitInitial = emitInitial
        self.reportsChanged = reportsChanged
    }

    /// Whether `changes` are a first run's that reports nothing (without `--emit-initial`).
    public static func isQuiet(_ changes: Changes, emitInitial: Bool) -> Bool {
        changes.isFirstRun && !emitInitial
    }

    /// What the state knows of the pages of the job's crawl; nil when it knows none.
    public var crawlHistory: CrawlHistory? {
        CrawlHistory(previous)
    }

    /// The record the state keeps of the page at `url` of the job's crawl (canonical JSON); nil when it keeps none.
    public func record(ofPage url: String) -> Data? {
        previous?.contents?[ChangeTracker.identity(ofKey: url)].map { Data($0.utf8) }
    }

    /// The items of `data`, a result of a job tracked by `tracking`, that the run would report (the new ones, and
    /// when it reports changes those whose content changed), as the page gave them; nil when the result is not a
    /// list (or cannot be tracked). Nothing is recorded.
    public func reportedItems(in data: Data, tracking: Tracking) async -> Set<Data>? {
        let previous = previous
        let found = await LargeStack.run { () -> Changes? in
            let condition = tracking.when.flatMap { try? ItemCondition($0) }
            return try? ChangeTracker.changes(in: data, since: previous, tracking: tracking, condition: condition, at: Date())
        }
        guard let changes = found, changes.isList else { return nil }
        guard !Self.isQuiet(changes, emitInitial: emitInitial) else { return [] }
        return Set(changes.fresh + (reportsChanged ? changes.changed.map(\.item) : []))
    }
}
