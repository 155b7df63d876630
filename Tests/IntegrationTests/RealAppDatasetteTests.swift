import Foundation
import TestSupport
import Testing

/// webparse on Datasette (PyPI, pinned), unmodified, serving a comics database: server-rendered tables with its own
/// stylesheet and scripts, a "Next page" link, a page per row, sort and export links beside them. Every answer is
/// checked against what Datasette's own JSON API and the database hold, at one page at a time and at the default
/// `-j`, three times each.
@Suite(.serialized) struct RealAppDatasetteTests: CommandLineTest {
    /// The first page of the chapters, ten rows to a page.
    static let list = "/comics/chapters?_size=10"
    /// Datasette's next page: the link that says so (beside it, the export links hold `_next=` too).
    static let nextPage = #"{"script": "[...document.querySelectorAll('a')].find((a) => a.textContent.trim() == 'Next page')?.href ?? null"}"#

    /// Datasette on a fresh copy of the comics database in `directory`; the database's path.
    func start(in directory: URL) throws -> (RealApplication, database: String) {
        let database = directory.appending(path: "comics.db").path
        let made = try ProcessRunner(path: "/usr/bin/python3").output([RealApplication.fixtures.appending(path: "comics_db.py").path, database])
        try #require(made.status == 0, "comics_db.py failed")
        let app = try RealApplication("Datasette 0.65.5", program: "datasette") { ["serve", database, "-h", "127.0.0.1", "-p", String($0)] }
        return (app, database)
    }

    /// The chapters as Datasette's JSON API gives them, by id: [title, series, published, pages].
    func chapters(of app: RealApplication) throws -> [String: [String]] {
        let rows = try #require(try RealApplication.truth(["json", "\(app.base)/comics/chapters.json?_shape=array&_size=max"]) as? [[String: Any]])
        var chapters: [String: [String]] = [:]
        for row in rows {
            let values = ["title", "series", "published", "pages"].map { row[$0].map { "\($0)" } ?? "" }
            chapters["\(row["id"] ?? "")"] = values
        }
        return chapters
    }

    static let concurrencies: [[String]] = [["-j", "1"], []]

    /// A config in `directory` of a job that starts at the table's first page, with `fields` (JSON members).
    func config(_ app: RealApplication, _ fields: String, in directory: URL) throws -> String {
        try write(#"{"url": "\#(app.base)\#(Self.list)", "retries": 0, "timeout": 30, \#(fields)}"#, "chapters.json", in: directory)
    }

    /// Every row of the table, page after page by its "Next page" link, each with its own page's fields (`follow`).
    @Test(arguments: concurrencies) func everyRowOfEveryPageWithItsOwnPage(concurrency: [String]) async throws {
        let directory = try folder()
        let (app, _) = try start(in: directory)
        defer { app.stop() }
        let config = try config(
            app,
            #"""
             "extract": {"items": "table.rows-and-columns tbody tr", "fields": {"id": "td.col-id", "title": "td.col-title", "url": "td.col-id a@href"}},
             "next": \#(Self.nextPage),
             "maxPages": 20,
             "follow": {"field": "url", "extract": {"fields": {"series": "td.col-series", "published": "td.col-published", "pages": "td.col-pages"}}}
            """#, in: directory)
        let truth = try chapters(of: app)
        for round in 1...3 {
            let run = try await webparse.run(["run", config] + concurrency, environment: headless)
            #expect(run.status == 0, "round \(round) \(concurrency): \(run.stderr)")
            let items = try #require(try JSONSerialization.jsonObject(with: run.stdout) as? [[String: Any]], "\(run.stdoutText) \(run.stderr)")
            var read: [String: [String]] = [:]
            for item in items {
                let detail = item["detail"] as? [String: Any] ?? [:]
                let values = [item["title"], detail["series"], detail["published"], detail["pages"]].map { $0 as? String ?? "\($0 ?? "nil")" }
                #expect(read.updateValue(values, forKey: item["id"] as? String ?? "?") == nil, "round \(round): \(item) twice")
            }
            #expect(read == truth, "round \(round) \(concurrency): \(read.filter { truth[$0.key] != $0.value }) \(run.stderr)")
        }
    }

    /// A crawl of the table's section: its five list pages and its 47 row pages, each once, none lost.
    @Test(arguments: concurrencies) func aCrawlOfTheTableReadsEveryPageOnce(concurrency: [String]) async throws {
        let directory = try folder()
        let (app, _) = try start(in: directory)
        defer { app.stop() }
        let config = try config(
            app,
            #"""
             "script": "document.querySelector('td.col-title')?.textContent ?? null",
             "crawl": {"match": "/comics/chapters(/[0-9]+|[?]_size=10(&_next=[0-9]+)?)$", "perHost": 4}
            """#, in: directory)
        let truth = try chapters(of: app)
        var expected: [String: String] = [:]
        for (id, values) in truth { expected["\(app.base)/comics/chapters/\(id)"] = values[0] }
        for next in stride(from: 0, to: truth.count, by: 10) {
            let title = truth[String(next + 1)]?[0] ?? "?"
            expected["\(app.base)\(Self.list)\(next == 0 ? "" : "&_next=\(next)")"] = title
        }
        for round in 1...3 {
            let run = try await webparse.run(["run", config] + concurrency, environment: headless)
            #expect(run.status == 0, "round \(round) \(concurrency): \(run.stderr)")
            let pages = try #require(try JSONSerialization.jsonObject(with: run.stdout) as? [String: Any], "\(run.stdoutText) \(run.stderr)")
            let read = pages.mapValues { $0 as? String ?? "\($0)" }
            #expect(read == expected, "round \(round) \(concurrency): \(read.filter { expected[$0.key] != $0.value }) \(run.stderr)")
        }
    }

    /// `--state --new-only`, run after run: the first run prints nothing, and each later one exactly the chapters
    /// added to the database since (on the table's last page), then nothing when nothing was added.
    @Test(arguments: concurrencies) func eachRunReportsTheChaptersAddedSinceTheLast(concurrency: [String]) async throws {
        let directory = try folder()
        let (app, database) = try start(in: directory)
        defer { app.stop() }
        let config = try config(
            app,
            #"""
             "key": "id",
             "extract": {"items": "table.rows-and-columns tbody tr", "fields": {"id": "td.col-id", "title": "td.col-title"}},
             "next": \#(Self.nextPage),
             "maxPages": 20
            """#, in: directory)
        let state = directory.appending(path: "chapters.state").path
        let first = try await webparse.run(["run", config, "--state", state, "--new-only"] + concurrency, environment: headless)
        #expect(first.status == 0 && first.stdout.isEmpty, "\(first.stdoutText) \(first.stderr)")
        var last = 47
        for round in 1...3 {
            for id in last + 1...last + round {
                let row = "(\(id), 'Chapter \(id): New', 'Harbor', '2026-12-07', 12)"
                let inserted = try RealApplication.truth(["run", database, "insert into chapters values \(row)"])
                #expect(inserted as? Int == 1)
            }
            let added = try #require(
                try RealApplication.truth(["sql", database, "select id, title from chapters where id > \(last) order by id"]) as? [[Any]])
            last += round
            let run = try await webparse.run(["run", config, "--state", state, "--new-only"] + concurrency, environment: headless)
            #expect(run.status == 0, "round \(round) \(concurrency): \(run.stderr)")
            let items = try #require(try JSONSerialization.jsonObject(with: run.stdout) as? [[String: String]], "\(run.stdoutText) \(run.stderr)")
            #expect(items.map { [$0["id"] ?? "", $0["title"] ?? ""] } == added.map { ["\($0[0])", "\($0[1])"] }, "round \(round) \(concurrency)")
            let again = try await webparse.run(["run", config, "--state", state, "--new-only"] + concurrency, environment: headless)
            #expect(again.status == 0 && again.stdout.isEmpty, "round \(round), nothing added: \(again.stdoutText) \(again.stderr)")
        }
    }
}
