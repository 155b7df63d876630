import Foundation
import Synchronization
import Testing
import WebParser
@testable import WebParserCore

/// A run's jobs as pipelines (`JobPipeline`) side by side (`JobScheduler`), on fake pages that take a while to
/// answer and share a run's page slots: a crawl holds neither another job's start nor its outcome.
@Suite struct JobSchedulerTests {
    /// `inner`'s pages, `count` at once, as a run's `-j` has them.
    struct SlottedPages: PageRunner {
        let inner: FakePages
        let slots: PageSlots

        init(_ inner: FakePages, count: Int) {
            self.inner = inner
            self.slots = PageSlots(count)
        }

        func run(_ job: WebParserJob, label: String, pass: HostPass) async throws -> WebParserResult {
            try await slots.run { try await inner.run(job, label: label, pass: pass) }
        }

        func download(_ url: URL, to path: String, maxBytes: Int, timeout: Duration) async throws -> WebParserDownload {
            try await inner.download(url, to: path, maxBytes: maxBytes, timeout: timeout)
        }
    }

    /// The jobs of the config `jobs` (the items of its `jobs` list, as JSON text).
    func jobs(_ jobs: String) throws -> [Config.NamedJob] {
        let text = #"{"jobs": ["# + jobs + "]}"
        return try ConfigLoader.parse(Array(text.utf8), name: "c.json", directory: URL(fileURLWithPath: "/"), environment: [:]).jobs
    }

    /// A site of `count` pages at `site`: its first page links every other, each of which links the first.
    static func site(_ site: String, count: Int) -> [String: FakePages.Page] {
        var pages = ["\(site)/0": FakePages.Page.page(data: "0", links: (1..<count).map { "\(site)/\($0)" })]
        for index in 1..<count { pages["\(site)/\(index)"] = .page(data: "\(index)", links: ["\(site)/0"]) }
        return pages
    }

    /// How a run of `jobs` ended: each job's end by name, in the order they were handed over.
    struct Run {
        var ends: [(name: String, ended: JobScheduler.Ended)] = []
        var order: [String] { ends.map(\.name) }
        func ended(_ name: String) -> JobScheduler.Ended? { ends.first { $0.name == name }?.ended }
    }

    /// Runs `jobs` on `pages`, `concurrency` jobs at once, with `memory` as the state's memory of each.
    func run(
        _ jobs: [Config.NamedJob], on pages: SlottedPages, concurrency: Int = 4, memory: @escaping (Config.NamedJob) -> JobMemory? = { _ in nil }
    ) async throws(JobScheduler.Stop) -> Run {
        var run = Run()
        try await JobScheduler(concurrency: concurrency).run(
            jobs, pipeline: { _ in JobPipeline(pages: pages, crawler: Crawler(pages: pages)) }, memory: memory,
            handle: { index, ended in run.ends.append((jobs[index].name, ended)) })
        return run
    }

    @Test func twoCrawlsOfTwoSitesGoSideBySide() async throws {
        let (first, second) = ("https://first.example", "https://second.example")
        let fake = FakePages(delay: .milliseconds(20), Self.site(first, count: 8).merging(Self.site(second, count: 8)) { $1 })
        let jobs = try jobs(
            #"{"name": "a", "url": "\#(first)/0", "script": "1", "crawl": {"robots": false, "perHost": 2}},"#
                + #"{"name": "b", "url": "\#(second)/0", "script": "1", "crawl": {"robots": false, "perHost": 2}}"#)
        let run = try await run(jobs, on: SlottedPages(fake, count: 4))
        #expect(run.ended("a")?.findings?.crawled?.pages.count == 8)
        #expect(run.ended("b")?.findings?.crawled?.pages.count == 8)
        let loads = fake.loads
        let lastOfFirst = try #require(loads.lastIndex { $0.hasPrefix(first) })
        let secondCrawl = loads.enumerated().filter { $0.element.hasPrefix(second) && $0.element != "\(second)/0" }.map(\.offset)
        #expect(secondCrawl.contains { $0 < lastOfFirst }, "the second site's crawl goes on while the first's does: \(loads)")
        #expect(fake.mostAtOnce > 2, "two sites' pages at once, beyond one site's perHost")
    }

    @Test func aOnePageJobsRecordDoesNotWaitForACrawl() async throws {
        let crawled = "https://crawled.example"
        var site = Self.site(crawled, count: 12)
        var members = [#"{"name": "crawl", "url": "\#(crawled)/0", "script": "1", "crawl": {"robots": false, "perHost": 2}}"#]
        for index in 1...8 {
            site["https://single.example/\(index)"] = .page(data: "\(index)", links: [])
            members.append(#"{"name": "job\#(index)", "url": "https://single.example/\#(index)", "script": "1"}"#)
        }
        let fake = FakePages(delay: .milliseconds(20), site)
        let run = try await run(try jobs(members.joined(separator: ",")), on: SlottedPages(fake, count: 4))
        #expect(run.order.last == "crawl", "every one-page job's outcome comes before the crawl's: \(run.order)")
        #expect(run.ended("crawl")?.findings?.crawled?.pages.count == 12)
        let loads = fake.loads
        let lastSingle = try #require(loads.lastIndex { $0.hasPrefix("https://single.example") })
        let lastCrawled = try #require(loads.lastIndex { $0.hasPrefix(crawled) })
        #expect(lastSingle < lastCrawled, "the one-page jobs start while the crawl goes on: \(loads)")
    }

    @Test func aJobThatFailsDuringACrawlEndsAloneAndItsFollowersAreNotRun() async throws {
        let crawled = "https://crawled.example"
        var site = Self.site(crawled, count: 6)
        site["https://single.example/broken"] = .fails(.loadFailed("connection refused"))
        site["https://single.example/fine"] = .page(data: "1", links: [])
        let jobs = try jobs(
            #"{"name": "crawl", "url": "\#(crawled)/0", "script": "1", "crawl": {"robots": false, "perHost": 1}},"#
                + #"{"name": "broken", "url": "https://single.example/broken", "script": "1"},"#
                + #"{"name": "afterBroken", "url": "https://single.example/fine", "script": "1", "after": "broken"},"#
                + #"{"name": "afterCrawl", "url": "https://single.example/fine", "script": "1", "after": "crawl"}"#)
        let fake = FakePages(delay: .milliseconds(10), site)
        let run = try await run(jobs, on: SlottedPages(fake, count: 2), concurrency: 2)
        #expect(run.order.count == 4 && Set(run.order).count == 4, "each job ends once: \(run.order)")
        guard case .failure(.failed(let error)) = run.ended("broken")?.outcome.result else {
            Issue.record("the broken job fails")
            return
        }
        #expect(error.description.contains("connection refused"))
        guard case .failure(.notRun(let reason)) = run.ended("afterBroken")?.outcome.result else {
            Issue.record("a job after a failed one is not run")
            return
        }
        #expect(reason.contains("\"broken\""))
        #expect(run.ended("crawl")?.findings?.crawled?.pages.count == 6)
        let afterCrawl = try #require(run.ended("afterCrawl"))
        #expect((try? afterCrawl.outcome.result.get()) != nil)
        #expect(run.order.firstIndex(of: "afterCrawl")! > run.order.firstIndex(of: "crawl")!, "a job after a crawl waits for its last page")
        #expect(fake.loads.last == "https://single.example/fine")
    }

    @Test func aChainOfAfterWaitsLinkByLinkWhileAnotherJobGoesOn() async throws {
        let crawled = "https://crawled.example"
        var site = Self.site(crawled, count: 5)
        site["https://single.example/b"] = .page(data: "1", links: [])
        site["https://single.example/c"] = .page(data: "2", links: [])
        site["https://other.example/d"] = .page(data: "3", links: [])
        let jobs = try jobs(
            #"{"name": "c", "url": "https://single.example/c", "script": "1", "after": "b"},"#
                + #"{"name": "b", "url": "https://single.example/b", "script": "1", "after": "a"},"#
                + #"{"name": "a", "url": "\#(crawled)/0", "script": "1", "crawl": {"robots": false}},"#
                + #"{"name": "d", "url": "https://other.example/d", "script": "1"}"#)
        let fake = FakePages(delay: .milliseconds(20), site)
        let run = try await run(jobs, on: SlottedPages(fake, count: 2), concurrency: 2)
        #expect(run.order.count == 4 && Set(run.order).count == 4, "each job ends once: \(run.order)")
        #expect(run.order.firstIndex(of: "d")! < run.order.firstIndex(of: "a")!, "a job of its own does not wait for the chain's crawl: \(run.order)")
        #expect(Array(run.order.filter { $0 != "d" }) == ["a", "b", "c"], "each link waits for the one before: \(run.order)")
        let loads = fake.loads
        let lastCrawlPage = loads.lastIndex { $0.hasPrefix(crawled) }!
        #expect(loads.firstIndex(of: "https://single.example/b")! > lastCrawlPage, "b starts after a's crawl ended: \(loads)")
        #expect(loads.firstIndex(of: "https://single.example/c")! > loads.firstIndex(of: "https://single.example/b")!)
        for name in ["a", "b", "c", "d"] { #expect((try? run.ended(name)?.outcome.result.get()) != nil, "\(name) succeeded") }
    }

    @Test func aCancelledRunThrowsAndHandsNoJobOverTwice() async throws {
        let crawled = "https://crawled.example"
        let fake = FakePages(delay: .milliseconds(30), Self.site(crawled, count: 200).merging(["https://single.example/1": .page(data: "1", links: [])]) { $1 })
        let jobs = try jobs(
            #"{"name": "crawl", "url": "\#(crawled)/0", "script": "1", "crawl": {"robots": false, "perHost": 1}},"#
                + #"{"name": "single", "url": "https://single.example/1", "script": "1"}"#)
        let handled = Mutex<[String]>([])
        let pages = SlottedPages(fake, count: 2)
        let task = Task {
            try await JobScheduler(concurrency: 2).run(
                jobs, pipeline: { _ in JobPipeline(pages: pages, crawler: Crawler(pages: pages)) }, memory: { _ in nil },
                handle: { index, _ in handled.withLock { $0.append(jobs[index].name) } })
        }
        while fake.loads.count < 5 { try await Task.sleep(for: .milliseconds(10)) }
        task.cancel()
        let result = await task.result
        guard case .failure(let error) = result, let stop = error as? JobScheduler.Stop, case .interrupted = stop else {
            Issue.record("a cancelled run says it was interrupted, not \(result)")
            return
        }
        let names = handled.withLock { $0 }
        #expect(Set(names).count == names.count, "no job handed over twice: \(names)")
        #expect(fake.loads.count < 200, "the crawl stopped when the run was cancelled")
    }

    @Test func aFollowLoadsWhatTheStateWouldReportAndAFirstRunReportsNothing() async throws {
        let site = "https://comics.example"
        let list = #"[{"id": 1, "link": "/c/1"}, {"id": 2, "link": "/c/2"}, {"id": 3, "link": "/c/3"}]"#
        let fake = FakePages(
            [
                "/list": .page(data: list, links: []), "/c/1": .page(data: #""one""#, links: []),
                "/c/2": .page(data: #""two""#, links: []), "/c/3": .page(data: #""three""#, links: [])
            ])
        let named = try #require(
            try jobs(#"{"name": "list", "url": "\#(site)/list", "script": "1", "key": "id", "follow": {"field": "link", "script": "1"}}"#).first)
        let pipeline = JobPipeline(pages: fake, crawler: Crawler(pages: fake))

        let first = try await pipeline.run(named, memory: JobMemory(previous: nil, emitInitial: false, reportsChanged: false))
        #expect(fake.loads.count == 1, "a first run reports no item, so it follows none: \(fake.loads)")
        #expect(first.findings.recorded.data == Data(list.utf8), "the state records the list as the page gave it")

        let initial = try await pipeline.run(named, memory: JobMemory(previous: nil, emitInitial: true, reportsChanged: false))
        #expect(initial.findings.followed?.loaded == 3)
        #expect(initial.findings.shown.count == 3)

        let previous = try ChangeTracker.changes(
            in: Data(#"[{"id": 1, "link": "/c/1"}, {"id": 2, "link": "/c/2"}]"#.utf8), since: nil, tracking: named.tracking, at: Date()
        ).updated
        let before = fake.loads.count
        let later = try await pipeline.run(named, memory: JobMemory(previous: previous, emitInitial: false, reportsChanged: false))
        #expect(Array(fake.loads.dropFirst(before)) == ["\(site)/list", "\(site)/c/3"], "only the new item's page is loaded")
        #expect(later.findings.shown.count == 1)
    }

    @Test func aFollowFollowsEachListOfAnObjectResultAsAWorkerQueuesThem() async throws {
        let site = "https://comics.example"
        let archive = #"{"updated": "2026-12-07", "chapters": [{"link": "/c/1"}, {"link": "/c/2"}], "extras": [{"link": "/x/1"}]}"#
        let fake = FakePages(
            [
                "/archive": .page(data: archive, links: []), "/c/1": .page(data: #""one""#, links: []),
                "/c/2": .page(data: #""two""#, links: []), "/x/1": .page(data: #""extra""#, links: [])
            ])
        let named = try #require(
            try jobs(#"{"name": "archive", "url": "\#(site)/archive", "script": "1", "follow": {"field": "link", "script": "1"}}"#).first)
        let (result, findings) = try await JobPipeline(pages: fake, crawler: Crawler(pages: fake)).run(named, memory: nil)
        let queued = FollowTargets.pages(of: Data(archive.utf8), field: "link", base: URL(string: site + "/archive")!).map(\.url.absoluteString)
        #expect(Set(fake.loads.dropFirst()) == Set(queued), "run loads the pages a worker queues")
        #expect(findings.followed?.loaded == 3 && findings.pagesFailed == 0)
        let shown = String(decoding: result.data, as: UTF8.self)
        #expect(shown.contains(#""updated":"2026-12-07""#) || shown.contains(#""updated": "2026-12-07""#), "\(shown)")
        #expect(shown.contains(#""detail":"one""#) && shown.contains(#""detail":"extra""#), "\(shown)")
    }

    @Test func aCrawlsFailedPageIsRecordedAsItsLastGoodRead() async throws {
        let site = "https://comics.example"
        let fake = FakePages(["/": .page(data: #""home""#, links: ["/a", "/b"]), "/a": .page(data: #""a""#, links: []), "/b": .fails(.connectionRefused)])
        let named = try #require(try jobs(#"{"name": "site", "url": "\#(site)/", "script": "1", "crawl": {"robots": false}}"#).first)
        let good = CrawlRecord.list([
            CrawledPage(url: "\(site)/", result: .success(Data(#""home""#.utf8))), CrawledPage(url: "\(site)/a", result: .success(Data(#""a""#.utf8))),
            CrawledPage(url: "\(site)/b", result: .success(Data(#""b before""#.utf8)))
        ])
        var tracking = named.tracking
        tracking.key = CrawlRecord.key
        let previous = try ChangeTracker.changes(in: good, since: nil, tracking: tracking, at: Date()).updated
        let (result, findings) = try await JobPipeline(pages: fake, crawler: Crawler(pages: fake))
            .run(named, memory: JobMemory(previous: previous, emitInitial: false, reportsChanged: false))
        #expect(findings.pagesFailed == 1)
        let recorded = String(decoding: findings.recorded.data, as: UTF8.self)
        #expect(recorded.contains(#""b before""#), "the failed page stands as it was last read: \(recorded)")
        let shown = String(decoding: result.data, as: UTF8.self)
        #expect(shown.contains(#""code""#) && !shown.contains("b before"), "the output shows the failure: \(shown)")
    }
}
