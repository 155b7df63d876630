import Foundation
import Synchronization
import Testing
import WebParser
import WebParserCore

/// The limits each host's pages keep in one process (`HostGates` over a `LocalHostBook`), on a fake site, and how
/// long a refusal pauses a host (`HostPause`).
@Suite struct HostGatesTests {
    static let site = "https://comics.example"

    /// Crawls `pages` from `/` by `crawl`, and gives what the crawl said.
    func crawl(_ pages: FakePages, _ crawl: Crawl) async throws -> [CrawlEvent] {
        var job = WebParserJob(url: URL(string: pages.site + "/")!, script: "document.title")
        job.evaluation.links = crawl.links
        let first = try await pages.run(job, label: "start")
        let events = Mutex<[CrawlEvent]>([])
        _ = await Crawler(pages: pages).crawl(crawl, job: job, start: first, name: "site") { event in events.withLock { $0.append(event) } }
        return events.withLock { $0 }
    }

    /// A home page linking to `first`, then to eight pages that answer at once.
    static func site(first: FakePages.Page) -> FakePages {
        var routes: [String: FakePages.Page] = ["/": .page(data: "1", links: ["/first"] + (1...8).map { "/p\($0)" }), "/first": first]
        for n in 1...8 { routes["/p\(n)"] = .page(data: "2", links: []) }
        return FakePages(routes)
    }

    /// The starts of the loads that started after the first refusal, as durations after it; a load whose turn came
    /// while the refusal was on its way to the host's book (its first 100 ms) is not counted.
    func startsAfterRefusal(in pages: FakePages) throws -> [Duration] {
        let refusal = try #require(pages.refusals.first)
        return pages.starts.filter { $0 > refusal + .milliseconds(100) }.map { $0 - refusal }
    }

    @Test func aRefusalWithRetryAfterPausesTheHostAsLongAsItAsks() async throws {
        let pages = Self.site(first: .refuses(status: 429, retryAfter: .milliseconds(1500)))
        let events = try await crawl(pages, Crawl(robots: false, perHost: 4))
        let after = try startsAfterRefusal(in: pages)
        #expect(after.count >= 4)
        #expect(after.allSatisfy { $0 >= .milliseconds(1500) }, "\(after)")
        let notes = events.compactMap { if case .note(let note) = $0 { note } else { nil } }
        #expect(notes.contains("comics.example answered HTTP status 429: no page of it loads for 1.5 s (its Retry-After)"), "\(notes)")
    }

    @Test func a503WithRetryAfterPausesAndOneWithoutDoesNot() async throws {
        let asked = Self.site(first: .refuses(status: 503, retryAfter: .seconds(1)))
        _ = try await crawl(asked, Crawl(robots: false, perHost: 4))
        #expect(try startsAfterRefusal(in: asked).allSatisfy { $0 >= .seconds(1) })
        let down = Self.site(first: .refuses(status: 503, retryAfter: nil))
        let events = try await crawl(down, Crawl(robots: false, perHost: 1))
        let pauses = events.compactMap { if case .note(let note) = $0, note.contains("no page of it loads") { note } else { nil } }
        #expect(pauses.isEmpty && down.loads.count == 10, "a 503 without Retry-After pauses nothing: \(pauses)")
    }

    @Test func aRefusalWithoutRetryAfterBacksOff() async throws {
        // The eight pages are found on `/a`, after `/first` asked for its place: they all start after the refusal,
        // whichever of `/first` and `/a` goes first.
        var routes: [String: FakePages.Page] = [
            "/": .page(data: "1", links: ["/first", "/a"]), "/first": .refuses(status: 429, retryAfter: nil),
            "/a": .page(data: "1", links: (1...8).map { "/p\($0)" })
        ]
        for n in 1...8 { routes["/p\(n)"] = .page(data: "2", links: []) }
        let pages = FakePages(routes)
        _ = try await crawl(pages, Crawl(robots: false, perHost: 1))
        let after = try startsAfterRefusal(in: pages)
        #expect(after.count >= 6 && after.allSatisfy { $0 >= HostPause.firstBackOff }, "\(after) \(pages.loads)")
    }

    @Test func theDelayHoldsBetweenStartsAndPerHostAtOnce() async throws {
        var routes: [String: FakePages.Page] = ["/": .page(data: "1", links: (1...6).map { "/p\($0)" })]
        for n in 1...6 { routes["/p\(n)"] = .slow(data: "2", delay: .milliseconds(300)) }
        let pages = FakePages(routes)
        _ = try await crawl(pages, Crawl(robots: false, perHost: 2, delay: .milliseconds(100)))
        let starts = pages.starts.dropFirst()
        let gaps = zip(starts, starts.dropFirst()).map { $1 - $0 }
        #expect(gaps.count == 5 && gaps.allSatisfy { $0 >= .milliseconds(100) }, "\(gaps)")
        #expect(pages.mostAtOnce == 2)
    }

    @Test func aPauseIsWhatTheHostAskedBoundedAndBackOffDoubles() async throws {
        func pause(_ status: Int, retryAfter: Duration? = nil, unread: String? = nil, strikes: Int = 1) async -> HostPause? {
            var error = WebParserError(.httpStatus(status), url: "https://comics.example/")
            error.retryAfter = retryAfter
            error.unreadRetryAfter = unread
            return await HostPause.after(error, at: "comics.example") { strikes }
        }
        let asked = await pause(429, retryAfter: .seconds(2))
        #expect(asked?.duration == .seconds(2) && asked?.asked == true && asked?.warning == nil)
        let huge = await pause(429, retryAfter: .seconds(86400))
        #expect(huge?.duration == HostPause.longest && huge?.asked == true)
        #expect(huge?.warning == "comics.example asked for a pause of 86400 s (Retry-After); webparse pauses it 600 s, its longest")
        #expect(await pause(429, strikes: 1)?.duration == .seconds(1))
        #expect(await pause(429, strikes: 3)?.duration == .seconds(4))
        #expect(await pause(429, strikes: 7)?.duration == HostPause.longestBackOff)
        #expect(await pause(429, strikes: 400)?.duration == HostPause.longestBackOff)
        let unread = await pause(429, unread: "-5", strikes: 2)
        #expect(unread?.duration == .seconds(2) && unread?.asked == false)
        #expect(unread?.warning == "comics.example answered 429 with Retry-After: -5, neither seconds nor an HTTP date; webparse pauses it 2 s")
        #expect(await pause(503) == nil)
        #expect(await pause(503, retryAfter: .seconds(3))?.duration == .seconds(3))
        #expect(await pause(500, retryAfter: .seconds(3)) == nil)
        #expect(await pause(404) == nil)
    }

    @Test func aPlaceIsHandedOnInTheOrderAsked() async throws {
        let book = LocalHostBook()
        try await book.enter("a", perHost: 1, as: "first")
        let order = Mutex<[String]>([])
        let waiting = Task {
            try await book.enter("a", perHost: 1, as: "second")
            order.withLock { $0.append("second") }
        }
        try await book.enter("b", perHost: 1, as: "other host")
        try await Task.sleep(for: .milliseconds(50))
        order.withLock { $0.append("first leaves") }
        await book.leave("a", as: "first")
        try await waiting.value
        #expect(order.withLock { $0 } == ["first leaves", "second"])
    }
}
