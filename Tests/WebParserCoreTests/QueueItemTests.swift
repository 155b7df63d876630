import Foundation
import Testing

@testable import WebParserCore

/// What a work queue's item is: a URL or a job object, read as a config's job; anything else says why.
struct QueueItemTests {
    let directory = URL(fileURLWithPath: "/tmp")

    func job(_ text: String, script: String? = "document.title") throws(ConfigError) -> Config.NamedJob {
        try QueueItem.job(from: Data(text.utf8), named: "item", defaults: ConfigReader.Defaults(), script: script, directory: directory)
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
}
