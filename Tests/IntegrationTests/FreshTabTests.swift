import Foundation
import TestSupport
import Testing
@testable import WebParser

/// Each job is its own tab, however pages are pooled; and a navigation replaced by another is no failure.
@Suite(.serialized) struct FreshTabTests {
    /// A page that reports what an earlier job in the same tab would have left, then leaves some itself:
    /// sessionStorage, window.name, history entries, a timer and a worker.
    static let marker = """
        <!doctype html><title>tab</title><script>
        window.seen = JSON.stringify({session: sessionStorage.getItem("mark"), name: window.name,
                                      history: history.length});
        sessionStorage.setItem("mark", location.pathname);
        window.name = "job " + location.pathname;
        history.pushState({}, "", location.pathname + "#pushed");
        setInterval(() => { fetch("/tick"); }, 30);
        new Worker(URL.createObjectURL(new Blob(["setInterval(() => fetch('" + location.origin + "/worker'), 30)"])));
        </script>
        """

    func job(_ url: URL) -> WebParserJob {
        WebParserJob(url: url, evaluation: Evaluation(script: "window.seen", pollInterval: .milliseconds(20)), timeout: .seconds(15))
    }

    @Test func aReusedPageStartsEachJobAsAFreshTab() async throws {
        let paths = (1...6).map { "/page\($0)" }
        let server = try TestHTTPServer(
            routes: Dictionary(uniqueKeysWithValues: paths.map { ($0, .respond(body: Self.marker)) })
                .merging(["/tick": .respond(body: ""), "/worker": .respond(body: "")]) { $1 })
        let parser = WebParserRunner()
        for path in paths {
            let result = try await parser.run(job(server.url(path)))
            #expect(
                String(decoding: result.data, as: UTF8.self) == #""{\"session\":null,\"name\":\"\",\"history\":1}""#,
                "\(path) saw what an earlier job left")
        }
        try await Task.sleep(for: .milliseconds(100))
        let ticksAfterRun = server.requests(for: "/worker").count + server.requests(for: "/tick").count
        try await Task.sleep(for: .milliseconds(300))
        let ticksLater = server.requests(for: "/worker").count + server.requests(for: "/tick").count
        #expect(ticksLater == ticksAfterRun, "a pooled page still runs the timers or workers of its last job")
    }

    @Test func aReusedPagesUserScriptsAndConsoleStillReachWebparse() async throws {
        let server = try TestHTTPServer(routes: ["*": .respond(body: "<title>t</title><script>console.log('from ' + location.pathname)</script>")])
        let emitter = try UserScript(
            source: "// ==UserScript==\n// @name e\n// ==/UserScript==\nwebparse.emit(location.pathname).then(() => webparse.done());",
            fileName: "e.user.js")
        let parser = WebParserRunner()
        for path in ["/one", "/two", "/three"] {
            var job = WebParserJob(
                url: server.url(path), evaluation: Evaluation(script: "", collect: .emitted), timeout: .seconds(10),
                retry: RetryPolicy(retries: 0), page: PageSettings(userScripts: [emitter], capturesConsole: true))
            job.evaluation.pollInterval = .milliseconds(20)
            let lines = Shared<[String]>([])
            let result = try await parser.run(
                job,
                onMessage: { message in
                    if case .console(let line) = message { lines.value.append(line.text) }
                })
            #expect(String(decoding: result.data, as: UTF8.self) == "[\"\(path)\"]", "the tab for \(path) was reused")
            #expect(lines.value == ["from \(path)"])
        }
    }

    @Test func concurrentJobsSeeTheSameFreshTabs() async throws {
        let paths = (1...16).map { "/page\($0)" }
        let server = try TestHTTPServer(
            routes: Dictionary(uniqueKeysWithValues: paths.map { ($0, .respond(body: Self.marker)) })
                .merging(["/tick": .respond(body: ""), "/worker": .respond(body: "")]) { $1 })
        let parser = WebParserRunner()
        // Four at a time, as `-j 4` runs them: pages are reused by whichever job comes next.
        let results = try await withThrowingTaskGroup(of: [String].self) { group in
            for worker in 0..<4 {
                group.addTask {
                    var results: [String] = []
                    for path in paths[(worker * 4)..<(worker * 4 + 4)] {
                        results.append(String(decoding: try await parser.run(job(server.url(path))).data, as: UTF8.self))
                    }
                    return results
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        #expect(results.count == 16)
        #expect(Set(results) == [#""{\"session\":null,\"name\":\"\",\"history\":1}""#])
    }

    /// The last navigation wins, as in a browser: none of these fails, and the result is the last page's.
    @Test(arguments: [
        "setTimeout(() => { location = '/a'; setTimeout(() => location = '/b', 100); setTimeout(() => location = '/end', 200); }, 0)",
        "setTimeout(() => { const form = document.forms[0]; form.submit(); form.submit(); }, 0)",
        "setTimeout(() => { const form = document.forms[0]; form.requestSubmit(); setTimeout(() => form.requestSubmit(), 10); }, 0)"
    ])
    func aNavigationReplacedByAnotherIsNoFailure(navigation: String) async throws {
        let start = "<form action=/end method=post><input name=q value=1></form><script>\(navigation)</script>"
        // Slow enough that every later navigation starts before the one it replaces arrives, however busy the
        // machine (at 20 ms, a loaded CI machine let /b arrive before the timer that goes on to /end); nothing waits
        // for these answers. The navigations are 100 ms apart so that each replaces a load already waiting for its
        // answer: WebKitGTK 2.50 drops, now and then on a busy machine, a navigation that comes while the previous
        // one has not sent its request yet (15 ms apart, 1 to 3 pages in 50 ended on /a or /b with two CPU hogs
        // running; 100 ms apart, none in 200).
        let slow = TestHTTPServer.Route.delayed(.seconds(2), .respond(body: "<title>between</title>"))
        let server = try TestHTTPServer(routes: [
            "*": .respond(body: start), "/a": slow, "/b": slow,
            "/end": .delayed(.milliseconds(10), .respond(body: "<title>end</title>"))
        ])
        let parser = WebParserRunner()
        let script = "document.title === 'end' ? document.title : null"
        // Two at a time, as `-j 2` runs them.
        let outcomes = await withTaskGroup(of: [String].self) { group in
            for worker in 0..<2 {
                group.addTask {
                    var outcomes: [String] = []
                    for index in 0..<25 {
                        do {
                            let result = try await parser.run(job(server.url("/?\(worker)-\(index)"), script: script))
                            outcomes.append(String(decoding: result.data, as: UTF8.self))
                        } catch {
                            outcomes.append("\(error)")
                        }
                    }
                    return outcomes
                }
            }
            return await group.reduce(into: []) { $0 += $1 }
        }
        #expect(outcomes.count == 50)
        #expect(outcomes.filter { $0 != #""end""# } == [])
    }

    func job(_ url: URL, script: String) -> WebParserJob {
        WebParserJob(url: url, evaluation: Evaluation(script: script, pollInterval: .milliseconds(20)), timeout: .seconds(15))
    }
}
