import Foundation
import Testing
import TestSupport
@testable import WebParser

/// Complete answers with the config a new user writes first (no `waitFor`): pages written the way real apps are,
/// which append their list item by item, re-render it after a click over fetch, after a framework's timer or
/// after a websocket message, and answer only from the page as it settled.
@Suite(.serialized) struct SettleTests {
    static let jQuery = StepTests.jQuery
    static let titles = "Array.from(document.querySelectorAll('.title'), e => e.textContent)"

    func job(
        _ url: URL, _ script: String = titles, steps: [Step] = [], settle: Duration = Evaluation.defaultSettle,
        timeout: Duration = .seconds(15)
    ) -> WebParserJob {
        var evaluation = Evaluation(script: script)
        evaluation.steps = steps
        evaluation.settle = settle
        return WebParserJob(url: url, evaluation: evaluation, timeout: timeout, retry: RetryPolicy(delay: .milliseconds(50)))
    }

    func text(_ result: WebParserResult) -> String { String(decoding: result.data, as: UTF8.self) }

    /// A search results page as Sphinx writes it: the hits arrive in one request, then are appended one by one,
    /// 5 ms apart.
    static let appending = """
        <!doctype html><title>search</title><ul class="search"></ul><script>
        fetch("/hits.json").then((response) => response.json()).then((hits) => {
          const list = document.querySelector("ul.search");
          const next = () => {
            if (!hits.length) return;
            const item = document.createElement("li");
            item.className = "title";
            item.textContent = hits.shift();
            list.append(item);
            setTimeout(next, 5);
          };
          next();
        });
        </script>
        """

    @Test func itemsAppendedOneByOneAreAllThere() async throws {
        let hits = (1...10).map { "\"Hit \($0)\"" }.joined(separator: ",")
        let server = try TestHTTPServer(routes: [
            "/": .respond(body: Self.appending),
            "/hits.json": .respond(contentType: "application/json", body: "[\(hits)]")
        ])
        let parser = WebParserRunner()
        for _ in 1...3 {
            #expect(text(try await parser.run(job(server.url("/")))) == "[\(hits)]")
        }
        let first = try await parser.run(job(server.url("/"), settle: .zero))
        #expect(first.arrayLength ?? 0 < 10, "with settle 0, the first answer: \(text(first))")
    }

    @Test func aListShownWhileItsDataIsStillLoadingIsNotTheAnswer() async throws {
        let server = try TestHTTPServer(routes: [
            "/": .respond(
                body: """
                    <!doctype html><ul><li class="title">Loading…</li></ul><script>
                    fetch("/slow.json").then((r) => r.json()).then((rows) => {
                      document.querySelector("ul").innerHTML = rows.map((row) => `<li class="title">${row}</li>`).join("");
                    });
                    </script>
                    """),
            "/slow.json": .delayed(.milliseconds(1200), .respond(contentType: "application/json", body: #"["Saga","Berserk"]"#))
        ])
        #expect(text(try await WebParserRunner().run(job(server.url("/")))) == #"["Saga","Berserk"]"#)
    }

    /// A catalogue written with jQuery: the whole list on load, and filter buttons whose handlers re-render the
    /// list in place, one over `$.getJSON` (the server answers after 600 ms), one after a framework's debounce
    /// timer (600 ms, no request at all).
    static let catalogue = """
        <!doctype html><html><head><script src="/jquery.js"></script></head><body>
        <button id="manga">Manga</button> <button id="debounced">Manga, debounced</button>
        <ul id="list"></ul>
        <script>
        const render = (rows) => $("#list").empty().append(rows.map((row) => $("<li class='title'>").text(row.title)));
        $(function () {
          $.getJSON("/comics", render);
          $("#manga").on("click", () => $.getJSON("/comics?kind=manga", render));
          let timer = null;
          $("#debounced").on("click", () => {
            clearTimeout(timer);
            timer = setTimeout(() => render(window.all.filter((row) => row.kind === "manga")), 600);
          });
        });
        $(document).ajaxSuccess((event, xhr, settings) => { if (settings.url === "/comics") window.all = xhr.responseJSON; });
        </script></body></html>
        """
    static let comics = #"[{"title":"One Piece","kind":"manga"},{"title":"Saga","kind":"comic"},{"title":"Naruto","kind":"manga"}]"#

    func catalogueServer() throws -> TestHTTPServer {
        try TestHTTPServer(routes: [
            "/": .respond(body: Self.catalogue),
            "/jquery.js": .respond(contentType: "application/javascript", body: Self.jQuery),
            "/comics": .respond(contentType: "application/json", body: Self.comics),
            "/comics?kind=manga": .delayed(
                .milliseconds(600),
                .respond(
                    contentType: "application/json",
                    body: #"[{"title":"One Piece"},{"title":"Naruto"}]"#))
        ])
    }

    @Test func aListReRenderedAfterAClickOverFetchIsTakenAfterIt() async throws {
        let server = try catalogueServer()
        let result = try await WebParserRunner().run(job(server.url("/"), steps: [.click(selector: "#manga")]))
        #expect(text(result) == #"["One Piece","Naruto"]"#)
    }

    @Test func aListReRenderedAfterATimerThatAClickStartedIsTakenAfterIt() async throws {
        let server = try catalogueServer()
        let parser = WebParserRunner()
        let result = try await parser.run(job(server.url("/"), steps: [.click(selector: "#debounced")]))
        #expect(text(result) == #"["One Piece","Naruto"]"#)
        let early = try await parser.run(job(server.url("/"), steps: [.click(selector: "#debounced")], settle: .zero))
        #expect(text(early) == #"["One Piece","Saga","Naruto"]"#, "with settle 0, the list from before the click")
    }

    @Test func aStepThatChangesNothingEndsPromptly() async throws {
        let server = try catalogueServer()
        // Taken at the timeout, the answer would be a failure: the unchanged answer is taken after its quiet time.
        let result = try await WebParserRunner().run(job(server.url("/"), steps: [.click(selector: "#list")], timeout: .seconds(20)))
        #expect(text(result) == #"["One Piece","Saga","Naruto"]"#)
    }

    /// An app whose rows arrive over a websocket and are re-rendered 400 ms after the message a click sends
    /// (`Tests/Fixtures/websocket_app.py`, as Streamlit and dashboards behave).
    @Test func aListReRenderedAfterAWebsocketMessageIsTakenAfterIt() async throws {
        let app = try PythonServer(script: "websocket_app.py")
        defer { app.stop() }
        let url = URL(string: "http://127.0.0.1:\(app.port)/")!
        let parser = WebParserRunner()
        #expect(text(try await parser.run(job(url))) == #"["One Piece","Naruto","Saga","Monstress","Berserk"]"#)
        for _ in 1...2 {
            #expect(text(try await parser.run(job(url, steps: [.click(selector: "#manga")]))) == #"["One Piece","Naruto","Berserk"]"#)
        }
    }

    /// A mobile-only menu button, hidden at the default viewport by a media query, and a button under a cookie
    /// banner: the step waits, then says why it could not act, and the job is not retried.
    @Test func aStepThatCannotActSaysWhyAndIsNotRetried() async throws {
        let server = try TestHTTPServer(routes: [
            "/mobile": .respond(
                body: """
                    <!doctype html><style>@media (min-width: 800px) { .mobile-only { display: none; } }</style>
                    <nav class="mobile-only"><button id="menu">Menu</button></nav><p class="title">home</p>
                    """),
            "/covered": .respond(
                body: """
                    <!doctype html><button id="accept-all" style="position: absolute; top: 300px; left: 300px">Next</button>
                    <div id="cookie-banner" class="banner modal" style="position: fixed; inset: 0; background: white">We use cookies</div>
                    """),
            "/disabled": .respond(body: "<!doctype html><form><fieldset disabled><button id='go'>Go</button></fieldset></form>"),
            "/missing": .respond(body: "<!doctype html><p>nothing</p>")
        ])
        let parser = WebParserRunner()
        let cases: [(String, Step, String)] = [
            ("/mobile", .click(selector: "#menu"), "an element matches, but it is not visible (display: none on nav.mobile-only)"),
            ("/covered", .click(selector: "#accept-all"), "an element matches, but it is covered by div#cookie-banner.banner.modal"),
            ("/disabled", .click(selector: "#go"), "an element matches, but it is disabled (in a disabled fieldset)"),
            ("/missing", .click(selector: "#go"), "no element matches \"#go\"")
        ]
        for (path, step, reason) in cases {
            do {
                _ = try await parser.run(job(server.url(path), steps: [step], timeout: .seconds(2)))
                Issue.record("\(path): the step did not fail")
            } catch let error as WebParserError {
                #expect(error.kind == .timedOut(phase: .runningStep("1", step), after: .seconds(2)), "\(path)")
                #expect(error.lastAnswer == reason, "\(path): \(error)")
                #expect(error.attempts == 1, "\(path): a step that waited on a loaded page is not retried")
            }
        }
    }

    @Test func anIfStepRunsTheBranchThePageSettledOn() async throws {
        let server = try TestHTTPServer(routes: [
            "/": .respond(
                body: """
                    <!doctype html><div id="app"></div><script>
                    fetch("/session").then((r) => r.json()).then((session) => {
                      if (!session.user) document.getElementById("app").innerHTML = '<input id="q"><p class="title">form</p>';
                    });
                    </script>
                    """),
            "/session": .delayed(.milliseconds(400), .respond(contentType: "application/json", body: #"{"user": null}"#)),
            "/plain": .respond(body: "<!doctype html><p class='title'>plain</p>")
        ])
        let steps: [Step] = [
            .when(
                .selector("#q"), then: [.evaluate(script: "document.querySelector('.title').textContent = 'then ran'")],
                otherwise: [.evaluate(script: "document.querySelector('.title').textContent = 'else ran'")])
        ]
        let messages = MessageLog.decisions()
        let parser = WebParserRunner()
        let rendered = try await parser.run(job(server.url("/"), steps: steps), onMessage: messages.add)
        #expect(text(rendered) == #"["then ran"]"#, "the form an app renders once it knows no one is logged in is there")
        let plain = try await parser.run(job(server.url("/plain"), steps: steps), onMessage: messages.add)
        #expect(text(plain) == #"["else ran"]"#)
        #expect(messages.told == ["1 true", "1 false"])
    }
}

/// A Python app from `Tests/Fixtures`, on a free port, stopped by `stop()`.
final class PythonServer: @unchecked Sendable {
    let port: Int
    private let process = Process()

    /// Starts `Tests/Fixtures/SCRIPT` with `arguments` after its port, which prints its port on its first line once it
    /// listens.
    init(script: String, arguments: [String] = []) throws {
        let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appending(path: "Fixtures")
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [fixtures.appending(path: script).path, "0"] + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line += chunk
        }
        guard let port = Int(String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) else {
            process.terminate()
            throw POSIXError(.EIO)
        }
        self.port = port
    }

    func stop() {
        process.terminate()
        process.waitUntilExit()
    }
}
