import FoundationEssentials
import WebParser

/// Where jobs' change state is kept between runs: a state file for `run` (`RunMemory`), a work queue's Redis for its
/// workers (`QueueChangeState`). What a result changes is decided once, by `track`, whichever keeps it.
public protocol ChangeStateStore {
    /// What the store can throw: nothing for a state file read into memory, a Redis that cannot be used.
    associatedtype Failure: Error

    /// What the store holds of the job `key` now.
    /// - Throws: `Failure` when the store cannot be read.
    mutating func state(of key: String) async throws(Failure) -> StateFile.Job?

    /// Replaces the job `key`'s state, as `state(of:)` last gave it, with `changes.updated`: false when another
    /// writer replaced it in between, and nothing was replaced.
    /// - Throws: `Failure` when the store cannot be written.
    mutating func replace(_ key: String, with changes: Changes) async throws(Failure) -> Bool
}

/// Why a result could not be tracked.
public enum ChangeTrackingFailure<StoreFailure: Error>: Error {
    /// The result cannot be tracked (its job's `when` is not valid, or it nests deeper than the rules allow): the
    /// job fails so.
    case untrackable(WebParserError.Kind)
    /// The store failed.
    case store(StoreFailure)
}

extension ChangeStateStore {
    /// Tracks `data`, a result of a job tracked as `tracking`, against the state of `key` at `now` (`ChangeTracker`,
    /// on a large stack: results nest deep), and replaces that state with what it becomes; again, against the new
    /// state, while another writer replaced it first. Answers what changed.
    /// - Throws: `ChangeTrackingFailure`: `.untrackable` with why the job fails, `.store` with the store's failure.
    public mutating func track(
        _ data: Data, of key: String, tracking: Tracking, at now: Date
    ) async throws(ChangeTrackingFailure<Failure>) -> Changes {
        while true {
            let previous: StateFile.Job?
            do throws(Failure) { previous = try await state(of: key) } catch { throw .store(error) }
            let tracked = await LargeStack.run { () -> TrackedResult in
                let condition: ItemCondition?
                do {
                    condition = try tracking.when.map { expression throws(ItemCondition.Invalid) in try ItemCondition(expression) }
                } catch {
                    return .untrackable(.invalidJob("when: \(error)"))
                }
                do throws(JSONSyntaxError) {
                    return .changes(try ChangeTracker.changes(in: data, since: previous, tracking: tracking, condition: condition, at: now))
                } catch {
                    return .untrackable(.unsupportedResult("\(error.message) (line \(error.line), column \(error.column)), more than --state can track"))
                }
            }
            let changes: Changes
            switch tracked {
            case .changes(let found): changes = found
            case .untrackable(let kind): throw .untrackable(kind)
            }
            do throws(Failure) {
                if try await replace(key, with: changes) { return changes }
            } catch {
                throw .store(error)
            }
        }
    }
}

/// What tracking a result on its large stack gave: what changed, or why it cannot be tracked.
private enum TrackedResult: Sendable {
    case changes(Changes)
    case untrackable(WebParserError.Kind)
}
