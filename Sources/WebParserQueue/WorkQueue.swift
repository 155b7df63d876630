import Dispatch
import FoundationEssentials

/// A work queue on Redis, shared by workers, as Kubernetes' "fine parallel processing using a work queue" keeps it:
/// the list `NAME` of items; each worker leases items by moving them atomically into its own processing list
/// (`NAME:processing:ID`) while its heartbeat key (`NAME:worker:ID`, with an expiry) lives; any worker puts back
/// the items of a worker whose heartbeat expired (a pod killed mid-job loses nothing; its item is done again). An
/// item leaves its processing list in the same atomic step that pushes its record to `NAME:results` or
/// `NAME:failed`, and only if it is still there: a record is never pushed twice, even when the reply of that step
/// was lost and the step is sent again. `NAME:seen` is the set of URLs done or queued, across every worker. Each
/// host's limits, shared by the workers, are `NAME:host:HOST` and its places `NAME:host:HOST:places`
/// (`WorkQueue+Hosts`).
///
/// Redis' calls block (hiredis): they run one at a time on a thread of the queue's own, never on Swift's
/// cooperative threads, and each method is async.
public final class WorkQueue: @unchecked Sendable {
    /// An item in hand: its text as the queue holds it.
    public struct Item: Equatable, Sendable {
        /// The item, as it was pushed.
        public let text: Data
    }

    /// The queue's keys.
    public struct Keys: Sendable {
        /// The list of items waiting (`NAME`).
        public let queue: String
        /// The list of the records of items done.
        public var results: String { queue + ":results" }
        /// The list of the records of items that failed.
        public var failed: String { queue + ":failed" }
        /// The set of the pages a crawl or a follow found, across workers.
        public var seen: String { queue + ":seen" }
        /// The hash of each job's change-tracking state.
        public var state: String { queue + ":state" }
        /// How many pages the crawl or list named `job` has loaded or queued.
        public func pages(of job: String) -> String { queue + ":pages:" + job }
        /// The hash of where the loads of the pages of the crawl named `job` ended: the page each ended at, by the
        /// page asked for first.
        public func arrivals(of job: String) -> String { queue + ":arrived:" + job }
        var workers: String { queue + ":workers" }
        func processing(_ worker: String) -> String { queue + ":processing:" + worker }
        func heartbeat(_ worker: String) -> String { queue + ":worker:" + worker }
    }

    /// The queue's keys.
    public let keys: Keys
    /// This worker's name among the queue's workers.
    public let worker: String
    /// How long a worker's lease on its items lives without a heartbeat.
    public let lease: Duration
    /// Used on `thread` only (checked), as `inHand` and `lostReplies`.
    var connection: RedisConnection {
        dispatchPrecondition(condition: .onQueue(thread))
        return redis
    }
    private let redis: RedisConnection
    let retryWithin: Duration
    private let thread: DispatchQueue
    /// The items this worker holds, by text, with how many of each.
    private var inHand: [Data: Int] = [:]
    /// Whether a connection failed since the processing list was last checked: a lease whose reply was lost may have
    /// moved an item there that this worker does not hold.
    var lostReplies = false
    /// The places at hosts this worker holds: the sorted set of each, by its holder's token.
    var places: [String: String] = [:]

    /// Atomically removes one `ARGV[1]` from the list `KEYS[1]` and, if it was there, pushes `ARGV[2]` to `KEYS[2]`
    /// (an empty `ARGV[2]`: `ARGV[1]` to the head of the queue `KEYS[3]` instead when `KEYS[2]` is the queue, nothing
    /// otherwise); with a job `ARGV[3]`, also sets its
    /// field of the hash `KEYS[4]` to `ARGV[6]`, but only if it still is `ARGV[5]` (absent when `ARGV[4]` is 1).
    /// Answers 1 when done, 0 when the item was not there, 2 when the job's state was not what was expected.
    private static let settle = """
        if ARGV[3] ~= '' then
          local now = redis.call('HGET', KEYS[4], ARGV[3])
          if now ~= ARGV[6] and ((ARGV[4] == '1' and now) or (ARGV[4] == '0' and now ~= ARGV[5])) then return 2 end
        end
        if redis.call('LREM', KEYS[1], 1, ARGV[1]) == 0 then return 0 end
        if ARGV[3] ~= '' then redis.call('HSET', KEYS[4], ARGV[3], ARGV[6]) end
        if ARGV[2] == '' then
          if KEYS[2] == KEYS[3] then redis.call('LPUSH', KEYS[3], ARGV[1]) end
        else
          redis.call('RPUSH', KEYS[2], ARGV[2])
        end
        return 1
        """

    /// The queue `url` names, worked by `worker` (a name of its own among the queue's live workers) with leases of
    /// `lease`; a command whose connection failed is sent again for `retryWithin`. Items an earlier worker of the
    /// same name left in its processing list go back to the queue. Connects on the queue's own thread.
    /// - Throws: `RedisConnection.Failure` when the server cannot be reached, refuses the password, or holds a key
    ///   of the queue with another type than the queue's.
    public static func open(_ url: RedisURL, worker: String, lease: Duration = .seconds(30), retryWithin: Duration = .seconds(60))
        async throws(RedisConnection.Failure) -> WorkQueue
    {
        let thread = DispatchQueue(label: "webparse.work-queue")
        return try await run(on: thread) { () throws(RedisConnection.Failure) in
            try WorkQueue(url, worker: worker, lease: lease, retryWithin: retryWithin, thread: thread)
        }
    }

    /// Connects and checks the queue's keys, blocking: called on `thread` only.
    private init(_ url: RedisURL, worker: String, lease: Duration, retryWithin: Duration, thread: DispatchQueue) throws(RedisConnection.Failure) {
        keys = Keys(queue: url.queue)
        self.worker = worker
        self.lease = lease
        self.retryWithin = retryWithin
        self.thread = thread
        redis = try RedisConnection(url)
        for (key, type) in [(keys.queue, "list"), (keys.results, "list"), (keys.failed, "list"), (keys.seen, "set"), (keys.state, "hash")] {
            let found = try connection.send(["TYPE", key]).text ?? "none"
            guard found == "none" || found == type else {
                throw .server("the key \(key) is a \(found), not a \(type) (is it another program's?)")
            }
        }
        try beat()
        try send(["SADD", keys.workers, worker])
        // A worker of the same name that ended (a container restarted as PID 1 again) left its items here: a new
        // worker holds none, so they go back to the queue.
        try recoverUnheld()
    }

    /// Runs `body` on the queue's thread.
    @discardableResult
    func run<Value: Sendable>(_ body: @escaping @Sendable () throws(RedisConnection.Failure) -> Value) async throws(RedisConnection.Failure)
        -> Value
    {
        try await Self.run(on: thread, body)
    }

    /// Runs `body` on `thread`, never on Swift's cooperative threads.
    private static func run<Value: Sendable>(
        on thread: DispatchQueue, _ body: @escaping @Sendable () throws(RedisConnection.Failure) -> Value
    ) async throws(RedisConnection.Failure) -> Value {
        let result: Result<Value, RedisConnection.Failure> = await withCheckedContinuation { continuation in
            thread.async {
                do throws(RedisConnection.Failure) {
                    continuation.resume(returning: .success(try body()))
                } catch {
                    continuation.resume(returning: .failure(error))
                }
            }
        }
        return try result.get()
    }

    /// Renews this worker's lease: its heartbeat, and the host places it holds (`enterHost`), live `lease` from now.
    public func renew() async throws(RedisConnection.Failure) {
        try await run { () throws(RedisConnection.Failure) in
            try self.beat()
            try self.renewPlaces()
        }
    }

    private func beat() throws(RedisConnection.Failure) {
        try send(["SET", keys.heartbeat(worker), "1", "PX", String(max(Int(lease.seconds * 1000), 1))])
    }

    /// The next item, leased to this worker: waits for one `wait` at most (nil: none came). First puts back the
    /// items of workers whose lease expired, and the items a lost reply left in this worker's processing list.
    public func take(wait: Duration = .seconds(1)) async throws(RedisConnection.Failure) -> Item? {
        try await run { () throws(RedisConnection.Failure) in
            try self.reclaim()
            if self.lostReplies { try self.recoverUnheld() }
            let timeout = String(wait.seconds)
            guard case .string(let text) = try self.send(["BLMOVE", self.keys.queue, self.keys.processing(self.worker), "LEFT", "RIGHT", timeout])
            else { return nil }
            self.inHand[text, default: 0] += 1
            return Item(text: text)
        }
    }

    /// Pushes `record` to `NAME:results` and lets `item` go, in one step; false when the item was no longer this
    /// worker's (its lease expired and another worker took it back): the record is then not pushed.
    @discardableResult
    public func complete(_ item: Item, record: Data) async throws(RedisConnection.Failure) -> Bool {
        try await run { () throws(RedisConnection.Failure) in try self.settle(item, pushing: record, to: self.keys.results) }
    }

    /// A job's change-tracking state (`NAME:state`, a field per job) as a worker read it, and as its result leaves it.
    public struct StateChange: Sendable {
        /// The job's name: its field in `NAME:state`.
        public let job: String
        /// The state read before the job ran (nil: none).
        public let before: Data?
        /// The state the job's result leaves.
        public let after: Data

        /// The change of `job`'s state from `before` to `after`.
        public init(job: String, before: Data?, after: Data) {
            self.job = job
            self.before = before
            self.after = after
        }
    }

    /// Pushes `record` to `NAME:results`, sets the job's state as `change` says and lets `item` go, in one step: true
    /// when done, false when the item was no longer this worker's, nil (nothing done) when the job's state was no
    /// longer `change.before`: another worker recorded the job meanwhile, and what is new must be read again.
    public func complete(_ item: Item, record: Data, recording change: StateChange) async throws(RedisConnection.Failure) -> Bool? {
        try await run { () throws(RedisConnection.Failure) in
            switch try self.settle(item, pushing: record, to: self.keys.results, recording: change) {
            case 1: true
            case 2: nil
            default: false
            }
        }
    }

    /// The change-tracking state of `job` that workers recorded (`NAME:state`), nil when none did.
    public func state(of job: String) async throws(RedisConnection.Failure) -> Data? {
        try await run { () throws(RedisConnection.Failure) in
            guard case .string(let state) = try self.send(["HGET", self.keys.state, job]) else { return nil }
            return state
        }
    }

    /// Pushes `record` to `NAME:failed` and lets `item` go, in one step, as `complete` does.
    @discardableResult
    public func fail(_ item: Item, record: Data) async throws(RedisConnection.Failure) -> Bool {
        try await run { () throws(RedisConnection.Failure) in try self.settle(item, pushing: record, to: self.keys.failed) }
    }

    /// Lets `item` go without a record (a crawl's page that is not read twice), if it is still this worker's; false
    /// when it was not.
    @discardableResult
    public func drop(_ item: Item) async throws(RedisConnection.Failure) -> Bool {
        try await run { () throws(RedisConnection.Failure) in try self.settle(item, pushing: Data(), to: self.keys.results) }
    }

    /// Puts `item` back at the head of the queue (a worker that stops), if it is still this worker's.
    @discardableResult
    public func release(_ item: Item) async throws(RedisConnection.Failure) -> Bool {
        try await run { () throws(RedisConnection.Failure) in try self.settle(item, pushing: Data(), to: "") }
    }

    /// Adds `items` to the tail of the queue.
    public func push(_ items: [Data]) async throws(RedisConnection.Failure) {
        guard !items.isEmpty else { return }
        try await run { () throws(RedisConnection.Failure) in
            try self.connection.retrying([Data("RPUSH".utf8), Data(self.keys.queue.utf8)] + items, within: self.retryWithin)
        }
    }

    /// Marks `url` as seen by the queue's workers; true when no worker had seen it.
    public func firstSight(of url: String) async throws(RedisConnection.Failure) -> Bool {
        try await run { () throws(RedisConnection.Failure) in try self.send(["SADD", self.keys.seen, url]) == .integer(1) }
    }

    /// How many items wait in the queue.
    public func length() async throws(RedisConnection.Failure) -> Int {
        try await run { () throws(RedisConnection.Failure) in
            guard case .integer(let length) = try self.send(["LLEN", self.keys.queue]) else { return 0 }
            return length
        }
    }

    /// Whether the queue and every worker's processing list are empty: the work is done.
    public func isDrained() async throws(RedisConnection.Failure) -> Bool {
        try await run { () throws(RedisConnection.Failure) in
            guard try self.send(["LLEN", self.keys.queue]) == .integer(0) else { return false }
            for other in try self.workers() where try self.send(["LLEN", self.keys.processing(other)]) != .integer(0) {
                return false
            }
            return true
        }
    }

    /// Leaves the queue's workers: the heartbeat goes, and the processing list (which must be empty).
    public func leave() async throws(RedisConnection.Failure) {
        try await run { () throws(RedisConnection.Failure) in
            try self.send(["DEL", self.keys.heartbeat(self.worker)])
            try self.send(["SREM", self.keys.workers, self.worker])
        }
    }

    /// Puts back at the head of the queue what this worker's processing list holds beyond the items in hand: a
    /// lease whose reply was lost.
    private func recoverUnheld() throws(RedisConnection.Failure) {
        guard case .array(let listed) = try send(["LRANGE", keys.processing(worker), "0", "-1"]) else { return }
        var held = inHand
        for case .string(let text) in listed {
            if let count = held[text], count > 0 {
                held[text] = count - 1
            } else {
                try settle(Item(text: text), pushing: Data(), to: "")
            }
        }
        lostReplies = false
    }

    /// Puts back, at the head of the queue, the items of every worker whose heartbeat expired, and forgets those
    /// workers.
    private func reclaim() throws(RedisConnection.Failure) {
        for other in try workers() where other != worker {
            guard try send(["EXISTS", keys.heartbeat(other)]) == .integer(0) else { continue }
            while case .string = try send(["LMOVE", keys.processing(other), keys.queue, "RIGHT", "LEFT"]) {}
            try send(["SREM", keys.workers, other])
        }
    }

    private func workers() throws(RedisConnection.Failure) -> [String] {
        guard case .array(let names) = try send(["SMEMBERS", keys.workers]) else { return [] }
        return names.compactMap(\.text)
    }

    @discardableResult
    private func settle(_ item: Item, pushing record: Data, to key: String) throws(RedisConnection.Failure) -> Bool {
        try settle(item, pushing: record, to: key, recording: nil) == 1
    }

    /// Runs `settle` (see it for the answers); an item is no longer in hand unless the job's state moved.
    private func settle(_ item: Item, pushing record: Data, to key: String, recording change: StateChange?) throws(RedisConnection.Failure) -> Int {
        let state: [Data] =
            change.map { [Data($0.job.utf8), Data(($0.before == nil ? "1" : "0").utf8), $0.before ?? Data(), $0.after] } ?? [Data(), Data(), Data(), Data()]
        let arguments =
            [Data("EVAL".utf8), Data(Self.settle.utf8), Data("4".utf8)]
            + [keys.processing(worker), key.isEmpty ? keys.queue : key, keys.queue, keys.state].map { Data($0.utf8) } + [item.text, record] + state
        guard case .integer(let answer) = try connection.retrying(arguments, within: retryWithin, onRetry: { _ in self.lostReplies = true }) else {
            throw .server("the settle script answered with something other than a number")
        }
        if answer != 2, let count = inHand[item.text] { inHand[item.text] = count > 1 ? count - 1 : nil }
        return answer
    }

    /// Sends `arguments` as one command, again after a connection failure for `retryWithin`; on the queue's thread.
    @discardableResult
    func send(_ arguments: [String]) throws(RedisConnection.Failure) -> RedisConnection.Reply {
        try connection.retrying(arguments.map { Data($0.utf8) }, within: retryWithin) { _ in self.lostReplies = true }
    }
}
