import Foundation
import TestSupport
import Testing

/// `follow`: the detail page of each item of a list, from a config and from `eval --follow`, on a comic archive
/// written the way such sites are: the archive's list rendered by its script from its API, each chapter a page of
/// its own whose pages appear after a timer, each page's image on a page of its own.
@Suite struct FollowCommandTests: CommandLineTest {
    /// The archive: the page's script lists `chapters` chapters (the second one twice, once with a fragment); with
    /// `later`, the API lists that many from its next request on, as a site that published a new chapter.
    final class Archive: Sendable {
        let server: TestHTTPServer
        init(chapters: Int, later: Int? = nil) throws {
            func list(_ count: Int) -> TestHTTPServer.Route {
                let items = (1...count).map { #"{"title": "Chapter \#($0)", "href": "ch/\#($0)"}"# } + [#"{"title": "Chapter 2 again", "href": "ch/2#top"}"#]
                return .respond(contentType: "application/json", body: "[" + items.joined(separator: ",") + "]")
            }
            var routes: [String: TestHTTPServer.Route] = [
                "/archive": .respond(
                    body: """
                        <!doctype html><div id="app">Loading…</div><script>
                        fetch("/api/chapters").then(r => r.json()).then(list => {
                          app.innerHTML = list.map(c => `<div class="chapter"><span class="title">${c.title}</span><a href="${c.href}">read</a></div>`).join("");
                        });
                        </script>
                        """),
                "/api/chapters": later.map { .sequence([list(chapters), list($0)]) } ?? list(chapters)
            ]
            for chapter in 1...max(chapters, later ?? 0) {
                routes["/ch/\(chapter)"] = .respond(
                    body: """
                        <!doctype html><time datetime="2026-12-0\(chapter)">Dec \(chapter)</time><ol id="pages"></ol><script>
                        setTimeout(() => { pages.innerHTML = [1, 2].map(p => `<li><a class="page" href="/page/\(chapter)-${p}">page ${p}</a></li>`).join(""); }, 300);
                        </script>
                        """)
                for page in 1...2 {
                    routes["/page/\(chapter)-\(page)"] = .respond(body: #"<img id="scan" src="/scans/\#(chapter)-\#(page).png">"#)
                }
            }
            server = try TestHTTPServer(routes: routes)
        }

        func loads(_ path: String) -> Int { server.requests(for: path).count }
    }

    static let extract = #""extract": {"items": ".chapter", "fields": {"title": ".title", "url": "a@href"}}"#
    static let follow = #"""
        "follow": {"field": "url", "timeout": 10, "retries": 0,
                   "extract": {"fields": {"date": "time@datetime", "pages": {"items": ".page", "fields": {"url": "@href"}}}},
                   "follow": {"field": "url", "as": "scan", "extract": {"fields": {"image": "#scan@src"}}}}
        """#

    /// Every chapter's page and each of its pages' scans come into the list; the chapter listed twice is loaded
    /// once; a chapter whose page is gone keeps its place with the failure, and the run says a part failed.
    @Test func eachChapterIsFollowedAndEachOfItsPagesToo() async throws {
        let archive = try Archive(chapters: 3)
        let directory = try folder()
        let config = try write(
            #"{"url": "\#(archive.server.url("/archive"))", \#(Self.extract), \#(Self.follow), "retries": 0}"#, "archive.json", in: directory)
        let run = try await webparse.run(["run", config], environment: headless)
        #expect(run.status == 0, "\(run.stderr)")
        let items = try #require(try JSONSerialization.jsonObject(with: run.stdout) as? [[String: Any]], "\(run.stdoutText)")
        #expect(items.count == 4)
        let second = try #require(items.first { $0["title"] as? String == "Chapter 2" }?["detail"] as? [String: Any], "\(items)")
        #expect(second["date"] as? String == "2026-12-02")
        let pages = try #require(second["pages"] as? [[String: Any]])
        #expect(
            pages.map { ($0["scan"] as? [String: String])?["image"] } == [
                archive.server.url("/scans/2-1.png").absoluteString, archive.server.url("/scans/2-2.png").absoluteString
            ])
        #expect(items.last?["detail"] as? NSDictionary == second as NSDictionary, "the chapter listed again has the same detail")
        #expect(archive.loads("/ch/2") == 1, "a URL listed twice (with a fragment) is loaded once")
        #expect(archive.loads("/page/3-2") == 1)
    }

    /// A chapter whose page is gone, an item without the field, one whose field is not a string, and URLs that are
    /// no web pages: each item keeps its place with its failure, the others are followed, and the run exits 1.
    @Test func anItemThatCannotBeFollowedKeepsItsPlaceWithItsFailure() async throws {
        let server = try TestHTTPServer(routes: [
            "/": .respond(
                body: """
                    <script>
                    window.items = [{"title": "ok", "url": "/ok"}, {"title": "gone", "url": "/gone"}, {"title": "no field"},
                      {"title": "number", "url": 7}, {"title": "script", "url": "javascript:alert(1)"}, {"title": "file", "url": "file:///etc/passwd"},
                      {"title": "data", "url": "data:text/html,<p>x</p>"}];
                    </script>
                    """),
            "/ok": .respond(body: "<h1>fine</h1>"),
            "/gone": .respond(status: 404, body: "gone")
        ])
        let directory = try folder()
        let config = try write(
            #"{"url": "\#(server.url("/"))", "script": "window.items", "follow": {"field": "url", "script": "document.querySelector('h1').textContent", "retries": 0}}"#,
            "items.json", in: directory)
        let run = try await webparse.run(["run", config, "--jsonl"], environment: headless)
        #expect(run.status == 1, "\(run.stderr)")
        #expect(run.stderr.contains("6 of 7 followed items got an error"), "\(run.stderr)")
        let record = try #require(try JSONSerialization.jsonObject(with: run.stdout) as? [String: Any])
        #expect(record["detailsFailed"] as? Int == 6)
        let items = try #require(record["result"] as? [[String: Any]])
        let details = Dictionary(uniqueKeysWithValues: items.map { ($0["title"] as! String, $0["detail"]) })
        #expect(details["ok"] as? String == "fine")
        #expect((details["gone"] as? [String: String])?["code"] == "http-status")
        for title in ["no field", "number", "script", "file", "data"] {
            #expect((details[title] as? [String: String])?["code"] == "noURL", "\(title): \(String(describing: details[title]))")
        }
        #expect((details["script"] as? [String: String])?["error"]?.contains("not an http(s) URL") == true)
        #expect(server.requests(for: "/etc/passwd").isEmpty)
    }

    /// With `--state`, an hourly check follows only the chapters that appeared since the last run: the first run
    /// reports nothing and loads no chapter; after a new chapter, the run loads it alone and prints it with its detail.
    @Test func withStateOnlyNewItemsAreFollowed() async throws {
        let directory = try folder()
        let state = directory.appending(path: "archive.state").path
        let archive = try Archive(chapters: 2, later: 3)
        let config = try write(
            #"{"url": "\#(archive.server.url("/archive"))", \#(Self.extract), "key": "url", "follow": {"field": "url", "extract": {"fields": {"date": "time@datetime"}}}}"#,
            "archive.json", in: directory)
        let first = try await webparse.run(["run", config, "--state", state, "--new-only", "--jsonl"], environment: headless)
        #expect(first.status == 0 && first.stdoutText.isEmpty, "\(first.stderr)")
        #expect(archive.loads("/ch/1") == 0 && archive.loads("/ch/2") == 0, "nothing is reported, so nothing is followed")
        let second = try await webparse.run(["run", config, "--state", state, "--new-only", "--jsonl"], environment: headless)
        #expect(second.status == 0, "\(second.stderr)")
        let lines = second.stdoutText.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        #expect(lines.count == 1, "\(second.stdoutText)")
        let item = try #require(lines.first?["item"] as? [String: Any])
        #expect(item["title"] as? String == "Chapter 3")
        #expect((item["detail"] as? [String: String])?["date"] == "2026-12-03")
        #expect(archive.loads("/ch/3") == 1 && archive.loads("/ch/1") == 0 && archive.loads("/ch/2") == 0, "only the new chapter is loaded")
        let third = try await webparse.run(["run", config, "--state", state, "--new-only", "--jsonl"], environment: headless)
        #expect(third.status == 0 && third.stdoutText.isEmpty, "the detail does not make the item new again: \(third.stdoutText)")
    }

    /// `eval --follow` takes a config's follow as JSON; a follow without its field, or with a field a followed page
    /// does not take, is refused before any page loads, naming the field.
    @Test func evalFollowsAndBadFollowsAreRefused() async throws {
        let archive = try Archive(chapters: 2)
        let url = archive.server.url("/archive").absoluteString
        let eval = try await webparse.run(
            ["eval", url, "--items", ".chapter", "--field", "url=a@href", "--follow", #"{"field": "url", "extract": {"fields": {"date": "time@datetime"}}}"#],
            environment: headless)
        #expect(eval.status == 0, "\(eval.stderr)")
        #expect(eval.stdoutText.contains(#""detail":{"date":"2026-12-01"}"#), "\(eval.stdoutText)")
        let directory = try folder()
        let missing = try write(#"{"url": "\#(url)", "script": "1", "follow": {"script": "1"}}"#, "missing.json", in: directory)
        let refused = try await webparse.run(["validate", missing], environment: headless)
        #expect(refused.status == 2 && refused.stderr.contains("follow.field: required"), "\(refused.stderr)")
        let foreign = try write(
            #"{"url": "\#(url)", "script": "1", "follow": {"field": "url", "script": "1", "url": "x", "timeout": "soon"}}"#, "foreign.json", in: directory)
        let both = try await webparse.run(["validate", foreign], environment: headless)
        #expect(both.status == 2 && both.stderr.contains("follow.url: not a field of a followed page"), "\(both.stderr)")
        #expect(both.stderr.contains("follow.timeout"), "\(both.stderr)")
        let noScript = try write(#"{"url": "\#(url)", "script": "1", "follow": {"field": "url"}}"#, "noscript.json", in: directory)
        let needsScript = try await webparse.run(["validate", noScript], environment: headless)
        #expect(needsScript.status == 2 && needsScript.stderr.contains("follow.script: required"), "\(needsScript.stderr)")
    }
}
