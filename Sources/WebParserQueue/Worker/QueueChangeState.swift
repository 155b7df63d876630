import FoundationEssentials
import WebParserCore

/// A job's change state in a work queue's Redis (`NAME:state`), shared by every worker: replaced in the one atomic
/// step that pushes the item's record and lets the item go (`WorkQueue.complete`), and only if no other worker
/// replaced it since it was read.
package struct QueueChangeState: ChangeStateStore {
    package typealias Failure = RedisConnection.Failure

    let queue: WorkQueue
    let item: WorkQueue.Item
    /// The item's record, made of what its result changed.
    let record: (Changes) -> Data
    /// The state as it was read, byte for byte: what the replacement must find.
    private var read: Data?
    /// The record pushed, and whether the item was still the worker's when it was let go; nil before.
    package private(set) var settled: (record: Data, held: Bool)?

    /// The state of `item`'s job in `queue`, replaced as `item` is settled with the record `record` makes.
    package init(queue: WorkQueue, item: WorkQueue.Item, record: @escaping (Changes) -> Data) {
        self.queue = queue
        self.item = item
        self.record = record
    }

    /// What the workers recorded of the job `key`, nil when none did (or it cannot be read: it starts over).
    /// - Throws: `RedisConnection.Failure` when Redis cannot be used.
    package mutating func state(of key: String) async throws(RedisConnection.Failure) -> StateFile.Job? {
        read = try await queue.state(of: key)
        return read.flatMap { try? JSONDecoder().decode(StateFile.Job.self, from: $0) }
    }

    /// Pushes the item's record, replaces the job `key`'s state with `changes.updated` and lets the item go, in one
    /// step: false, and nothing done, when another worker replaced the state since it was read.
    /// - Throws: `RedisConnection.Failure` when Redis cannot be used or refuses the record.
    package mutating func replace(_ key: String, with changes: Changes) async throws(RedisConnection.Failure) -> Bool {
        let after: Data
        do {
            after = try JSONEncoder().encode(changes.updated)
        } catch {
            throw .server("the state of \(key) cannot be written as JSON: \(error)")
        }
        let line = record(changes)
        guard let held = try await queue.complete(item, record: line, recording: WorkQueue.StateChange(job: key, before: read, after: after)) else {
            return false
        }
        settled = (line, held)
        return true
    }
}
