import Foundation
import TestSupport
import Testing

/// Crawl and follow on a real Flask app (Debian's python3-flask, Werkzeug's server: `Tests/Fixtures/quotes_app.py`),
/// written the way Flask apps are: routes with a trailing slash (a link without it answers 308), `url_for` links, a
/// login-protected part, a missing page, a slow page, pages that move by 301, 302 (to another host name), 303 and
/// 307, by script and by `<meta refresh>`, and a list of quotes its script writes from a JSON API. Each run, at one
/// page at a time and at four, reads exactly the pages a visitor can reach, each once, and loses none.
@Suite(.serialized) struct FlaskSiteTests: CommandLineTest {
    /// The 13 authors, by the names of their pages, and the 15 tags.
    static let authors = [
        "Albert-Einstein": "Albert Einstein", "Andre-Gide": "Andre Gide", "Bob-Marley": "Bob Marley", "Charles-M-Schulz": "Charles M. Schulz",
        "Eleanor-Roosevelt": "Eleanor Roosevelt", "J-K-Rowling": "J.K. Rowling", "Jane-Austen": "Jane Austen", "Marilyn-Monroe": "Marilyn Monroe",
        "Mark-Twain": "Mark Twain", "Mother-Teresa": "Mother Teresa", "Steve-Martin": "Steve Martin", "Thomas-A-Edison": "Thomas A. Edison",
        "William-Nicholson": "William Nicholson"
    ]
    static let tags = [
        "books", "change", "choices", "courage", "death", "failure", "friendship", "humor", "inspirational", "kindness", "life",
        "misattributed", "simplicity", "success", "thinking"
    ]

    /// Every page a visitor reaches from the home page, by path, with its title: where each redirect ends (the members'
    /// page at the login form), the page the moved pages go to, and the missing page as a failure.
    static let reachable: [String: String] = {
        var pages = [
            "/": "Quotes, page 1", "/page/2/": "Quotes, page 2", "/about/": "About", "/authors/": "Authors", "/thanks/": "Thanks",
            "/archive/2026/": "Archive 2026", "/new-home/": "New home", "/slow/": "Slow", "/login/?next=%2Fmembers%2F": "Login"
        ]
        for (page, author) in authors { pages["/author/\(page)/"] = author }
        for tag in tags { pages["/tag/\(tag)/"] = "Tag \(tag)" }
        return pages
    }()

    /// The crawl's pages by path: each page's title, or its error's code.
    func crawl(_ app: PythonServer, concurrency: Int, in directory: URL) async throws -> (pages: [String: String], run: ProcessRunner.Outcome) {
        let base = "http://127.0.0.1:\(app.port)"
        let config = try write(
            #"{"url": "\#(base)/", "script": "document.title", "retries": 0, "timeout": 20, "crawl": {"perHost": 4}}"#, "crawl.json", in: directory)
        let run = try await webparse.run(["run", config, "-j", String(concurrency), "-v"], environment: headless)
        #expect(!run.stderr.contains("runs again in a fresh tab"), "every page loads in its tab the first time: \(run.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: run.stdout) as? [String: Any], "\(run.stdoutText) \(run.stderr)")
        var pages: [String: String] = [:]
        for (url, result) in object {
            let path = url.hasPrefix(base) ? String(url.dropFirst(base.count)) : url
            pages[path] = (result as? String) ?? ((result as? [String: Any])?["code"] as? String).map { "error: " + $0 } ?? "?"
        }
        return (pages, run)
    }

    @Test(arguments: [1, 4]) func aCrawlReadsEveryReachablePageOnce(concurrency: Int) async throws {
        let app = try PythonServer(script: "quotes_app.py")
        defer { app.stop() }
        let directory = try folder()
        for round in 1...3 {
            let (pages, run) = try await crawl(app, concurrency: concurrency, in: directory)
            var expected = Self.reachable
            expected["/press/"] = "error: http-status"
            #expect(pages == expected, "round \(round) at -j\(concurrency): \(pages.filter { expected[$0.key] != $0.value }) \(run.stderr)")
            #expect(run.status == 1, "the missing page is the one failure")
            #expect(run.stderr.contains("1 of 38 pages of the crawl failed"), "\(run.stderr)")
        }
    }

    /// A crawl of the app shared by three workers of a queue reads the pages `run` reads, each once, and drops the
    /// same ones: a page whose load ended out of the crawl (a 302 to another host name) or at a page read already (a
    /// link without its trailing slash, answered 308) gives no record, in `run` and in `work` alike.
    @Test func workersReadAndDropTheSamePagesAsRun() async throws {
        let app = try PythonServer(script: "quotes_app.py")
        defer { app.stop() }
        let base = "http://127.0.0.1:\(app.port)"
        let job = #"{"name": "quotes", "url": "\#(base)/", "script": "document.title", "retries": 0, "timeout": 20, "crawl": {"perHost": 4}}"#
        let run = try await webparse.run(["run", try write(job, "crawl.json", in: try folder()), "-j", "4", "-v"], environment: headless)
        let crawled = try #require(try JSONSerialization.jsonObject(with: run.stdout) as? [String: Any], "\(run.stdoutText) \(run.stderr)")
        let redis = try RedisServer()
        try redis.cli(["RPUSH", "quotes", job])
        let workerErrors = try await work(3, redis.url(queue: "quotes"), ["-j", "2", "-v"])
        let records = try ["quotes:results", "quotes:failed"].flatMap { key in
            try redis.cli(["LRANGE", key, "0", "-1"]).split(separator: "\n").compactMap {
                try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
            }
        }
        let urls = records.compactMap { $0["finalURL"] as? String ?? $0["url"] as? String }
        #expect(urls.count == crawled.count && Set(urls) == Set(crawled.keys), "\(urls.sorted()) against \(crawled.keys.sorted())")
        let paths = Set(crawled.keys.map { String($0.dropFirst(base.count)) })
        #expect(paths == Set(Self.reachable.keys).union(["/press/"]), "\(paths.sorted())")
        /// The pages the drops were of (what the page ended at), and how many, as each command said them.
        func drops(_ stderr: String, _ why: String) -> [String] {
            stderr.split(separator: "\n").filter { $0.hasSuffix(why) }.compactMap { line in
                line.split(separator: " ").dropLast(why.split(separator: " ").count).last.map(String.init)
            }.map { $0.hasSuffix(",") ? String($0.dropLast()) : $0 }.sorted()
        }
        let outOfScope = drops(run.stderr, "out of the crawl")
        #expect(!outOfScope.isEmpty && outOfScope == drops(workerErrors, "out of the crawl"), "\(outOfScope) \(workerErrors)")
        // Which link of a page reached twice is dropped depends on which arrives first; each is one of the pages read.
        for page in drops(run.stderr, "read already") + drops(workerErrors, "read already") {
            #expect(crawled[page] != nil, "\(page) was dropped as read already, and read")
        }
        #expect(urls.count == Set(urls).count, "no page recorded twice by the workers: \(urls.sorted())")
    }

    /// Redis stopped and started again in the middle of a crawl that three workers share: they reconnect, and every
    /// page of the app has one record, none lost and none twice.
    @Test func aRedisRestartedMidCrawlLosesAndRepeatsNoPage() async throws {
        let app = try PythonServer(script: "quotes_app.py")
        defer { app.stop() }
        let base = "http://127.0.0.1:\(app.port)"
        let job = #"{"name": "quotes", "url": "\#(base)/", "script": "document.title", "retries": 0, "timeout": 20, "crawl": {"perHost": 2}}"#
        let redis = try RedisServer()
        try redis.cli(["RPUSH", "quotes", job])
        let workers = try (1...3).map { _ in
            try webparse.start(["work", redis.url(queue: "quotes"), "-j", "2"], environment: headless)
        }
        try await waitUntil("the crawl's first records") { Int(try redis.cli(["LLEN", "quotes:results"])) ?? 0 >= 6 }
        redis.stop()
        try await Task.sleep(for: .seconds(1))
        try redis.start()
        for worker in workers { expectDrained(await worker.finish()) }
        let records = try ["quotes:results", "quotes:failed"].flatMap { key in
            try redis.cli(["LRANGE", key, "0", "-1"]).split(separator: "\n").compactMap {
                try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
            }
        }
        let urls = records.compactMap { $0["finalURL"] as? String ?? $0["url"] as? String }
        let paths = urls.map { String($0.dropFirst(base.count)) }
        #expect(Set(paths) == Set(Self.reachable.keys).union(["/press/"]), "\(paths.sorted())")
        #expect(paths.count == Set(paths).count, "no page recorded twice: \(paths.sorted())")
    }

    /// Redis gone for good in the middle of a crawl: the worker retries for a minute, then exits 6 and says its items
    /// go back to the queue; once Redis is back, another worker finishes the crawl, and every page has one record.
    @Test func aRedisGoneMidCrawlEndsTheWorkerWithItsCodeAndLosesNoPage() async throws {
        let app = try PythonServer(script: "quotes_app.py")
        defer { app.stop() }
        let base = "http://127.0.0.1:\(app.port)"
        let job = #"{"name": "quotes", "url": "\#(base)/", "script": "document.title", "retries": 0, "timeout": 20, "crawl": {"perHost": 2}}"#
        let redis = try RedisServer()
        try redis.cli(["RPUSH", "quotes", job])
        let worker = try webparse.start(["work", redis.url(queue: "quotes"), "-j", "2", "--lease", "2"], environment: headless)
        try await waitUntil("the crawl's first records") { Int(try redis.cli(["LLEN", "quotes:results"])) ?? 0 >= 4 }
        redis.stop()
        let gone = await worker.finish()
        #expect(gone.status == 6 && gone.stderr.contains("the items in hand go back to the queue when their lease ends"), "\(gone.status) \(gone.stderr)")
        try redis.start()
        try await Task.sleep(for: .seconds(3))
        expectDrained(try await webparse.run(["work", redis.url(queue: "quotes"), "-j", "2", "--lease", "2"], environment: headless))
        let records = try ["quotes:results", "quotes:failed"].flatMap { key in
            try redis.cli(["LRANGE", key, "0", "-1"]).split(separator: "\n").compactMap {
                try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
            }
        }
        let paths = records.compactMap { $0["finalURL"] as? String ?? $0["url"] as? String }.map { String($0.dropFirst(base.count)) }
        #expect(Set(paths) == Set(Self.reachable.keys).union(["/press/"]), "\(paths.sorted())")
        #expect(paths.count == Set(paths).count, "no page recorded twice: \(paths.sorted())")
    }

    /// A page whose script sends it elsewhere as it loads (`location.replace`), one that does it by `<meta refresh>`, and
    /// a login-protected page (302 to the login form) give the page they end at, every time.
    @Test func aPageThatMovesGivesThePageItEndsAt() async throws {
        let app = try PythonServer(script: "quotes_app.py")
        defer { app.stop() }
        for round in 1...3 {
            for (path, title) in [("/moved-by-script/", "New home"), ("/moved-by-meta/", "New home"), ("/members/", "Login")] {
                let run = try await webparse.run(["eval", "http://127.0.0.1:\(app.port)\(path)", "document.title"], environment: headless)
                #expect(run.status == 0 && run.stdoutText == "\"\(title)\"\n", "round \(round), \(path): \(run.stdoutText) \(run.stderr)")
            }
        }
    }

    /// A server that closes each connection after its response (HTTP/1.0, as some servers and proxies do).
    @Test(arguments: [1, 4]) func aCrawlOfAServerThatClosesEachConnectionLosesNothing(concurrency: Int) async throws {
        let app = try PythonServer(script: "quotes_app.py", arguments: ["--close"])
        defer { app.stop() }
        let (pages, run) = try await crawl(app, concurrency: concurrency, in: try folder())
        #expect(pages.count == Self.reachable.count + 1, "\(pages.keys.sorted()) \(run.stderr)")
        #expect(pages.filter { $0.value.hasPrefix("error") }.keys.sorted() == ["/press/"], "\(run.stderr)")
    }

    /// Each quote's author, a link that answers 308, followed from both pages of the list (`next`): every item gets
    /// its author's page, each page loaded once.
    @Test(arguments: [1, 4]) func eachQuoteFollowsItsRedirectedAuthorPage(concurrency: Int) async throws {
        for arguments in [[], ["--close"]] {
            let app = try PythonServer(script: "quotes_app.py", arguments: arguments)
            defer { app.stop() }
            let directory = try folder()
            let config = try write(
                #"""
                {"url": "http://127.0.0.1:\#(app.port)/", "retries": 0, "timeout": 20,
                 "extract": {"items": ".quote", "fields": {"author": ".author", "url": "a.about@href"}},
                 "next": "li.next a", "maxPages": 5,
                 "follow": {"field": "url", "extract": {"fields": {"name": ".author-title", "born": ".author-born-date"}}}}
                """#, "follow.json", in: directory)
            for round in 1...(arguments.isEmpty ? 3 : 1) {
                let run = try await webparse.run(["run", config, "-j", String(concurrency), "-v"], environment: headless)
                #expect(run.status == 0, "round \(round) \(arguments) at -j\(concurrency): \(run.stderr)")
                #expect(!run.stderr.contains("runs again in a fresh tab"), "every page loads in its tab the first time: \(run.stderr)")
                let items = try #require(try JSONSerialization.jsonObject(with: run.stdout) as? [[String: Any]], "\(run.stdoutText)")
                #expect(items.count == 20)
                for item in items {
                    let detail = item["detail"] as? [String: String]
                    #expect(detail?["name"] == item["author"] as? String, "\(item)")
                    #expect(detail?["born"]?.hasPrefix("born ") == true, "\(item)")
                }
                let loads = run.stderr.split(separator: "\n").filter { $0.hasSuffix(": done") && $0.contains("/author/") }
                #expect(loads.count == Self.authors.count, "each author's page once: \(loads)")
            }
        }
    }
}
