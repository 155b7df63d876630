import Foundation
import TestSupport
import Testing
import WebParser

/// User scripts, emitted values, console capture, screenshots and navigation, on real WebKitGTK pages.
@Suite struct PageBridgeTests {
    func job(
        _ url: URL, _ script: String, userScripts: [String] = [], collect: WebParserJob.Collect = .result,
        timeout: Duration = .seconds(15)
    ) throws -> WebParserJob {
        let scripts = try userScripts.enumerated().map { index, source in
            try UserScript(source: source, fileName: "script\(index).user.js")
        }
        return WebParserJob(
            url: url, evaluation: Evaluation(script: script, pollInterval: .milliseconds(20), collect: collect),
            timeout: timeout, retry: RetryPolicy(retries: 0), page: PageSettings(userScripts: scripts))
    }

    static func userScript(_ header: String, _ body: String) -> String {
        "// ==UserScript==\n\(header)\n// ==/UserScript==\n\(body)\n"
    }

    /// Collects a job's messages from the WebKit thread.
    final class Messages: Sendable {
        private let shared = Shared<[WebParserMessage]>([])
        var all: [WebParserMessage] { shared.value }
        var handler: @Sendable (WebParserMessage) -> Void { { [shared] message in shared.value.append(message) } }
        var emitted: [String] {
            all.compactMap { if case .emitted(let json) = $0 { String(decoding: json, as: UTF8.self) } else { nil } }
        }
        var console: [ConsoleMessage] { all.compactMap { if case .console(let line) = $0 { line } else { nil } } }
        var failures: [UserScriptFailure] { all.compactMap { if case .userScriptFailed(let failure) = $0 { failure } else { nil } } }
    }

    static let afterLoad = "document.readyState === 'complete' ? window.marks ?? 'none' : null"
    static let allMarks = "window.marks?.length === 4 ? window.marks : null"
    static let marker = "window.marks = (window.marks ?? '') + "

    @Test func userScriptsRunOnlyWhereTheirPatternsMatch() async throws {
        let server = try TestHTTPServer(routes: ["*": .respond(body: "<title>page</title>")])
        let scripts = [
            Self.userScript("// @name list\n// @match http://127.0.0.1/list*\n// @run-at document-end", Self.marker + "'L';"),
            Self.userScript("// @name all-but-admin\n// @include *\n// @exclude /\\/admin/\n// @run-at document-end", Self.marker + "'A';"),
            Self.userScript("// @name other-host\n// @match https://comics.example/*\n// @run-at document-end", Self.marker + "'X';")
        ]
        let parser = WebParserRunner()
        let cases = [("/list?page=2", "LA"), ("/admin/list", "none"), ("/chapter", "A")]
        for (path, expected) in cases {
            let data = try await parser.run(try job(server.url(path), Self.afterLoad, userScripts: scripts)).data
            #expect(String(decoding: data, as: UTF8.self) == "\"\(expected)\"", "\(path)")
        }
    }

    @Test func runAtTimesAreKept() async throws {
        let page = "<script>window.marks = (window.marks ?? '') + 'P';</script><p>body</p>"
        let server = try TestHTTPServer(routes: ["/": .respond(body: page)])
        let scripts = [
            Self.userScript("// @name idle", Self.marker + "'I';"),
            Self.userScript(
                "// @name end\n// @run-at document-end",
                Self.marker + "(document.querySelector('p') ? 'E' : 'e');"),
            Self.userScript(
                "// @name start\n// @run-at document-start",
                Self.marker + "(document.querySelector('p') ? 's' : 'S');")
        ]
        let data = try await WebParserRunner().run(try job(server.url("/"), Self.allMarks, userScripts: scripts)).data
        #expect(String(decoding: data, as: UTF8.self) == #""SPEI""#)
    }

    @Test func aThrowingUserScriptIsReportedAndBreaksNothing() async throws {
        let page = "<script>window.pageRan = true;</script><p>page</p>"
        let server = try TestHTTPServer(routes: ["/": .respond(body: page)])
        let scripts = [
            Self.userScript("// @name thrower\n// @run-at document-start", "const list = null;\nlist.push(1);"),
            Self.userScript("// @name late thrower\n// @run-at document-end", "setTimeout(() => {}, 0);\nthrow new RangeError('too far');"),
            Self.userScript("// @name survivor\n// @run-at document-end", Self.marker + "'S';")
        ]
        let messages = Messages()
        let data = try await WebParserRunner().run(
            try job(
                server.url("/"), "window.pageRan && document.readyState === 'complete' ? window.marks : null",
                userScripts: scripts),
            onMessage: messages.handler
        ).data
        #expect(String(decoding: data, as: UTF8.self) == #""S""#)
        let failures = messages.failures
        #expect(failures.count == 2)
        #expect(failures.first { $0.script == "thrower" }?.line == 6)
        #expect(failures.first { $0.script == "thrower" }?.message.contains("TypeError") == true)
        #expect(failures.first { $0.script == "late thrower" } == UserScriptFailure(script: "late thrower", message: "RangeError: too far", line: 6))
    }

    /// The typical use: a document-start script hooks `fetch` and emits the JSON an SPA downloads.
    @Test func aDocumentStartScriptCapturesWhatThePageFetches() async throws {
        let server = try TestHTTPServer(routes: [
            "/": .respond(
                body: """
                    <div id="app"></div><script>
                    fetch("/api/chapters").then(r => r.json()).then(list => { document.getElementById("app").textContent = list.length; });
                    </script>
                    """),
            "/api/chapters": .respond(contentType: "application/json", body: #"[{"chapter":203,"title":"Paper Knights"},{"chapter":204,"title":"Café"}]"#)
        ])
        let capture = Self.userScript(
            "// @name capture\n// @match http://127.0.0.1/*\n// @run-at document-start",
            """
            const originalFetch = window.fetch;
            window.fetch = async (...args) => {
              const response = await originalFetch(...args);
              if (response.url.includes("/api/chapters")) {
                for (const chapter of await response.clone().json()) await webparse.emit(chapter);
                await webparse.done();
              }
              return response;
            };
            """)
        let messages = Messages()
        let result = try await WebParserRunner().run(
            try job(server.url("/"), "", userScripts: [capture], collect: .emitted),
            onMessage: messages.handler)
        #expect(String(decoding: result.data, as: UTF8.self) == #"[{"chapter":203,"title":"Paper Knights"},{"chapter":204,"title":"Café"}]"#)
        #expect(result.isComplete)
        #expect(messages.failures.isEmpty)
        #expect(messages.emitted == [#"{"chapter":203,"title":"Paper Knights"}"#, #"{"chapter":204,"title":"Café"}"#])
    }

    @Test func aHundredEmittedRecordsArriveInOrder() async throws {
        let server = try TestHTTPServer(routes: ["/": .respond(body: "<p>records</p>")])
        // Half awaited one by one, half sent at once: the order holds either way.
        let emitter = Self.userScript(
            "// @name emitter",
            """
            (async () => {
              for (let i = 0; i < 50; i++) await webparse.emit({ i });
              const pending = [];
              for (let i = 50; i < 100; i++) pending.push(webparse.emit({ i }));
              await Promise.all(pending);
              await webparse.done();
            })();
            """)
        let messages = Messages()
        let result = try await WebParserRunner().run(
            try job(server.url("/"), "", userScripts: [emitter], collect: .emitted),
            onMessage: messages.handler)
        let expected = (0..<100).map { #"{"i":\#($0)}"# }
        #expect(String(decoding: result.data, as: UTF8.self) == "[" + expected.joined(separator: ",") + "]")
        #expect(messages.emitted == expected)
    }

    @Test func theJobsScriptCanEndTheCollectionAndTheTimeoutKeepsWhatCame() async throws {
        let server = try TestHTTPServer(routes: ["/": .respond(body: "<p>records</p>")])
        let emitter = Self.userScript("// @name emitter", "webparse.emit('one').then(() => webparse.emit('two')).then(() => { window.sent = true; });")
        let byScript = try await WebParserRunner().run(try job(server.url("/"), "window.sent", userScripts: [emitter], collect: .emitted))
        #expect(String(decoding: byScript.data, as: UTF8.self) == #"["one","two"]"#)
        #expect(byScript.isComplete)

        let byTimeout = try await WebParserRunner().run(try job(server.url("/"), "", userScripts: [emitter], collect: .emitted, timeout: .seconds(2)))
        #expect(String(decoding: byTimeout.data, as: UTF8.self) == #"["one","two"]"#)
        #expect(!byTimeout.isComplete)

        let silent = Self.userScript("// @name silent", "void 0;")
        await #expect {
            try await WebParserRunner().run(try job(server.url("/"), "", userScripts: [silent], collect: .emitted, timeout: .seconds(1)))
        } throws: { error in
            guard case .timedOut = (error as? WebParserError)?.kind else { return false }
            return true
        }
    }

    @Test func thePageCannotReachWebparseNorForgeMessages() async throws {
        let page = """
            <script>
            window.probe = { global: typeof webparse };
            window.webkit.messageHandlers.webparse.postMessage(JSON.stringify({ token: "guess", kind: "emit", value: "666" }))
              .then(() => { window.probe.forged = "accepted"; }, () => { window.probe.forged = "rejected"; });
            window.webkit.messageHandlers.webparse.postMessage(JSON.stringify({ token: "guess", kind: "finished" })).catch(() => {});
            </script>
            """
        let server = try TestHTTPServer(routes: ["/": .respond(body: page)])
        let emitter = Self.userScript(
            "// @name emitter\n// @run-at document-end",
            "const wait = () => window.probe?.forged ? webparse.emit(window.probe).then(() => webparse.done()) : setTimeout(wait, 10);\nwait();")
        let result = try await WebParserRunner().run(try job(server.url("/"), "", userScripts: [emitter], collect: .emitted))
        #expect(String(decoding: result.data, as: UTF8.self) == #"[{"global":"undefined","forged":"rejected"}]"#)
    }

    /// A page that pollutes every built-in the bridge could touch, then makes the bridge send (console lines, an
    /// uncaught error, an unhandled rejection, an emitted value) and forges messages with whatever it caught.
    static let pollutingPage = """
        <script>
        window.caught = [];
        const keep = (value) => { if (typeof value === "string" && /^[0-9a-f]+-[0-9a-f]+$/.test(value)) caught.push(value); };
        const scan = (object) => { try { for (const key in object) keep(object[key]); keep(object.token); } catch (_) {} };
        Object.defineProperty(Object.prototype, "token", { configurable: true, get() { return undefined; },
          set(value) { keep(value); Object.defineProperty(this, "token", { value, enumerable: true, writable: true, configurable: true }); } });
        Object.defineProperty(Object.prototype, "kind", { configurable: true, get() { return undefined; },
          set(value) { Object.defineProperty(this, "kind", { value: "emit", enumerable: true, writable: true, configurable: true }); } });
        Object.prototype.toJSON = function () {
          scan(this);
          if (this.kind === "console" || this.kind === "userScriptFailed") return { ...this, kind: "emit", value: '"FORGED"' };
          return this;
        };
        Object.prototype[Symbol.toPrimitive] = function () { scan(this); return "primitive"; };
        const originalStringify = JSON.stringify;
        JSON.stringify = function (value, ...rest) { scan(value); return originalStringify.call(this, value, ...rest); };
        for (const [owner, names] of [[Array.prototype, ["map", "join", "some", "slice"]], [String.prototype, ["slice", "split"]],
                                      [Function.prototype, ["call", "apply", "bind"]], [Promise.prototype, ["then"]]]) {
          for (const name of names) {
            const original = owner[name];
            owner[name] = function (...values) { scan(this); values.forEach(scan); return Reflect.apply(original, this, values); };
          }
        }
        for (const [owner, names] of [[Object, ["freeze", "assign", "keys", "defineProperty"]], [Array, ["from", "isArray", "of"]]]) {
          for (const name of names) {
            const original = owner[name];
            owner[name] = function (...values) { values.forEach(scan); return Reflect.apply(original, owner, values); };
          }
        }
        window.String = function (value) { scan(value); return { toString() { return "not a string"; } }; };
        window.thrower = function () {
          throw { get sourceURL() {
            const caller = arguments.callee.caller;
            if (caller) { caught.push("caller"); try { caller({ name: "forged", offset: 0, lines: 0 }, new Error("FORGED")); } catch (_) {} }
            return undefined;
          }, toString() { return "trap"; } };
        };
        console.log("a line", { with: "an object" });
        console.error(new Error("an error"));
        Promise.reject(new Error("nobody listens"));
        setTimeout(() => { throw new TypeError("uncaught"); }, 0);
        </script>
        <script>
        window.forge = () => {
          const handler = window.webkit.messageHandlers.webparse;
          for (const token of [...new Set(caught)]) {
            handler.postMessage(originalStringify({ token, kind: "emit", value: '"FORGED"' })).catch(() => {});
          }
          window.forged = true;
        };
        </script>
        """

    @Test func aPageThatPollutesBuiltInsNeitherStealsTheTokenNorForgesMessages() async throws {
        let server = try TestHTTPServer(routes: ["/": .respond(body: Self.pollutingPage)])
        let thrower = Self.userScript("// @name thrower\n// @run-at document-end", "throw new Error('a user script fails');")
        let trap = Self.userScript("// @name trap\n// @run-at document-end", "window.thrower();")
        let emitter = Self.userScript(
            "// @name emitter\n// @run-at document-idle",
            """
            await webparse.emit({ genuine: 1 });
            await new Promise((resolve) => setTimeout(resolve, 100));
            window.forge();
            await new Promise((resolve) => setTimeout(resolve, 100));
            await webparse.emit({ caught: window.caught.length });
            await webparse.done();
            """)
        var job = try job(server.url("/"), "", userScripts: [thrower, trap, emitter], collect: .emitted)
        job.page.capturesConsole = true
        let messages = Messages()
        let result = try await WebParserRunner().run(job, onMessage: messages.handler)
        #expect(String(decoding: result.data, as: UTF8.self) == #"[{"genuine":1},{"caught":0}]"#)
        #expect(!messages.emitted.contains { $0.contains("FORGED") })
        #expect(messages.console.contains { $0.level == .log && $0.text.hasPrefix("a line") })
        #expect(messages.failures.map(\.script) == ["thrower", "trap"])
    }

    @Test func consoleLinesAndUncaughtErrorsAreReportedWithTheirPlace() async throws {
        let page = """
            <title>console</title><script>
            console.log("hello", { a: 1 }, 42);
            console.warn("careful");
            Promise.reject(new Error("nobody listens"));
            </script>
            <script>
            throw new TypeError("boom");
            </script>
            """
        let server = try TestHTTPServer(routes: ["/": .respond(body: page)])
        var job = try job(server.url("/"), "document.readyState === 'complete' ? document.title : null")
        job.page.capturesConsole = true
        let messages = Messages()
        _ = try await WebParserRunner().run(job, onMessage: messages.handler)
        let url = server.url("/").absoluteString
        let lines = messages.console
        #expect(lines.contains(ConsoleMessage(level: .log, text: #"hello {"a":1} 42"#, source: SourceLocation(url: url, line: 2, column: 12))))
        #expect(lines.contains { $0.level == .warn && $0.text == "careful" && $0.source?.line == 3 })
        #expect(lines.contains { $0.level == .error && $0.text == "Uncaught TypeError: boom" && $0.source?.line == 7 })
        #expect(lines.contains { $0.level == .error && $0.text == "Unhandled rejection: Error: nobody listens" })
    }

    @Test func consoleLinesOfTheJobsScriptArePlacedInItsOwnLines() async throws {
        let server = try TestHTTPServer(routes: ["/": .respond(body: "<title>t</title>")])
        var job = try job(server.url("/"), "(console.info('from the script'), document.title)")
        job.page.capturesConsole = true
        let messages = Messages()
        _ = try await WebParserRunner().run(job, onMessage: messages.handler)
        #expect(
            messages.console.first { $0.text == "from the script" }?.source == SourceLocation(url: "script", line: 1, column: 14),
            "\(messages.console)")
    }

    @Test func aUserScriptMayAwaitAtItsTopLevel() async throws {
        let server = try TestHTTPServer(routes: [
            "/": .respond(body: "<title>t</title>"),
            "/data.json": .respond(contentType: "application/json", body: #"{"n": 7}"#)
        ])
        let script = Self.userScript(
            "// @name top-level await",
            """
            const data = await (await fetch("/data.json")).json();
            await webparse.emit(data.n);
            await webparse.done();
            """)
        let result = try await WebParserRunner().run(try job(server.url("/"), "", userScripts: [script], collect: .emitted))
        #expect(result.data == Data("[7]".utf8))
    }

    @Test func theConsoleIsLeftAloneUnlessAsked() async throws {
        let server = try TestHTTPServer(routes: ["/": .respond(body: "<script>console.log('quiet')</script>")])
        let messages = Messages()
        _ = try await WebParserRunner().run(try job(server.url("/"), "String(console.log).includes('[native code]')"), onMessage: messages.handler)
        #expect(messages.all.isEmpty)
    }
}
