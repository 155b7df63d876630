import Foundation
import TestSupport
import Testing

/// User scripts, emitted values, console capture, screenshots and popups from the command line.
@Suite struct PageFeatureCommandTests: CommandLineTest {
    /// An SPA whose chapters come from /api/chapters; the user script captures them from `fetch`.
    func chapterSite() throws -> TestHTTPServer {
        try TestHTTPServer(routes: [
            "/": .respond(
                body: """
                    <title>chapters</title><div id="app"></div><script>
                    console.log("loading", { page: 1 });
                    fetch("/api/chapters").then(r => r.json()).then(list => { document.getElementById("app").textContent = list.length; });
                    </script>
                    """),
            "/api/chapters": .respond(contentType: "application/json", body: #"[{"chapter":203},{"chapter":204},{"chapter":205}]"#)
        ])
    }

    static let capture = """
        // ==UserScript==
        // @name     capture
        // @match    http://127.0.0.1/*
        // @run-at   document-start
        // ==/UserScript==
        const originalFetch = window.fetch;
        window.fetch = async (...args) => {
          const response = await originalFetch(...args);
          if (response.url.endsWith("/api/chapters")) {
            for (const chapter of await response.clone().json()) webparse.emit(chapter);
            webparse.done();
          }
          return response;
        };
        """

    @Test func emittedValuesAreTheResultOrStreamAsJSONLines() async throws {
        let server = try chapterSite()
        let directory = try folder()
        try write(Self.capture, "capture.user.js", in: directory)
        let config = try write(
            #"{"url": "\#(server.url("/"))", "userScripts": "capture.user.js", "collect": "emitted", "retries": 0}"#,
            "chapters.json", in: directory)
        let whole = try await webparse.run(["run", config], environment: headless)
        #expect(whole.status == 0, "\(whole.stderr)")
        #expect(whole.stdoutText == #"[{"chapter":203},{"chapter":204},{"chapter":205}]"# + "\n")

        let lines = try await webparse.run(["run", "--jsonl", config], environment: headless)
        #expect(lines.status == 0, "\(lines.stderr)")
        let records = lines.stdoutText.split(separator: "\n").map(String.init)
        #expect(records.count == 4)
        #expect(Array(records.prefix(3)) == (203...205).map { #"{"job":"127.0.0.1","item":{"chapter":\#($0)}}"# })
        #expect(records.last?.contains(#""status":"ok""#) == true && records.last?.contains(#""complete":true,"items":3}"#) == true)

        let evaluated = try await webparse.run(
            [
                "eval", server.url("/").absoluteString, "--user-script", directory.appending(path: "capture.user.js").path,
                "--collect", "emitted"
            ], environment: headless)
        #expect(evaluated.status == 0, "\(evaluated.stderr)")
        #expect(evaluated.stdoutText == #"[{"chapter":203},{"chapter":204},{"chapter":205}]"# + "\n")
    }

    @Test func aBadUserScriptIsAConfigErrorWithItsFileAndLine() async throws {
        let directory = try folder()
        let script = try write("// ==UserScript==\n// @name broken\n// @run-at later\n// ==/UserScript==\n", "broken.user.js", in: directory)
        try write("// ==UserScript==\n// @name typo\n// ==/UserScript==\nconst chapters = [;\n", "typo.user.js", in: directory)
        let config = try write(
            #"{"url": "http://127.0.0.1:9/", "userScripts": ["broken.user.js", "typo.user.js"], "collect": "emitted"}"#,
            "config.json", in: directory)
        let outcome = try await webparse.run(["run", config], environment: headless)
        #expect(outcome.status == 2)
        #expect(outcome.stdout.isEmpty)
        #expect(outcome.stderr.contains("userScripts[0]: \(script):3: @run-at: expected document-start, document-end, document-idle, got \"later\""))
        #expect(outcome.stderr.contains("typo.user.js:4: JavaScript syntax error"))

        let noScripts = try write(#"{"url": "http://127.0.0.1:9/", "collect": "emitted"}"#, "none.json", in: directory)
        let without = try await webparse.run(["validate", noScripts], environment: headless)
        #expect(without.status == 2)
        #expect(without.stderr.contains("collect: \"emitted\" needs userScripts that call webparse.emit"))
    }

    @Test func consoleLinesAndUserScriptErrorsGoToStderrOnly() async throws {
        let server = try chapterSite()
        let directory = try folder()
        try write("// ==UserScript==\n// @name clumsy\n// @run-at document-start\n// ==/UserScript==\nundefinedFunction();\n", "clumsy.user.js", in: directory)
        let config = try write(
            #"{"name": "chapters", "url": "\#(server.url("/"))", "userScripts": "clumsy.user.js", "script": "document.getElementById('app').textContent || null", "retries": 0}"#,
            "config.json", in: directory)
        let quiet = try await webparse.run(["run", config], environment: headless)
        #expect(quiet.status == 0, "\(quiet.stderr)")
        #expect(quiet.stdoutText == "\"3\"\n")
        #expect(
            quiet.stderr.contains(
                "webparse: chapters: warning: user script \"clumsy\" failed: ReferenceError: Can't find variable: undefinedFunction at line 5"))
        #expect(!quiet.stderr.contains("console.log"))

        let logged = try await webparse.run(["run", "--log-console", config], environment: headless)
        #expect(logged.status == 0, "\(logged.stderr)")
        #expect(logged.stdoutText == "\"3\"\n")
        #expect(logged.stderr.contains("webparse: chapters: console.log: loading {\"page\":1} (\(server.url("/").absoluteString):2:12)"))
    }

    @Test func screenshotsFromAConfigAndFromTheSnapshotCommand() async throws {
        let server = try TestHTTPServer(routes: [
            "/": .respond(
                body: """
                    <title>colours</title><body style="margin:0;background:rgb(0,128,0)">
                    <div style="position:absolute;left:0;top:0;width:60px;height:40px;background:rgb(255,255,0)"></div>
                    <div style="height:700px"></div></body>
                    """)
        ])
        let directory = try folder()
        let config = try write(
            #"{"url": "\#(server.url("/"))", "script": "document.title", "viewport": "200x150", "screenshot": "shots/page.png"}"#,
            "config.json", in: directory)
        let missingFolder = try await webparse.run(["validate", config], environment: headless)
        #expect(missingFolder.status == 2)
        #expect(missingFolder.stderr.contains("screenshot: no such folder for the screenshot"))

        try FileManager.default.createDirectory(at: directory.appending(path: "shots"), withIntermediateDirectories: true)
        let run = try await webparse.run(["run", config], environment: headless)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdoutText == "\"colours\"\n")
        let image = try PNGImage(contentsOf: directory.appending(path: "shots/page.png"))
        #expect(image.width == 200 && image.height == 150)
        #expect(image.pixel(x: 5, y: 5) == [255, 255, 0, 255])
        #expect(image.pixel(x: 150, y: 100) == [0, 128, 0, 255])

        let png = directory.appending(path: "full.png").path
        let html = directory.appending(path: "page.html").path
        let snapshot = try await webparse.run(
            [
                "snapshot", server.url("/").absoluteString, "--png", png, "--full-page", "--html", html,
                "--viewport", "200x150"
            ], environment: headless)
        #expect(snapshot.status == 0, "\(snapshot.stderr)")
        #expect(snapshot.stdoutText == #"{"png":"\#(png)","html":"\#(html)","finalURL":"\#(server.url("/").absoluteString)","httpStatus":200}"# + "\n")
        let full = try PNGImage(contentsOf: URL(fileURLWithPath: png))
        #expect(full.width == 200 && full.height == 700)
        #expect(full.pixel(x: 100, y: 690) == [0, 128, 0, 255])
        #expect(try String(contentsOfFile: html, encoding: .utf8).contains("<title>colours</title>"))

        let nothing = try await webparse.run(["snapshot", server.url("/").absoluteString], environment: headless)
        #expect(nothing.status == 2)
        #expect(nothing.stderr.contains("give --png FILE, --html FILE or both"))
    }

    @Test func popupsAndOtherSchemesAreTold() async throws {
        let server = try TestHTTPServer(routes: [
            "/": .respond(
                body: """
                    <title>main</title><button id="open" onclick="window.open('/popup')">open</button>
                    <script>location.href = 'mailto:a@example.com'; setTimeout(() => { document.title = 'after'; }, 200);</script>
                    """),
            "/popup": .respond(body: "<title>popup</title>")
        ])
        let followed = try await webparse.run(
            [
                "eval", "-v", server.url("/").absoluteString, "location.pathname === '/popup' ? document.title : null", "--step",
                "click=#open"
            ], environment: headless)
        #expect(followed.status == 0, "\(followed.stderr)")
        #expect(followed.stdoutText == "\"popup\"\n")
        #expect(followed.stderr.contains("the page opened a window for \(server.url("/popup").absoluteString); loading it in its place"))

        let ignored = try await webparse.run(
            [
                "eval", "-v", "--popups", "ignore", server.url("/").absoluteString,
                "document.title === 'after' ? document.title : null", "--step", "click=#open"
            ], environment: headless)
        #expect(ignored.status == 0, "\(ignored.stderr)")
        #expect(ignored.stdoutText == "\"after\"\n")
        #expect(ignored.stderr.contains("; ignored"))
        #expect(ignored.stderr.contains("not following mailto:a@example.com (not a web page)"))
    }

    /// A page that opens fifty windows every 5 ms on a timer, without a click, gives its own data: each window is
    /// refused as a popup blocker refuses it, said once.
    @Test func aPopupStormIsRefusedAndThePageGivesItsData() async throws {
        let server = try TestHTTPServer(routes: [
            "/": .respond(
                body: """
                    <title>storm</title><div id="app"></div><script>
                    setTimeout(() => { document.getElementById("app").textContent = "data"; }, 1500);
                    setInterval(() => { for (let i = 0; i < 50; i++) window.open("/other"); }, 5);
                    </script>
                    """),
            "/other": .respond(body: "<title>other</title>")
        ])
        let run = try await webparse.run(
            ["eval", "-v", "--timeout", "20", "--retries", "0", server.url("/").absoluteString, "document.getElementById('app').textContent || null"],
            environment: headless)
        #expect(run.status == 0 && run.stdoutText == "\"data\"\n", "\(run.stderr)")
        let refusals = run.stderr.split(separator: "\n").filter { $0.contains("without a click; refused, as a popup blocker refuses it") }
        #expect(refusals.count == 1, "\(run.stderr)")
        #expect(!run.stderr.contains("loading it in its place"))
        #expect(server.requests(for: "/other").isEmpty)
    }
}
