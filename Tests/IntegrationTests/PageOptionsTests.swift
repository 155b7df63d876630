import Foundation
import TestSupport
import Testing
import WebParser

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
