import Foundation
import Testing

@testable import WebParserCore

/// What a work queue's item is: a URL or a job object, read as a config's job; anything else says why.
struct QueueItemTests {
    let directory = URL(fileURLWithPath: "/tmp")

    func job(_ text: String, script: String? = "document.title", extract: String? = nil) throws(ConfigError) -> Config.NamedJob {
        try QueueItem(Data(text.utf8), named: "item", defaults: ConfigReader.Defaults(), script: script, extract: extract, directory: directory).named
    }

    @Test func aURLEvaluatesTheWorkersScript() throws {
        let named = try job(" https://comics.example/series/1 \n")
        #expect(named.job.url.absoluteString == "https://comics.example/series/1")
        #expect(named.job.evaluation.script == "document.title")
        #expect(named.name == "https://comics.example/series/1")
    }

    @Test func aJobObjectHasTheConfigsFields() throws {
        let named = try job(#"{"name": "one piece", "url": "https://comics.example/op", "extract": {"items": "li", "fields": {"title": "a"}}, "timeout": 5}"#)
        #expect(named.name == "one piece")
        #expect(named.job.evaluation.extract?.items == "li")
        #expect(named.job.timeout == .seconds(5))
        let own = try job(#"{"url": "https://comics.example/op", "script": "1 + 1"}"#)
        #expect(own.job.evaluation.script == "1 + 1")
    }

    @Test func whatIsNotAnItemSaysWhy() {
        let cases = [
            ("ftp://comics.example/", "is neither an http(s) URL nor a job object"),
            ("chapter 12", "is neither an http(s) URL nor a job object"),
            (#"{"url": "https://x.test/", "timout": 5}"#, "timout"),
            (#"{"url": "https://x.test/""#, "invalid JSON"),
            ("[1, 2]", "is neither an http(s) URL nor a job object"),
            (#"{"url": "file:///etc/passwd"}"#, "an item loads web pages only (http or https)"),
            (##"{"url": "https://x.test/", "steps": [{"fill": {"#password": {"env": "HOME"}}}]}"##, "HOME"),
            (#"{"url": "https://x.test/", "depth": -1}"#, "\"depth\": expected the number of links"),
            (String(repeating: "a", count: QueueItem.limit + 1), "is larger than 1048576 bytes")
        ]
        for (text, expected) in cases {
            do {
                _ = try job(text)
                Issue.record("\(text.prefix(40)) was taken as an item")
            } catch {
                #expect(error.description.hasPrefix("item:") && error.description.contains(expected), "\(error.description.prefix(200))")
            }
        }
        #expect(throws: ConfigError.self, "a URL without a script") { try job("https://x.test/", script: nil) }
    }

    @Test func aBareURLReadsTheWorkersExtract() throws {
        let named = try job("https://comics.example/series/1", script: nil, extract: #"{"fields": {"title": "h1"}}"#)
        #expect(named.job.evaluation.extract?.fields.first?.name == "title")
    }

    /// A page a crawl found is its crawl's item with the page's URL, the crawl's name and its depth.
    @Test func aCrawledPageIsItsCrawlsItemOneLinkDeeper() throws {
        let crawl = #"{"url": "https://comics.example/", "script": "document.title", "crawl": {"maxDepth": 3}}"#
        let found = QueueItem.crawled(from: Data(crawl.utf8), url: "https://comics.example/a", name: "site", depth: 2)
        let item = try QueueItem(found, named: "item", defaults: ConfigReader.Defaults(), directory: directory)
        #expect(item.depth == 2 && item.named.name == "site" && item.named.job.url.absoluteString == "https://comics.example/a")
        #expect(item.named.crawl?.maxDepth == 3 && item.named.job.evaluation.script == "document.title")
        let bare = QueueItem.crawled(from: Data("https://comics.example/".utf8), url: "https://comics.example/b", name: "https://comics.example/", depth: 1)
        #expect(String(decoding: bare, as: UTF8.self) == #"{"name":"https://comics.example/","url":"https://comics.example/b","depth":1}"#)
    }

    /// A list's detail page is an item of its own: its list's item gives the follow's job, run at the detail's URL.
    @Test func aDetailPageIsItsListsFollowAtItsURL() throws {
        let list =
            #"{"name": "archive", "url": "https://comics.example/", "script": "[]", "follow": {"field": "url", "script": "document.title", "follow": {"field": "href", "script": "1"}}}"#
        let text = QueueItem.detail(of: Data(list.utf8), url: "https://comics.example/ch/1", name: "archive", item: Data(#"{"url":"ch/1"}"#.utf8))
        let detail = try QueueItem(text, named: "item", defaults: ConfigReader.Defaults(), directory: directory)
        #expect(detail.named.name == "archive" && detail.named.job.url.absoluteString == "https://comics.example/ch/1")
        #expect(detail.named.job.evaluation.script == "document.title" && detail.named.follow?.field == "href" && detail.named.crawl == nil)
        #expect(detail.listItem.map { String(decoding: $0, as: UTF8.self) } == #"{"url":"ch/1"}"#)
        for (text, expected) in [
            (#"{"url": "https://x.test/", "detailOf": "https://x.test/list", "item": {}}"#, "the list's item has no follow"),
            (#"{"url": "https://x.test/", "detailOf": "https://x.test/list", "item": {}, "timeout": 5}"#, "timeout: a detail page's item has"),
            (#"{"url": "file:///etc/passwd", "detailOf": "https://x.test/list", "item": {}}"#, "needs an http(s) \"url\"")
        ] {
            #expect(throws: ConfigError.self) { try job(text) }
            do { _ = try job(text) } catch { #expect(error.description.contains(expected), "\(error.description)") }
        }
    }

    /// A worker's config gives defaults and settings, and no jobs.
    @Test func aWorkersConfigGivesDefaultsAndNoJobs() throws {
        let folder = FileManager.default.temporaryDirectory.appending(path: "webparse-worker-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let good = folder.appending(path: "worker.json")
        try #"{"defaults": {"script": "document.title", "timeout": 7}, "concurrency": 3}"#.write(to: good, atomically: true, encoding: .utf8)
        let config = try WorkerConfig.load(path: good.path, environment: [:])
        #expect(config.run.concurrency == 3 && config.defaults.gives("script") && config.directory.path == folder.path)
        let item = try QueueItem(Data("https://x.test/".utf8), named: "item", defaults: config.defaults, directory: config.directory)
        #expect(item.named.job.timeout == .seconds(7) && item.named.job.evaluation.script == "document.title")
        for (text, expected) in [
            (#"{"jobs": []}"#, "jobs: a worker's config has no jobs"), (#"{"url": "https://x.test/"}"#, "url: a worker's config has no jobs"),
            (#"{"defualts": {}}"#, "unknown key; did you mean \"defaults\"?"), ("[]", "expected a JSON object")
        ] {
            let bad = folder.appending(path: "bad.json")
            try text.write(to: bad, atomically: true, encoding: .utf8)
            #expect(throws: ConfigError.self) { try WorkerConfig.load(path: bad.path, environment: [:]) }
            do { _ = try WorkerConfig.load(path: bad.path, environment: [:]) } catch {
                #expect(error.description.contains("bad.json") && error.description.contains(expected), "\(error.description)")
            }
        }
    }
}
