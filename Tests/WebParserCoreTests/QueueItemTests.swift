import Foundation
import Testing

import WebParser
@testable import WebParserCore

/// What a work queue's item is: a URL or a job object, read as a config's job; anything else says why.
struct QueueItemTests {
    func job(_ text: String, script: String? = "document.title", extract: String? = nil) throws(ConfigError) -> Config.NamedJob {
        try QueueItem(Data(text.utf8), named: "item", defaults: ConfigReader.Defaults(), script: script, extract: extract).named
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
        let item = try QueueItem(found, named: "item", defaults: ConfigReader.Defaults())
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
        let detail = try QueueItem(text, named: "item", defaults: ConfigReader.Defaults())
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
        let item = try QueueItem(Data("https://x.test/".utf8), named: "item", defaults: config.defaults, itemFiles: config.itemFiles)
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

    /// Whoever can push to the queue is not the worker's owner: an item reads none of the worker's files, and writes
    /// none unless the worker's config names a folder for items' files, where an item gives a file name only.
    @Test func anItemReadsAndWritesNoFileOfTheWorkers() throws {
        let folder = FileManager.default.temporaryDirectory.appending(path: "webparse-items-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let refused = [
            (#"{"url": "https://x.test/", "screenshot": "/data/comics.state"}"#, "an item writes no file of the worker's unless"),
            (#"{"url": "https://x.test/", "screenshot": {"file": "shot.png", "fullPage": true}}"#, "\"itemFiles\""),
            (#"{"url": "https://x.test/", "scriptFile": "/etc/hostname"}"#, "an item reads no file of the worker's, and a file is one"),
            (#"{"url": "https://x.test/", "script": "1", "userScripts": ["/etc/hostname"]}"#, "an item reads no file of the worker's"),
            (#"{"url": "./page.html", "script": "1"}"#, "an item loads web pages only (http or https)"),
            (#"{"url": "https://x.test/", "script": "1", "follow": {"field": "u", "script": "1", "screenshot": "x.png"}}"#, "follow.screenshot")
        ]
        for (text, expected) in refused {
            do {
                _ = try QueueItem(Data(text.utf8), named: "item", defaults: ConfigReader.Defaults(), script: "1")
                Issue.record("\(text) was taken")
            } catch {
                #expect(error.description.contains(expected), "\(error.description)")
            }
        }
        func item(_ screenshot: String) throws(ConfigError) -> QueueItem {
            try QueueItem(
                Data(#"{"url": "https://x.test/", "script": "1", "screenshot": \#(screenshot)}"#.utf8), named: "item", defaults: ConfigReader.Defaults(),
                itemFiles: folder)
        }
        let shot = try item(#"{"file": "page 1.png", "fullPage": true}"#).named.job.evaluation.screenshot
        #expect(shot == WebParserJob.Screenshot(file: folder.appending(path: "page 1.png"), fullPage: true, confined: true))
        // A file an item wrote before (private, the worker's) is replaced; anything else there is not.
        _ = FileManager.default.createFile(atPath: folder.appending(path: "mine.png").path, contents: Data(), attributes: [.posixPermissions: 0o600])
        #expect(try item(#""mine.png""#).named.job.evaluation.screenshot?.file.lastPathComponent == "mine.png")
        _ = FileManager.default.createFile(atPath: folder.appending(path: "state").path, contents: Data(), attributes: [.posixPermissions: 0o644])
        try FileManager.default.createSymbolicLink(atPath: folder.appending(path: "link.png").path, withDestinationPath: "/tmp/elsewhere.png")
        for (name, expected) in [
            ("../x.png", "a file name only"), ("sub/x.png", "a file name only"), (".hidden", "a file name only"),
            ("state", "is not an item's file (it is a file webparse did not write for an item"), ("link.png", "(it is a symbolic link)")
        ] {
            do {
                _ = try item(String(reflecting: name))
                Issue.record("\(name) was taken")
            } catch {
                #expect(error.description.contains(expected), "\(error.description)")
            }
        }
    }
}
