import Foundation
import Testing
import TestSupport
@testable import WebParser

/// Lists spread over pages, as sites spread them: numbered pages behind "next" links, a jQuery button that
/// fetches the next page in place and is disabled on the last, a `<link rel="next">` for a script to read.
@Suite(.serialized) struct PaginationTests {
    static let jQuery = StepTests.jQuery

    func job(_ url: URL, _ script: String, next: Pagination.Next, maxPages: Int = Pagination.defaultMaxPages) -> WebParserJob {
        var evaluation = Evaluation(script: script, pollInterval: .milliseconds(20))
        evaluation.pagination = Pagination(next: next, maxPages: maxPages)
        return WebParserJob(url: url, evaluation: evaluation, timeout: .seconds(10), retry: RetryPolicy(retries: 0))
    }

    /// Four numbered pages of two chapters each; each page but the last links to the next, also as `<link rel=next>`.
    func numberedSite() throws -> TestHTTPServer {
        var routes: [String: TestHTTPServer.Route] = [:]
        for page in 1...4 {
            let next =
                page < 4 ? "<link rel='next' href='/list/\(page + 1)'><a class='next' href='/list/\(page + 1)'>next</a>" : "<span class='next'>last</span>"
            routes["/list/\(page)"] = .respond(body: "<ul><li>c\(2 * page - 1)</li><li>c\(2 * page)</li></ul>\(next)")
        }
        return try TestHTTPServer(routes: routes)
    }

    static let items = "[...document.querySelectorAll('li')].map((li) => li.textContent)"

    @Test func nextLinksAreFollowedAndListsJoinedUpToMaxPages() async throws {
        let server = try numberedSite()
        let all = try await WebParserRunner().run(job(server.url("/list/1"), Self.items, next: .selector("a.next")))
        #expect(String(decoding: all.data, as: UTF8.self) == #"["c1","c2","c3","c4","c5","c6","c7","c8"]"#)
        #expect(all.finalURL.hasSuffix("/list/4"))
        let three = try await WebParserRunner().run(job(server.url("/list/1"), Self.items, next: .selector("a.next"), maxPages: 3))
        #expect(String(decoding: three.data, as: UTF8.self) == #"["c1","c2","c3","c4","c5","c6"]"#)
        #expect(server.requests(for: "/list/4").count == 1, "maxPages 3 never loads the fourth page")
        let scripted = try await WebParserRunner().run(
            job(
                server.url("/list/3"), "document.querySelector('li').textContent",
                next: .script("document.querySelector('link[rel=next]')?.href ?? null")))
        #expect(String(decoding: scripted.data, as: UTF8.self) == #"["c5","c7"]"#, "results that are not lists, one per page")
    }

    @Test func aButtonThatFetchesTheNextPageInPlaceIsClickedUntilItIsDisabled() async throws {
        let server = try TestHTTPServer(routes: [
            "/": .respond(
                body: """
                    <script src="/jquery.js"></script><ul id="list"></ul><button id="more" disabled>Next</button>
                    <script>
                    let page = 0;
                    const load = () => $.getJSON("/api?page=" + (page + 1), (data) => {
                      page += 1;
                      $("#list").empty();
                      data.items.forEach((item) => $("#list").append($("<li>").text(item)));
                      $("#more").prop("disabled", !data.more);
                    });
                    $(function () { load(); $("#more").on("click", load); });
                    </script>
                    """),
            "/jquery.js": .respond(contentType: "application/javascript", body: Self.jQuery),
            "/api?page=1": .delayed(.milliseconds(200), .respond(contentType: "application/json", body: #"{"items": ["a", "b"], "more": true}"#)),
            "/api?page=2": .delayed(.milliseconds(200), .respond(contentType: "application/json", body: #"{"items": ["c", "d"], "more": true}"#)),
            "/api?page=3": .delayed(.milliseconds(200), .respond(contentType: "application/json", body: #"{"items": ["e"], "more": false}"#))
        ])
        let result = try await WebParserRunner().run(job(server.url("/"), Self.items, next: .selector("#more")))
        #expect(String(decoding: result.data, as: UTF8.self) == #"["a","b","c","d","e"]"#)
        #expect(server.requests(for: "/api?page=3").count == 1)
    }

    /// A job's headers go to its own origin's next pages, never to a host a page's next link names.
    @Test func headersStayOnTheJobsOrigin() async throws {
        let elsewhere = try TestHTTPServer(routes: ["/": .respond(body: "<li>x</li>")])
        let server = try TestHTTPServer(routes: [
            "/1": .respond(body: "<li>a</li><a class='next' href='/2'>next</a>"),
            "/2": .respond(body: "<li>b</li><a class='next' href='\(elsewhere.url("/"))'>next</a>")
        ])
        var job = job(server.url("/1"), Self.items, next: .selector("a.next"))
        job.load.headers = ["X-Token": "secret"]
        let result = try await WebParserRunner().run(job)
        #expect(String(decoding: result.data, as: UTF8.self) == #"["a","b","x"]"#)
        #expect(server.requests(for: "/2").first?.headers["x-token"] == "secret")
        #expect(elsewhere.requests.first.map { $0.headers["x-token"] == nil } == true, "no token for another host")
    }
}
