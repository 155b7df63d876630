import Foundation
import TestSupport
import Testing
import WebParser

/// Real WebKitGTK pages against a real HTTP server on 127.0.0.1.
@Suite struct WebKitIntegrationTests {
    /// A single-page app: the HTML has only `<div id="app">`; 300 ms after load the page fetches JSON and
    /// renders it.
    static let spa = """
        <!doctype html><meta charset="utf-8"><title>Updates</title><div id="app"></div>
        <script>
        setTimeout(async () => {
          const comics = await (await fetch("/comics.json")).json();
          document.getElementById("app").innerHTML =
            comics.map(c => `<li class="comic" data-chapter="${c.chapter}">${c.title}</li>`).join("");
        }, 300);
        </script>
        """
    static let comics = #"[{"title":"Paper Knights","chapter":203},{"title":"Café Monsters","chapter":48}]"#
    static let listScript = "Array.from(document.querySelectorAll('.comic'), e => ({title: e.textContent, chapter: Number(e.dataset.chapter)}))"

    func job(_ url: URL, _ script: String, timeout: Duration = .seconds(20), retries: Int = 0) -> WebParserJob {
        WebParserJob(
            url: url, evaluation: Evaluation(script: script, pollInterval: .milliseconds(20)), timeout: timeout,
            retry: RetryPolicy(retries: retries, delay: .milliseconds(50)))
    }

    @Test func waitsForDataThePageFetchesAndRenders() async throws {
        let server = try TestHTTPServer(routes: [
            "/": .respond(body: Self.spa),
            "/comics.json": .respond(contentType: "application/json", body: Self.comics)
        ])
        struct Comic: Decodable, Equatable { var title: String; var chapter: Int }
        let comics = try await WebParserRunner().parse(job(server.url("/"), Self.listScript), mapper: JSONMapper([Comic].self))
        #expect(comics == [Comic(title: "Paper Knights", chapter: 203), Comic(title: "Café Monsters", chapter: 48)])
        #expect(server.requests(for: "/comics.json").count == 1)
    }

    @Test func theScriptContract() async throws {
        let server = try TestHTTPServer(routes: ["/": .respond(body: "<title>Hello</title><p id=n>42</p>")])
        let parser = WebParserRunner()
        let cases: [(script: String, json: String)] = [
            ("document.title", #""Hello""#),
            ("(() => Number(document.getElementById('n').textContent))()", "42"),
            ("() => document.title.length", "5"),
            ("async () => { await new Promise(r => setTimeout(r, 50)); return [document.title]; }", #"["Hello"]"#),
            ("Promise.resolve({ok: true})", #"{"ok":true}"#),
            ("0", "0"),
            ("false;", "false")
        ]
        for (script, expected) in cases {
            let data = try await parser.run(job(server.url("/"), script)).data
            #expect(String(decoding: data, as: UTF8.self) == expected, "\(script)")
        }
    }

    @Test func anErrorWhileTheDocumentIsStillParsedMeansNotYet() async throws {
        let server = try TestHTTPServer(routes: [
            "/": .respond(body: "<title>slow</title><script src=/slow.js></script><p id=late>found</p>"),
            "/slow.js": .delayed(.milliseconds(600), .respond(contentType: "text/javascript", body: "window.slow = true;"))
        ])
        let result = try await WebParserRunner().run(job(server.url("/"), "document.getElementById('late').textContent"))
        #expect(result.data == Data(#""found""#.utf8))
    }

    @Test func aThrowingScriptFailsAtOnceWithLineAndColumn() async throws {
        let server = try TestHTTPServer(routes: ["/": .respond(body: "<p>hi</p>")])
        let script = "(() => {\n  const list = null;\n  return list.length;\n})()"
        let error = await #expect(throws: WebParserError.self) {
            try await WebParserRunner().run(job(server.url("/"), script, retries: 3))
        }
        guard case .scriptFailed(let failure)? = error?.kind else {
            Issue.record("expected a script failure, got \(String(describing: error))")
            return
        }
        #expect(failure.message.hasPrefix("TypeError"))
        #expect(failure.line == 3)
        #expect(failure.column != nil)
        #expect(error?.attempts == 1)
        #expect(server.requests(for: "/").count == 1)
    }

    @Test func aSyntaxErrorNamesItsLine() async throws {
        let server = try TestHTTPServer(routes: ["/": .respond(body: "<p>hi</p>")])
        let error = await #expect(throws: WebParserError.self) {
            try await WebParserRunner().run(job(server.url("/"), "[1,\n2 +* 3]"))
        }
        guard case .scriptFailed(let failure)? = error?.kind else {
            Issue.record("expected a script failure, got \(String(describing: error))")
            return
        }
        #expect(failure.message.hasPrefix("SyntaxError"))
        #expect(failure.line == 2)
    }

    @Test func aDOMNodeIsNotData() async throws {
        let server = try TestHTTPServer(routes: ["/": .respond(body: "<p id=x>hi</p>")])
        let error = await #expect(throws: WebParserError.self) {
            try await WebParserRunner().run(job(server.url("/"), "document.getElementById('x')"))
        }
        guard case .unsupportedResult(let what)? = error?.kind else {
            Issue.record("expected an unsupported result, got \(String(describing: error))")
            return
        }
        #expect(what.contains("DOM element (<p>)"))
    }

    @Test func valuesJSONCannotShowAreNotData() async throws {
        let server = try TestHTTPServer(routes: ["/": .respond(body: "<p>hi</p>")])
        let parser = WebParserRunner()
        for (script, expected) in [
            ("new Map([['a', 1]])", "a Map"), ("({titles: new Set(['x'])})", "a Set"),
            ("new URLSearchParams('a=1')", "a URLSearchParams object")
        ] {
            let error = await #expect(throws: WebParserError.self) { try await parser.run(job(server.url("/"), script)) }
            guard case .unsupportedResult(let what)? = error?.kind else {
                Issue.record("\(script): expected an unsupported result, got \(String(describing: error))")
                continue
            }
            #expect(what.hasPrefix(expected), "\(script): \(what)")
        }
    }

    @Test func anErrorThrownByThePagesOwnCodeHasNoScriptLine() async throws {
        let server = try TestHTTPServer(routes: ["/": .respond(body: "<script>\n\n\nfunction load() { throw new Error('page bug') }</script>")])
        let error = await #expect(throws: WebParserError.self) {
            try await WebParserRunner().run(job(server.url("/"), "load()"))
        }
        #expect(error?.kind == .scriptFailed(ScriptFailure(message: "Error: page bug")))
    }

    @Test func aPortWebKitBlocksFailsAtOnce() async throws {
        let error = await #expect(throws: WebParserError.self) {
            try await WebParserRunner().run(job(URL(string: "http://127.0.0.1:6000/")!, "document.title", retries: 2))
        }
        guard case .unsupportedURL? = error?.kind else {
            Issue.record("expected an unsupported URL, got \(String(describing: error))")
            return
        }
        #expect(error?.attempts == 1)
    }

    @Test func aRefusedConnectionIsRetriedThenReported() async throws {
        let url = try TestHTTPServer.refusingURL()
        let error = await #expect(throws: WebParserError.self) {
            try await WebParserRunner().run(job(url, "document.title", retries: 1))
        }
        #expect(error?.kind == .connectionRefused)
        #expect(error?.attempts == 2)
    }

    @Test func notFoundIsNotRetried() async throws {
        let server = try TestHTTPServer(routes: [:])
        let error = await #expect(throws: WebParserError.self) {
            try await WebParserRunner().run(job(server.url("/missing"), "document.title", retries: 3))
        }
        #expect(error?.kind == .httpStatus(404))
        #expect(server.requests(for: "/missing").count == 1)
    }

    @Test func aServerErrorOnceIsRetriedAndSucceeds() async throws {
        let server = try TestHTTPServer(routes: [
            "/": .sequence([.respond(status: 500, body: "oops"), .respond(body: "<title>back</title>")])
        ])
        let log = StateLog()
        let data = try await WebParserRunner().run(job(server.url("/"), "document.title", retries: 2), onStateChange: log.record).data
        #expect(String(decoding: data, as: UTF8.self) == #""back""#)
        #expect(server.requests(for: "/").count == 2)
        #expect(log.states.filter { $0 == .started }.count == 1)
        #expect(log.states.contains { if case .retrying(2, _) = $0 { true } else { false } })
    }

    @Test func aServerThatNeverAnswersTimesOut() async throws {
        let server = try TestHTTPServer(routes: ["/": .hang])
        defer { server.stop() }
        let start = ContinuousClock.now
        let error = await #expect(throws: WebParserError.self) {
            try await WebParserRunner().run(job(server.url("/"), "document.title", timeout: .milliseconds(1500)))
        }
        let elapsed = ContinuousClock.now - start
        #expect(error?.kind == .timedOut(phase: .waitingForServer, after: .milliseconds(1500)))
        #expect(elapsed >= .milliseconds(1500))
    }

    @Test func cancellationStopsALoadInProgress() async throws {
        let server = try TestHTTPServer(routes: ["/": .hang])
        defer { server.stop() }
        let parser = WebParserRunner()
        let log = StateLog()
        let job = job(server.url("/"), "document.title", timeout: .seconds(60))
        let task = Task { try await parser.run(job, onStateChange: log.record) }
        while server.requests(for: "/").isEmpty { try await Task.sleep(for: .milliseconds(10)) }
        task.cancel()
        await #expect(throws: CancellationError.self, "cancelled, not timed out") { try await task.value }
        #expect(log.states.last == .cancelled)
    }
}

/// The job fields that shape the page: languages, headers, blocked resources, page scripts, waitFor.
@Suite struct PageOptionsTests {
    func job(_ url: URL, _ script: String) -> WebParserJob {
        WebParserJob(
            url: url, evaluation: Evaluation(script: script, pollInterval: .milliseconds(20)), timeout: .seconds(20),
            retry: RetryPolicy(retries: 0))
    }

    func text(_ result: WebParserResult) -> String { String(decoding: result.data, as: UTF8.self) }

    @Test func languagesReachTheServerAndTheScript() async throws {
        let server = try TestHTTPServer(routes: ["/": .respond(body: "<p>hi</p>")])
        let parser = WebParserRunner()
        var french = job(server.url("/"), "[navigator.language, navigator.languages.join()]")
        french.page.languages = ["fr-FR", "fr"]
        #expect(text(try await parser.run(french)) == #"["fr-FR","fr-FR"]"#)
        let accepted = server.requests(for: "/").last?.headers["accept-language"] ?? ""
        #expect(accepted.hasPrefix("fr-FR") && accepted.contains("fr;"), "\(accepted)")
        var german = french
        german.page.languages = ["de"]
        #expect(text(try await parser.run(german)) == #"["de","de"]"#)
        #expect(server.requests(for: "/").last?.headers["accept-language"]?.hasPrefix("de") == true)
    }

    @Test func jobsOfOtherLanguagesNeverShareTheContextAtOnce() async throws {
        let server = try TestHTTPServer(routes: ["*": .respond(body: "<p>hi</p>")])
        let parser = WebParserRunner()
        // Each page reads its language, waits, and reads it again: a job of another language running
        // meanwhile would change it under the first.
        let script = "new Promise(r => { const first = navigator.language; setTimeout(() => r([first, navigator.language]), 400); })"
        var french = job(server.url("/fr"), script)
        french.page.languages = ["fr-FR"]
        var german = job(server.url("/de"), script)
        german.page.languages = ["de"]
        async let fromFrench = parser.run(french)
        async let fromGerman = parser.run(german)
        let (frenchResult, germanResult) = try await (fromFrench, fromGerman)
        #expect(text(frenchResult) == #"["fr-FR","fr-FR"]"#)
        #expect(text(germanResult) == #"["de","de"]"#)
    }

    @Test func headersGoWithThePagesOwnRequest() async throws {
        let server = try TestHTTPServer(routes: ["/": .respond(body: "<p>hi</p>")])
        var withHeaders = job(server.url("/"), "document.body.textContent")
        withHeaders.load.headers = ["X-Token": "secret-1", "Referer": "https://example.com/"]
        _ = try await WebParserRunner().run(withHeaders)
        let request = try #require(server.requests(for: "/").first)
        #expect(request.headers["x-token"] == "secret-1")
        #expect(request.headers["referer"] == "https://example.com/")
    }

    @Test func blockedResourcesNeverReachTheServer() async throws {
        let page = """
            <style>@font-face { font-family: F; src: url(/font.woff2); } body { font-family: F; }</style>
            <img src="/picture.png"><video src="/clip.mp4" preload="auto"></video><p>text</p>
            <script>fetch("/data.json").then(r => r.text()).then(t => document.title = t)</script>
            """
        let server = try TestHTTPServer(routes: [
            "/": .respond(body: page),
            "/data.json": .respond(contentType: "application/json", body: "ready")
        ])
        let blocked = job(server.url("/"), "document.title === 'ready' ? document.images.length : null")
        #expect(text(try await WebParserRunner().run(blocked)) == "1")
        try await Task.sleep(for: .milliseconds(300))
        #expect(server.requests(for: "/picture.png").isEmpty)
        #expect(server.requests(for: "/clip.mp4").isEmpty)
        #expect(server.requests(for: "/font.woff2").isEmpty)
        #expect(server.requests(for: "/data.json").count == 1)

        var open = blocked
        open.page.blockedResources = []
        _ = try await WebParserRunner().run(open)
        let deadline = ContinuousClock.now + .seconds(5)
        while server.requests(for: "/picture.png").isEmpty && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(server.requests(for: "/picture.png").count == 1)
    }

    @Test func pageScriptsCanBeTurnedOffWhileTheJobsScriptRuns() async throws {
        let server = try TestHTTPServer(routes: ["/": .respond(body: "<title>static</title><script>document.title = 'scripted'</script>")])
        var quiet = job(server.url("/"), "document.title")
        quiet.page.pageScripts = false
        #expect(text(try await WebParserRunner().run(quiet)) == #""static""#)
        quiet.page.pageScripts = true
        #expect(text(try await WebParserRunner().run(quiet)) == #""scripted""#)
    }

    @Test func waitForHoldsTheScriptBack() async throws {
        let page = "<p id=n>0</p><script>setTimeout(() => { document.getElementById('n').textContent = '7'; document.body.dataset.ready = 1 }, 300)</script>"
        let server = try TestHTTPServer(routes: ["/": .respond(body: page)])
        var waiting = job(
            server.url("/"), "(window.evaluations = (window.evaluations || 0) + 1, [window.evaluations, document.getElementById('n').textContent])")
        waiting.evaluation.waitFor = "document.body.dataset.ready"
        let result = try await WebParserRunner().run(waiting)
        #expect(text(result) == #"[1,"7"]"#, "evaluated once, after waitFor")
        #expect(result.httpStatus == 200)
        #expect(result.finalURL == server.url("/").absoluteString)
        #expect(result.attempts == 1)
    }

    @Test func aFailingWaitForNamesItself() async throws {
        let server = try TestHTTPServer(routes: ["/": .respond(body: "<p>hi</p>")])
        var broken = job(server.url("/"), "document.title")
        broken.evaluation.waitFor = "(() => {\n  return missing.thing;\n})()"
        let error = await #expect(throws: WebParserError.self) { try await WebParserRunner().run(broken) }
        guard case .scriptFailed(let failure)? = error?.kind else {
            Issue.record("expected a script failure, got \(String(describing: error))")
            return
        }
        #expect(failure.part == .waitFor)
        #expect(failure.line == 2)
    }
}

/// Data is picked up when the DOM changes, not a poll period later.
@Suite struct DetectionTests {
    @Test func aDOMChangeWithoutTimersIsSeenAtOnce() async throws {
        // The page renders when its fetch completes: no timer, so only a DOM change can announce the data.
        let page = """
            <div id=app></div><script>
            fetch("/data").then(r => r.text()).then(text => {
              window.renderedAt = performance.now();
              document.getElementById("app").textContent = text;
            });
            </script>
            """
        let server = try TestHTTPServer(routes: [
            "/": .respond(body: page),
            "/data": .delayed(.milliseconds(600), .respond(contentType: "text/plain", body: "ready"))
        ])
        var evaluation = Evaluation(
            script: """
                document.getElementById('app').textContent ? [document.getElementById('app').textContent, performance.now() - window.renderedAt] : null
                """, pollInterval: .seconds(20))
        // The first non-empty answer, to see how soon it is seen (settling would take it 0.3 s later on purpose).
        evaluation.settle = .zero
        // A timeout shorter than the poll interval: the answer is seen at the change, or the job fails.
        let job = WebParserJob(url: server.url("/"), evaluation: evaluation, timeout: .seconds(15), retry: RetryPolicy(retries: 0))
        let result = try await WebParserRunner().run(job)
        let values = try #require(try JSONSerialization.jsonObject(with: result.data) as? [Any])
        #expect(values.first as? String == "ready")
        #expect(values.last is Double, "how soon it was seen after the change, in ms")
    }
}

/// Pages reused between jobs, recycled, and killed past their memory limit; URL patterns blocked.
@Suite struct PageLifecycleTests {
    func job(_ url: URL, _ script: String) -> WebParserJob {
        WebParserJob(url: url, script: script, timeout: .seconds(20), retry: RetryPolicy(retries: 0))
    }

    /// A page that loads a script the server lets be cached for an hour: a web process keeps it in its
    /// memory cache, and an ephemeral session has no other cache, so each request for it is a new web process.
    static func processCountingServer() throws -> TestHTTPServer {
        try TestHTTPServer(routes: [
            "/": .respond(body: "<script src=/count.js></script><p>hi</p>"),
            "/count.js": .respond(contentType: "text/javascript", headers: ["Cache-Control": "max-age=3600"], body: "window.counted = 1")
        ])
    }

    @Test func webProcessesAreReusedAndRecycledAfterTheirLoads() async throws {
        let server = try Self.processCountingServer()
        let recycling = WebParserRunner(session: WebParserSession(configuration: .init(recycleAfter: 3)))
        for _ in 1...7 { _ = try await recycling.run(job(server.url("/"), "window.counted")) }
        #expect(server.requests(for: "/count.js").count == 3, "7 jobs, a web process for every 3 loads")
    }

    @Test func aPageThatFailedIsNotReused() async throws {
        let server = try Self.processCountingServer()
        let parser = WebParserRunner()
        _ = try await parser.run(job(server.url("/"), "window.counted"))
        _ = try await parser.run(job(server.url("/"), "window.counted"))
        #expect(server.requests(for: "/count.js").count == 1)
        _ = try? await parser.run(job(server.url("/"), "missing.thing"))
        _ = try await parser.run(job(server.url("/"), "window.counted"))
        #expect(server.requests(for: "/count.js").count == 2, "the failed job's web process served the next job")
    }

    @Test func aPageOverItsMemoryLimitIsKilledAndReported() async throws {
        let hog = "<script>const keep = []; setInterval(() => { for (let i = 0; i < 20; i++) keep.push(new Array(1 << 20).fill(i)) }, 20)</script>"
        let server = try TestHTTPServer(routes: ["/hog": .respond(body: hog), "/fine": .respond(body: "<title>fine</title>")])
        let parser = WebParserRunner(session: WebParserSession(configuration: .init(memoryLimit: 200)))
        let error = await #expect(throws: WebParserError.self) {
            try await parser.run(job(server.url("/hog"), "null"))
        }
        #expect(error?.kind == .memoryLimitExceeded)
        #expect(try await parser.run(job(server.url("/fine"), "document.title")).data == Data(#""fine""#.utf8))
    }

    @Test func urlPatternsBlockSubresourcesButNotThePage() async throws {
        let page = "<script src='/ads/track.js'></script><script src='/app.js'></script><p>page</p>"
        let server = try TestHTTPServer(routes: [
            "/ads-page": .respond(body: page),
            "/app.js": .respond(contentType: "text/javascript", body: "document.title = 'app'"),
            "/ads/track.js": .respond(contentType: "text/javascript", body: "document.title = 'tracked'")
        ])
        var blocking = job(server.url("/ads-page"), "document.readyState === 'complete' ? document.title : null")
        blocking.page.blockedURLs = ["/ads/"]
        #expect(try await WebParserRunner().run(blocking).data == Data(#""app""#.utf8))
        #expect(server.requests(for: "/ads/track.js").isEmpty)
        #expect(server.requests(for: "/ads-page").count == 1)
    }
}
