import Foundation
import Synchronization
import TestSupport
import Testing

/// `crawl`: every page reachable by the links the rendered pages have, on a small site whose links its script
/// writes, with a loop of links, fragments, `..`, an external link, a `robots.txt` that disallows a folder, a
/// calendar of endless days, a redirect loop and missing pages.
@Suite struct CrawlCommandTests: CommandLineTest {
    /// A page whose script writes links to `links` once it has loaded, and whose title is `title`.
    static func page(_ title: String, links: [String]) -> TestHTTPServer.Route {
        let anchors = links.map { #"<a href="\#($0)">\#($0)</a>"# }.joined()
        return .respond(
            body: """
                <!doctype html><title>\(title)</title><nav id="nav"></nav><script>
                setTimeout(() => { document.getElementById("nav").innerHTML = \(String(reflecting: anchors)); }, 100);
                </script>
                """)
    }

    static func site() throws -> TestHTTPServer {
        try TestHTTPServer(routes: [
            "/": page("home", links: ["/a", "/b#top", "/docs/../c", "http://elsewhere.invalid/x", "/private/secret", "/b", "/loop", "/gone"]),
            "/a": page("a", links: ["/", "/a/deep"]),
            "/a/deep": page("deep", links: []),
            "/b": page("b", links: ["/a", "/d"]),
            "/c": page("c", links: []),
            "/d": page("d", links: ["/e"]),
            "/e": page("e", links: []),
            "/private/secret": page("secret", links: []),
            "/loop": .respond(status: 302, headers: ["Location": "/loop2"], body: ""),
            "/loop2": .respond(status: 302, headers: ["Location": "/loop"], body: ""),
            "/robots.txt": .respond(contentType: "text/plain", body: "User-agent: *\nDisallow: /private/\n")
        ])
    }

    func config(_ server: TestHTTPServer, crawl: String, in directory: URL) throws -> String {
        try write(#"{"url": "\#(server.url("/"))", "script": "document.title", "timeout": 10, "retries": 0, "crawl": \#(crawl)}"#, "crawl.json", in: directory)
    }

    /// A chain of pages, each chattering on the console every 2 ms and writing its link to the next after 50 ms.
    static func chain() throws -> TestHTTPServer {
        let page = { (next: String) -> TestHTTPServer.Route in
            .respond(
                body: """
                    <!doctype html><title>chain</title><nav id="nav"></nav><script>
                    setInterval(() => console.log("tick " + location.pathname), 2);
                    setTimeout(() => { document.getElementById("nav").innerHTML = '<a href="\(next)">next</a>'; }, 50);
                    </script>
                    """)
        }
        return try TestHTTPServer(routes: ["/t1": page("/t2"), "/t2": page("/t3"), "/t3": page("/t4"), "/t4": page("/t1")])
    }

    /// What the page's window name was when its document began (then it names its own path).
    static let windowName = "(() => { window.before ??= window.name; window.name = location.pathname; return {before: window.before}; })()"

    /// A crawl goes from page to page in the same tab, as a person browsing does (the window's name carries over),
    /// and nothing the earlier page says reaches the next page's job; separate jobs still get a fresh tab each.
    @Test func aCrawlGoesFromPageToPageInOneTabAndHearsOnlyThePageItReads() async throws {
        let server = try Self.chain()
        let directory = try folder()
        let crawl = try write(
            #"{"url": "\#(server.url("/t1"))", "script": \#(String(reflecting: Self.windowName)), "logConsole": true, "concurrency": 1, "timeout": 10, "crawl": {"robots": false, "perHost": 1}}"#,
            "chain.json", in: directory)
        let run = try await webparse.run(["run", crawl], environment: headless)
        #expect(run.status == 0, "\(run.stderr)")
        let pages = try #require(try JSONSerialization.jsonObject(with: run.stdout) as? [String: [String: String]], "\(run.stdoutText)")
        #expect(pages.count == 4)
        // The start page is a job of its own; the crawl's pages after it share a tab.
        for (from, to) in [("/t2", "/t3"), ("/t3", "/t4")] {
            #expect(pages[server.url(to).absoluteString]?["before"] == from, "the tab that read \(from) reads \(to): \(pages)")
        }
        var ticks = 0
        for line in run.stderr.split(separator: "\n") where line.contains("console.log: tick /") {
            ticks += 1
            // "webparse: 127.0.0.1 http://…/t3: console.log: tick /t3 (…)", the start page's without its URL.
            let parts = line.components(separatedBy: ": console.log: tick ")
            let label = parts[0].split(separator: " ").last.map(String.init) ?? ""
            let page = label.hasPrefix("http") ? URL(string: label)?.path : "/t1"
            #expect(parts.count == 2 && parts[1].hasPrefix((page ?? "?") + " "), "a page's console line told as another page's: \(line)")
        }
        #expect(ticks > 0, "\(run.stderr)")
        let jobs = (1...3).map { #"{"name": "j\#($0)", "url": "\#(server.url("/t\($0)"))", "script": \#(String(reflecting: Self.windowName))}"# }
        let separate = try write(#"{"concurrency": 1, "jobs": [\#(jobs.joined(separator: ","))]}"#, "jobs.json", in: directory)
        let apart = try await webparse.run(["run", separate], environment: headless)
        let results = try #require(try JSONSerialization.jsonObject(with: apart.stdout) as? [String: [String: String]], "\(apart.stderr)")
        #expect(results.count == 3 && results.values.allSatisfy { $0["before"] == "" }, "each job a fresh tab: \(results)")
    }

    /// Every page of the site once, by the links its script wrote: fragments and `..` resolved, the loop and the
    /// duplicate loaded once, the external link and the disallowed folder left alone; the redirect loop and the
    /// missing page are each one failure, and the crawl goes on.
    @Test func everyPageIsReadOnceByTheLinksTheScriptsWrote() async throws {
        let server = try Self.site()
        let run = try await webparse.run(["run", try config(server, crawl: "{}", in: try folder())], environment: headless)
        #expect(run.status == 1, "two pages failed: \(run.stderr)")
        #expect(run.stderr.contains("2 of 9 pages of the crawl failed"), "\(run.stderr)")
        let pages = try #require(try JSONSerialization.jsonObject(with: run.stdout) as? [String: Any], "\(run.stdoutText)")
        let titles = pages.compactMapValues { $0 as? String }
        #expect(
            Set(titles.values) == ["home", "a", "b", "c", "deep", "d", "e"],
            "\(pages.keys.sorted())")
        #expect(titles[server.url("/c").absoluteString] == "c", "/docs/../c is /c")
        #expect(pages.keys.first { $0.contains("#") } == nil && pages.keys.first { $0.contains("private") } == nil)
        for path in ["/", "/a", "/b", "/c", "/d", "/e", "/a/deep"] {
            #expect(server.requests(for: path).count == 1, "\(path) loaded once")
        }
        #expect(server.requests(for: "/private/secret").isEmpty, "robots.txt disallows it")
        #expect(((pages[server.url("/gone").absoluteString] as? [String: String])?["code"]) == "http-status")
        #expect(pages[server.url("/loop").absoluteString] is [String: String], "the redirect loop is one failure")
    }

    /// The links each page's script writes 100 ms after it loaded are read whatever makes the answer final: with
    /// `"settle": 0` (the first answer is the result) and with `waitFor`, the crawl still reads every page.
    @Test func linksAreReadOnceThePageIsCompleteWhateverTheSettle() async throws {
        let server = try Self.site()
        for extra in [#""settle": 0"#, #""waitFor": "document.title""#] {
            let config = try write(
                #"{"url": "\#(server.url("/"))", "script": "document.title", "timeout": 10, "retries": 0, \#(extra), "crawl": {"exclude": "loop|gone"}}"#,
                "crawl.json", in: try folder())
            let run = try await webparse.run(["run", config, "-v"], environment: headless)
            #expect(run.status == 0, "\(extra): \(run.stderr)")
            let pages = try #require(try JSONSerialization.jsonObject(with: run.stdout) as? [String: String], "\(run.stdoutText)")
            #expect(Set(pages.values) == ["home", "a", "b", "c", "deep", "d", "e"], "\(extra): \(pages.keys.sorted())")
            #expect(run.stderr.contains("; its links once "), "-v says when the links were read: \(run.stderr)")
        }
    }

    /// maxPages ends a crawl with a warning; maxDepth keeps it near the start; match keeps it in a part of the site;
    /// `"robots": false` loads what robots.txt disallows.
    @Test func limitsAndFiltersKeepTheCrawlWhereItIsMeantToBe() async throws {
        let server = try Self.site()
        let directory = try folder()
        func crawl(_ given: String) async throws -> (pages: [String: Any], stderr: String) {
            let run = try await webparse.run(["run", try config(server, crawl: given, in: directory)], environment: headless)
            return ((try JSONSerialization.jsonObject(with: run.stdout) as? [String: Any]) ?? [:], run.stderr)
        }
        let few = try await crawl(#"{"maxPages": 3}"#)
        #expect(few.pages.count == 3, "\(few.pages.keys.sorted())")
        #expect(few.stderr.contains("the crawl reached maxPages (3)"), "\(few.stderr)")
        let near = try await crawl(#"{"maxDepth": 1, "exclude": "loop|gone"}"#)
        #expect(Set(near.pages.keys.map { URL(string: $0)!.path }) == ["/", "/a", "/b", "/c"], "\(near.pages.keys.sorted())")
        let part = try await crawl(#"{"match": "/(a|b)", "exclude": "loop|gone"}"#)
        #expect(Set(part.pages.keys.map { URL(string: $0)!.path }) == ["/", "/a", "/b", "/a/deep"], "\(part.pages.keys.sorted())")
        let rude = try await crawl(#"{"robots": false, "exclude": "loop|gone"}"#)
        #expect(rude.pages[server.url("/private/secret").absoluteString] as? String == "secret")
    }

    /// A calendar with a "next day" forever ends at maxPages (1,000 by default; 25 here) with a warning.
    @Test func anEndlessCalendarEndsAtMaxPages() async throws {
        let server = try TestHTTPServer(routes: [
            "*": .handle { request in
                let day = Int(request.path.split(separator: "/").last ?? "0") ?? 0
                return .init(body: #"<title>day \#(day)</title><script>document.write('<a href="/day/\#(day + 1)">next</a>')</script>"#)
            }
        ])
        let directory = try folder()
        let config = try write(
            #"{"url": "\#(server.url("/day/0"))", "script": "document.title", "retries": 0, "crawl": {"maxPages": 25}}"#, "days.json", in: directory)
        let run = try await webparse.run(["run", config], environment: headless)
        #expect(run.status == 0, "\(run.stderr)")
        let pages = try #require(try JSONSerialization.jsonObject(with: run.stdout) as? [String: String])
        #expect(pages.count == 25)
        #expect(run.stderr.contains("the crawl reached maxPages (25); 1 link it found was not loaded"), "\(run.stderr)")
    }

    /// `--jsonl` streams a record per page as it is done, then the job's record with how many pages; with `--state`
    /// a second crawl reports no page, as every page is known by its URL.
    @Test func pagesStreamAndStateKnowsThemByURL() async throws {
        let server = try Self.site()
        let directory = try folder()
        let config = try config(server, crawl: #"{"exclude": "loop|gone"}"#, in: directory)
        let lines = try await webparse.run(["run", config, "--jsonl"], environment: headless)
        #expect(lines.status == 0, "\(lines.stderr)")
        let records = lines.stdoutText.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        #expect(records.count == 8, "seven pages and the job: \(lines.stdoutText)")
        #expect(records.first?["url"] as? String == server.url("/").absoluteString && records.first?["result"] as? String == "home")
        #expect(records.last?["pages"] as? Int == 7 && records.last?["status"] as? String == "ok")
        let state = directory.appending(path: "crawl.state").path
        let first = try await webparse.run(["run", config, "--state", state, "--new-only", "--emit-initial"], environment: headless)
        let found = try #require(try JSONSerialization.jsonObject(with: first.stdout) as? [[String: Any]], "\(first.stdoutText)")
        #expect(found.count == 7 && found.contains { $0["url"] as? String == server.url("/e").absoluteString && $0["result"] as? String == "e" })
        let again = try await webparse.run(["run", config, "--state", state, "--new-only"], environment: headless)
        #expect(again.status == 0 && again.stdoutText.isEmpty, "\(again.stdoutText)")
    }

    /// A page of a crawl that fails is no change: with `--state`, a failed read keeps the page's last record, so
    /// `--report all` reports neither a changed page nor, after `confirm` failed runs, a removed one.
    @Test func aPageThatFailsIsNeitherChangedNorRemoved() async throws {
        let failing = Shared(false)
        let server = try TestHTTPServer(routes: [
            "/": Self.page("home", links: ["/a", "/flaky"]),
            "/a": Self.page("a", links: []),
            "/flaky": .handle { _ in
                failing.value
                    ? TestHTTPServer.Response(status: 500, body: "oops")
                    : TestHTTPServer.Response(body: "<!doctype html><title>flaky</title><p>fine</p>")
            }
        ])
        let directory = try folder()
        let config = try config(server, crawl: "{}", in: directory)
        let state = directory.appending(path: "crawl.state").path
        let arguments = ["run", config, "--state", state, "--new-only", "--report", "all", "--jsonl"]
        let first = try await webparse.run(arguments, environment: headless)
        #expect(first.status == 0 && first.stdout.isEmpty, "\(first.stderr)")
        failing.value = true
        for run in 1...3 {
            let failed = try await webparse.run(arguments, environment: headless)
            #expect(failed.status == 1 && failed.stderr.contains("1 of 3 pages of the crawl failed"), "\(failed.stderr)")
            #expect(failed.stdout.isEmpty, "run \(run): \(failed.stdoutText)")
        }
        failing.value = false
        let back = try await webparse.run(arguments, environment: headless)
        #expect(back.status == 0 && back.stdout.isEmpty, "\(back.stdoutText)")
    }

    /// A crawl's bad fields are config errors with their place; eval takes --crawl.
    @Test func badCrawlsAreRefusedAndEvalCrawls() async throws {
        let server = try Self.site()
        let directory = try folder()
        let bad = try write(
            #"{"url": "\#(server.url("/"))", "script": "1", "crawl": {"match": "(unclosed", "links": "a[", "maxPages": 0, "robot": true}}"#,
            "bad.json", in: directory)
        let refused = try await webparse.run(["validate", bad], environment: headless)
        #expect(refused.status == 2, "\(refused.stderr)")
        for expected in ["crawl.match: expected a regular expression", "crawl.links: not a valid CSS selector", "crawl.maxPages", "crawl.robot: unknown key"] {
            #expect(refused.stderr.contains(expected), "\(expected): \(refused.stderr)")
        }
        #expect(refused.stderr.contains("bad.json:1:"), "\(refused.stderr)")
        let keyed = try write(#"{"url": "\#(server.url("/"))", "script": "1", "crawl": {}, "key": "x"}"#, "keyed.json", in: directory)
        let noKey = try await webparse.run(["validate", keyed], environment: headless)
        #expect(noKey.status == 2 && noKey.stderr.contains("key: does not go with crawl"), "\(noKey.stderr)")
        let eval = try await webparse.run(
            ["eval", server.url("/").absoluteString, "document.title", "--crawl", #"{"maxDepth": 1, "exclude": "loop|gone"}"#], environment: headless)
        #expect(eval.status == 0, "\(eval.stderr)")
        #expect((try JSONSerialization.jsonObject(with: eval.stdout) as? [String: String])?.count == 4, "\(eval.stdoutText)")
    }

    /// Two jobs of one run crawling one site keep its limits together, as one crawler would: with `perHost` 1 and a
    /// `delay` of 0.25 s, the pages their crawls find (each answered after 150 ms) never arrive two at once, nor
    /// closer than the delay (less the jitter of a busy machine between a load's start and its arrival).
    @Test func crawlsOfOneSiteInARunKeepItsLimitsTogether() async throws {
        struct Arrival { let at: ContinuousClock.Instant; let inFlight: Int }
        let log = Mutex<(arrivals: [Arrival], inFlight: Int)>(([], 0))
        let server = try TestHTTPServer(routes: [
            "*": .handle { request in
                let parts = request.path.split(separator: "/")
                guard parts.count == 2, ["a", "b"].contains(parts[0]), let number = Int(parts[1]) else { return .init(status: 404, body: "") }
                let found = number > 1
                if found {
                    log.withLock {
                        $0.inFlight += 1
                        $0.arrivals.append(Arrival(at: request.received, inFlight: $0.inFlight))
                    }
                }
                defer { if found { log.withLock { $0.inFlight -= 1 } } }
                Thread.sleep(forTimeInterval: 0.15)
                let links = number == 1 ? (2...5).map { "<a href=\"/\(parts[0])/\($0)\">\($0)</a>" }.joined() : ""
                return .init(headers: ["Content-Type": "text/html"], body: "<title>\(parts[0]) \(number)</title>" + links)
            }
        ])
        let crawl = #""script": "document.title", "crawl": {"perHost": 1, "delay": 0.25, "robots": false}"#
        let config = try write(
            #"{"concurrency": 4, "jobs": [{"name": "a", "url": "\#(server.url("/a/1"))", \#(crawl)}, {"name": "b", "url": "\#(server.url("/b/1"))", \#(crawl)}]}"#,
            "two.json", in: try folder())
        let outcome = try await webparse.run(["run", config], environment: headless)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let results = try #require(try JSONSerialization.jsonObject(with: outcome.stdout) as? [String: [String: String]])
        #expect(results["a"]?.count == 5 && results["b"]?.count == 5, "\(results)")
        let arrivals = log.withLock { $0.arrivals }.sorted { $0.at < $1.at }
        #expect(arrivals.count == 8)
        #expect(arrivals.allSatisfy { $0.inFlight == 1 }, "never two found pages at once: \(arrivals.map(\.inFlight))")
        let gaps = zip(arrivals, arrivals.dropFirst()).map { $1.at - $0.at }
        #expect(gaps.allSatisfy { $0 >= .milliseconds(200) }, "never closer than the delay: \(gaps)")
    }
}
