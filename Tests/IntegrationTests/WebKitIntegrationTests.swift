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
