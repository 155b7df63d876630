import Foundation
import Testing
import TestSupport
import WebParserQueue

/// The work queue on a real Redis (Debian's redis-server, started on a free port): leases, results, failures,
/// expired leases, a restarted server.
@Suite(.serialized) struct WorkQueueTests {
    @Test func aQueueURLIsReadOrSaysWhatIsWrong() throws {
        let url = try RedisURL("redis://:s%40cret@redis.test:6380/2?queue=comics")
        #expect(url.host == "redis.test" && url.port == 6380 && url.database == 2 && url.password == "s@cret" && url.queue == "comics")
        #expect(url.description == "redis://:***@redis.test:6380/2?queue=comics")
        let plain = try RedisURL("redis://localhost?queue=q")
        #expect(plain.port == 6379 && plain.database == 0 && plain.password == nil)
        for (text, problem) in [
            ("http://localhost?queue=q", "is not a redis:// URL"), ("redis://localhost", "no queue: add ?queue=NAME"),
            ("redis://localhost/x?queue=q", "the database \"x\" is not a number"), ("redis://localhost?queue=q&db=1", "unknown parameter \"db\""),
            ("redis://:pw@?queue=q", "names no host")
        ] {
            #expect(throws: RedisURL.Problem.self, "\(text)") { try RedisURL(text) }
            do { _ = try RedisURL(text) } catch { #expect(error.description.contains(problem), "\(error)") }
        }
        do { _ = try RedisURL("http://:topsecret@host?queue=q") } catch { #expect(!error.description.contains("topsecret")) }
    }

    @Test func twoHundredItemsByThreeWorkersAreEachDoneOnce() async throws {
        let server = try RedisServer()
        let url = try RedisURL(server.url(queue: "pages"))
        let producer = try await WorkQueue.open(url, worker: "producer")
        try await producer.push((1...200).map { Data("http://example.test/\($0)".utf8) })
        try await producer.leave()
        let done = try await withThrowingTaskGroup(of: [String].self) { group in
            for worker in 1...3 {
                group.addTask {
                    let queue = try await WorkQueue.open(url, worker: "worker-\(worker)")
                    var done: [String] = []
                    while let item = try await queue.take(wait: .milliseconds(200)) {
                        let text = String(decoding: item.text, as: UTF8.self)
                        #expect(try await queue.complete(item, record: Data("{\"url\":\"\(text)\"}".utf8)))
                        done.append(text)
                    }
                    try await queue.leave()
                    return done
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        #expect(done.count == 200 && Set(done).count == 200)
        #expect(try server.cli(["LLEN", "pages:results"]) == "200")
        #expect(try server.cli(["LLEN", "pages"]) == "0")
        #expect(try await producer.isDrained())
    }

    /// A crawl's page whose load ended where another page's had is a duplicate: nothing is queued from it, and the
    /// worker lets it go without a record; the same page done again (its lease lost) is no duplicate of itself.
    @Test func aPageThatEndedAtAnotherPagesEndIsADuplicateAndDropped() async throws {
        let server = try RedisServer()
        let queue = try await WorkQueue.open(try RedisURL(server.url(queue: "site")), worker: "w")
        let (a, slash) = ("http://site.test/a", "http://site.test/a/")
        let found = [WorkQueue.FoundPage(url: "http://site.test/b", item: Data("b".utf8))]
        let first = try await queue.discover(found, from: a, endedAt: slash, of: "site", maxPages: 100)
        #expect(first.queued == 1 && first.leftAtMaxPages == 0 && !first.isDuplicate, "\(first)")
        let again = try await queue.discover(found, from: a, endedAt: slash, of: "site", maxPages: 100)
        #expect(!again.isDuplicate, "the same page done again")
        let other = try await queue.discover([WorkQueue.FoundPage(url: "http://site.test/c", item: Data("c".utf8))], from: slash, of: "site", maxPages: 100)
        #expect(other.isDuplicate && other.queued == 0, "\(other)")
        #expect(try server.cli(["LRANGE", "site", "0", "-1"]) == "b")
        try await queue.push([Data("x".utf8)])
        let item = try #require(try await queue.take(wait: .milliseconds(200)))
        #expect(String(decoding: item.text, as: UTF8.self) == "b")
        #expect(try await queue.drop(item))
        #expect(try server.cli(["LLEN", "site:results"]) == "0")
        #expect(try server.cli(["LLEN", "site"]) == "1")
        #expect(try !(await queue.drop(item)), "an item let go is no longer the worker's")
        try await queue.leave()
    }

    @Test func anItemOfAWorkerWhoseLeaseExpiredIsDoneByAnother() async throws {
        let server = try RedisServer()
        let url = try RedisURL(server.url(queue: "jobs"))
        let killed = try await WorkQueue.open(url, worker: "killed", lease: .seconds(1))
        try await killed.push([Data("one".utf8)])
        let lost = try #require(try await killed.take())
        // The worker is gone (SIGKILL): no heartbeat, no result; its item waits in its processing list.
        let other = try await WorkQueue.open(url, worker: "other")
        #expect(try await other.take(wait: .milliseconds(100)) == nil)
        #expect(try await !other.isDrained())
        try await Task.sleep(for: .milliseconds(1500))
        let taken = try #require(try await other.take())
        #expect(taken == lost)
        #expect(try await other.complete(taken, record: Data("{}".utf8)))
        #expect(try await !killed.complete(lost, record: Data("{\"late\":true}".utf8)), "a late worker's record is not pushed")
        #expect(try server.cli(["LRANGE", "jobs:results", "0", "-1"]) == "{}")
        #expect(try await other.isDrained())
    }

    @Test func aFailedItemGoesToFailedAndAReleasedOneBack() async throws {
        let server = try RedisServer()
        let queue = try await WorkQueue.open(try RedisURL(server.url(queue: "q")), worker: "w")
        try await queue.push([Data("bad".utf8), Data("later".utf8)])
        let bad = try #require(try await queue.take())
        #expect(try await queue.fail(bad, record: Data("{\"error\":\"not a URL\"}".utf8)))
        let later = try #require(try await queue.take())
        #expect(try await queue.release(later))
        #expect(try server.cli(["LRANGE", "q", "0", "-1"]) == "later")
        #expect(try server.cli(["LRANGE", "q:failed", "0", "-1"]) == "{\"error\":\"not a URL\"}")
        #expect(try await queue.firstSight(of: "http://x.test/"))
        #expect(try await !queue.firstSight(of: "http://x.test/"))
    }

    @Test func aServerRestartedDuringARunLosesAndDuplicatesNothing() async throws {
        let server = try RedisServer()
        let url = try RedisURL(server.url(queue: "r"))
        let queue = try await WorkQueue.open(url, worker: "w")
        try await queue.push((1...60).map { Data("item \($0)".utf8) })
        var count = 0
        while let item = try await queue.take(wait: .milliseconds(200)) {
            count += 1
            if count == 20 || count == 40 {
                server.stop()
                let restart = Task.detached {
                    try? await Task.sleep(for: .milliseconds(700)); try server.start()
                }
                #expect(try await queue.complete(item, record: item.text))
                try await restart.value
            } else {
                #expect(try await queue.complete(item, record: item.text))
            }
        }
        let results = try server.cli(["LRANGE", "r:results", "0", "-1"]).split(separator: "\n").map(String.init)
        #expect(results.count == 60 && Set(results).count == 60)
        #expect(try await queue.isDrained())
    }

    @Test func aWrongPasswordOrAKeyOfAnotherTypeIsAnErrorBeforeAnyWork() async throws {
        let server = try RedisServer(password: "right")
        await #expect(throws: RedisConnection.Failure.self) { try await WorkQueue.open(try RedisURL(server.url(queue: "q", password: "wrong")), worker: "w") }
        try server.cli(["SET", "q", "a string"])
        do {
            _ = try await WorkQueue.open(try RedisURL(server.url(queue: "q")), worker: "w")
            Issue.record("a key of the wrong type was taken for the queue")
        } catch {
            #expect(String(describing: error).contains("the key q is a string, not a list"))
        }
        let down = try RedisURL("redis://127.0.0.1:1/0?queue=q")
        await #expect(throws: RedisConnection.Failure.self) { try await WorkQueue.open(down, worker: "w", retryWithin: .zero) }
    }

    /// A worker that starts under the name of one that ended (a container restarted as PID 1 again) puts back what
    /// the earlier one left: otherwise its own heartbeat would keep those items leased forever.
    @Test func aWorkerOfAnEndedWorkersNamePutsItsItemsBack() async throws {
        let server = try RedisServer()
        let url = try RedisURL(server.url(queue: "pods"))
        let ended = try await WorkQueue.open(url, worker: "pod-1-1")
        try await ended.push([Data("one".utf8), Data("two".utf8)])
        _ = try #require(try await ended.take())
        let again = try await WorkQueue.open(url, worker: "pod-1-1")
        #expect(try server.cli(["LRANGE", "pods", "0", "-1"]) == "one\ntwo")
        let taken = try #require(try await again.take())
        #expect(try await again.complete(taken, record: Data("{}".utf8)))
        #expect(try await !again.isDrained())
    }
}
