import Foundation
import Synchronization
import Testing
import TestSupport
import WebParserQueue

/// The hosts' limits a queue's workers share on a real Redis: places leased as items are, turns and pauses by Redis'
/// clock, refusals counted in a row.
@Suite(.serialized) struct WorkQueueHostTests {
    /// Two workers of a new queue on a new Redis: `holder`, whose lease is `lease`, holds the one place at
    /// comics.example; `other` asks for one. Gives them, the task that enters, and whether it entered yet.
    func twoWorkers(lease: Duration) async throws -> (
        holder: WorkQueue, other: WorkQueue, entering: Task<Void, any Error>, entered: @Sendable () -> Bool, server: RedisServer
    ) {
        let server = try RedisServer()
        let url = try RedisURL(server.url(queue: "pages"))
        let holder = try await WorkQueue.open(url, worker: "holder", lease: lease)
        let other = try await WorkQueue.open(url, worker: "other", lease: .seconds(30))
        try await holder.enterHost("comics.example", perHost: 1, as: "page 1")
        let entered = Mutex(false)
        let entering = Task {
            try await other.enterHost("comics.example", perHost: 1, as: "page 2")
            entered.withLock { $0 = true }
        }
        return (holder, other, entering, { entered.withLock { $0 } }, server)
    }

    @Test func aHostsPlacesAreSharedByWorkersAndADeadWorkersEndWithItsLease() async throws {
        let (first, second, waiting, entered, server) = try await twoWorkers(lease: .seconds(30))
        try await second.enterHost("other.example", perHost: 1, as: "page 3")
        try await Task.sleep(for: .milliseconds(400))
        #expect(!entered(), "a second page of a host whose one place is taken waits")
        await first.leaveHost("comics.example", as: "page 1")
        try await waiting.value
        // A worker that dies holding a place holds it until its lease ends, not longer.
        let url = try RedisURL(server.url(queue: "pages"))
        let dying = try await WorkQueue.open(url, worker: "dying", lease: .seconds(1))
        try await dying.enterHost("dead.example", perHost: 1, as: "page 4")
        let started = ContinuousClock.now
        try await first.enterHost("dead.example", perHost: 1, as: "page 5")
        #expect(ContinuousClock.now - started >= .milliseconds(800))
    }

    @Test func aHeartbeatKeepsAPlaceBeyondItsLease() async throws {
        let (holder, _, waiting, entered, server) = try await twoWorkers(lease: .seconds(1))
        defer { withExtendedLifetime(server) {} }
        for _ in 0..<6 {
            try await Task.sleep(for: .milliseconds(300))
            try await holder.renew()
        }
        #expect(!entered(), "a place renewed by its worker's heartbeat is still held after 1.8 s")
        await holder.leaveHost("comics.example", as: "page 1")
        try await waiting.value
    }

    @Test func turnsAndPausesHoldForEveryWorker() async throws {
        let server = try RedisServer()
        let url = try RedisURL(server.url(queue: "pages"))
        let first = try await WorkQueue.open(url, worker: "first")
        let second = try await WorkQueue.open(url, worker: "second")
        // Delays and pauses far longer than any pause of a busy machine between two calls: the waits Redis answers
        // are read against their bounds, not against the clock.
        #expect(try await first.hostTurn("comics.example", delay: .seconds(60)) == nil)
        let wait = try #require(try await second.hostTurn("comics.example", delay: .seconds(60)))
        #expect(wait > .seconds(30) && wait <= .seconds(60), "\(wait)")
        let starting: Duration = .seconds(60)
        #expect(try await second.hostTurn("other.example", delay: .milliseconds(300), startingLimit: starting) == nil)
        // A turn holds until its load says it started, and the delay counts from then.
        try await Task.sleep(for: .milliseconds(400))
        let polled = try #require(try await first.hostTurn("other.example", delay: .milliseconds(300), startingLimit: starting))
        #expect(polled <= .milliseconds(20), "\(polled)")
        try await second.hostStarted("other.example", delay: .seconds(60))
        let after = try #require(try await first.hostTurn("other.example", delay: .milliseconds(300), startingLimit: starting))
        #expect(after > .seconds(30), "\(after)")
        try await first.pauseHost("other.example", for: .seconds(600))
        try await first.pauseHost("other.example", for: .seconds(60))
        let paused = try #require(try await second.hostTurn("other.example", delay: .zero))
        #expect(paused > .seconds(60) && paused <= .seconds(600), "a shorter pause leaves a longer one standing: \(paused)")
        #expect(try await first.strikeHost("comics.example") == 1)
        #expect(try await second.strikeHost("comics.example") == 2)
        try await first.forgiveHost("comics.example")
        #expect(try await second.strikeHost("comics.example") == 1)
        let ttl = Int(try server.cli(["PTTL", "pages:host:other.example"]).trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
        #expect(ttl > 1_100_000 && ttl <= 1_200_000, "a host's limits are forgotten ten minutes after its pause ends: \(ttl) ms")
    }
}
