import Foundation
import TestSupport
import Testing
@testable import WebParser

/// The fault matrix: real network events and hostile pages, and what each becomes.
@Suite(.serialized) struct FaultTests {
    func job(
        _ url: URL, _ script: String = "document.title", timeout: Duration = .seconds(15), retries: Int = 0,
        retryDelay: Duration = .milliseconds(50), maxDelay: Duration = .seconds(30)
    ) -> WebParserJob {
        WebParserJob(
            url: url, evaluation: Evaluation(script: script, pollInterval: .milliseconds(20)), timeout: timeout,
            retry: RetryPolicy(retries: retries, delay: retryDelay, maxDelay: maxDelay))
    }

    func failure(_ job: WebParserJob, log: StateLog = StateLog(), parser: WebParserRunner = WebParserRunner()) async -> WebParserError? {
        do {
            _ = try await parser.run(job, onStateChange: log.record)
            Issue.record("the job succeeded")
            return nil
        } catch let error as WebParserError {
            return error
        } catch {
            Issue.record("unexpected \(error)")
            return nil
        }
    }

    func retries(_ log: StateLog) -> [WebParserError] {
        log.states.compactMap { if case .retrying(_, let error) = $0 { error } else { nil } }
    }

    @Test func anUnknownHostIsFatal() async throws {
        let error = await failure(job(URL(string: "http://no-such-host.invalid/")!, retries: 3))
        #expect(error?.kind == .hostNotFound)
        #expect(error?.attempts == 1)
        #expect(error?.description == "host not found (http://no-such-host.invalid/)")
    }

    @Test func aBodyThatStallsTimesOutWhileLoadingAndIsRetried() async throws {
        let server = try TestHTTPServer(routes: ["/": .stallMidBody(body: "<title>half</title>" + String(repeating: "<p>filler</p>", count: 2000))])
        let log = StateLog()
        let error = await failure(job(server.url("/"), "null", timeout: .seconds(1), retries: 1), log: log)
        #expect(error?.kind == .timedOut(phase: .loading, after: .seconds(1)))
        #expect(error?.attempts == 2)
        #expect(server.requests(for: "/").count == 2)
    }

    @Test func aConnectionResetMidBodyIsRetried() async throws {
        let page = "<title>whole</title>" + String(repeating: "<p>filler</p>", count: 2000)
        let server = try TestHTTPServer(routes: ["/": .sequence([.resetMidBody(body: page), .respond(body: page)])])
        let log = StateLog()
        let result = try await WebParserRunner().run(
            job(server.url("/"), "document.readyState === 'complete' ? document.title : null", retries: 2),
            onStateChange: log.record)
        #expect(result.data == Data(#""whole""#.utf8))
        #expect(result.attempts == 2)
        #expect(retries(log).allSatisfy { $0.isTransient })
    }

    @Test func retryAfterIsHonouredUpToTheCap() async throws {
        let busy = TestHTTPServer.Route.respond(status: 503, headers: ["Retry-After": "1"], body: "busy")
        let server = try TestHTTPServer(routes: ["/": .sequence([busy, .respond(body: "<title>back</title>")])])
        let start = ContinuousClock.now
        let result = try await WebParserRunner().run(job(server.url("/"), retries: 2))
        #expect(result.data == Data(#""back""#.utf8))
        #expect(ContinuousClock.now - start >= .seconds(1), "waited as the server asked")

        let greedy = TestHTTPServer.Route.respond(status: 429, headers: ["Retry-After": "3600"], body: "slow down")
        let capped = try TestHTTPServer(routes: ["/": .sequence([greedy, .respond(body: "<title>back</title>")])])
        _ = try await WebParserRunner().run(job(capped.url("/"), retries: 2, maxDelay: .milliseconds(300)))
        #expect(capped.requests(for: "/").count == 2, "an hour was capped, or the test would still wait")
        #expect(RetryAfter.parse("120") == .seconds(120))
        #expect(RetryAfter.parse("Wed, 21 Oct 2015 07:28:00 GMT") == .zero)
        #expect(RetryAfter.parse("soon") == nil)
        let thirtySecondsBefore = Date(timeIntervalSince1970: 784_111_777 - 30)
        for date in ["Sun, 06 Nov 1994 08:49:37 GMT", "Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994"] {
            #expect(RetryAfter.parse(date, now: thirtySecondsBefore) == .seconds(30), "\(date)")
        }
    }

    @Test(arguments: [500, 502, 503, 429])
    func serverErrorsAreRetried(status: Int) async throws {
        let server = try TestHTTPServer(routes: ["/": .sequence([.respond(status: status, body: "no"), .respond(body: "<title>ok</title>")])])
        let result = try await WebParserRunner().run(job(server.url("/"), retries: 1))
        #expect(result.attempts == 2)
    }

    @Test(arguments: [404, 410, 401, 403])
    func clientErrorsAreFatal(status: Int) async throws {
        let server = try TestHTTPServer(routes: ["/": .respond(status: status, body: "no")])
        let error = await failure(job(server.url("/"), retries: 3))
        #expect(error?.kind == .httpStatus(status))
        #expect(error?.description.hasPrefix("HTTP status \(status)") == true)
        #expect(server.requests(for: "/").count == 1)
    }

    @Test func aRedirectLoopIsFatal() async throws {
        let server = try TestHTTPServer(routes: ["/loop": .respond(status: 302, headers: ["Location": "/loop"], body: "")])
        let error = await failure(job(server.url("/loop"), retries: 2))
        #expect(error?.kind == .tooManyRedirects)
        #expect(error?.attempts == 1)
    }

    @Test func aRedirectToAnotherHostIsFollowed() async throws {
        let target = try TestHTTPServer(routes: ["/page": .respond(body: "<title>moved</title>")])
        let other = URL(string: "http://localhost:\(target.port)/page")!
        let server = try TestHTTPServer(routes: ["/go": .respond(status: 302, headers: ["Location": other.absoluteString], body: "")])
        let result = try await WebParserRunner().run(job(server.url("/go")))
        #expect(result.data == Data(#""moved""#.utf8))
        #expect(result.finalURL == other.absoluteString)
    }

    @Test func aDownloadIsNotAPage() async throws {
        let server = try TestHTTPServer(routes: ["/file": .respond(contentType: "application/octet-stream", body: "binary")])
        let error = await failure(job(server.url("/file"), retries: 2))
        #expect(error?.kind == .loadFailed("the server sent a download (application/octet-stream), not a page"))
        #expect(error?.attempts == 1)
    }

    @Test func aSelfSignedCertificateIsFatal() async throws {
        let server = try TLSTestServer(body: "<title>secret</title>")
        let error = await failure(job(server.url(), retries: 2))
        guard case .tlsFailed? = error?.kind else {
            Issue.record("expected a TLS failure, got \(String(describing: error))")
            return
        }
        #expect(error?.attempts == 1)
    }

    @Test func aPageStuckInJavaScriptIsStoppedAndTheNextJobRuns() async throws {
        let server = try TestHTTPServer(routes: [
            "/loop": .respond(body: "<title>stuck</title><script>setTimeout(() => { while (true) {} }, 50)</script>"),
            "/fine": .respond(body: "<title>fine</title>")
        ])
        let parser = WebParserRunner()
        let error = await failure(job(server.url("/loop"), "null", timeout: .seconds(2)), parser: parser)
        guard case .timedOut? = error?.kind else {
            Issue.record("expected a time-out, got \(String(describing: error))")
            return
        }
        #expect(try await parser.run(job(server.url("/fine"))).data == Data(#""fine""#.utf8))
    }

    @Test func aWebProcessKilledFromOutsideIsRetriedOnAFreshPage() async throws {
        let server = try TestHTTPServer(routes: [
            "/": .sequence([
                .respond(body: "<title>first</title>"),
                .respond(body: "<title>second</title><p id=data>ready</p>")
            ])
        ])
        let me = getpid()
        let before = Set(ProcessTree.descendants(of: me).filter { $0.name.hasPrefix("WebKitWebProces") }.map(\.pid))
        let log = StateLog()
        let parser = WebParserRunner()
        let running = Task {
            try await parser.run(
                job(server.url("/"), "document.getElementById('data')?.textContent", retries: 2),
                onStateChange: log.record)
        }
        while server.requests(for: "/").isEmpty { try await Task.sleep(for: .milliseconds(10)) }
        try await Task.sleep(for: .milliseconds(200))
        let fresh = ProcessTree.descendants(of: me).filter { $0.name.hasPrefix("WebKitWebProces") && !before.contains($0.pid) }
        let victim = try #require(fresh.map(\.pid).max())
        kill(victim, SIGKILL)
        let result = try await running.value
        #expect(result.data == Data(#""ready""#.utf8))
        #expect(result.attempts == 2)
        #expect(retries(log).map(\.kind) == [.webProcessCrashed])
    }

    @Test func wrongResultsFailWithTheirReason() async throws {
        let server = try TestHTTPServer(routes: ["/": .respond(body: "<p>hi</p>")])
        let parser = WebParserRunner()
        for (script, expected) in [
            ("(() => { const o = {}; o.self = o; return o })()", "cyclic"),
            ("document.body", "a DOM element (<body>)")
        ] {
            let error = await failure(job(server.url("/"), script), parser: parser)
            guard case .unsupportedResult(let what)? = error?.kind else {
                Issue.record("\(script): got \(String(describing: error))")
                continue
            }
            #expect(what.contains(expected), "\(what)")
        }
    }

    /// A 10 MB script times out as a small one does, waiting for its result (how long it takes is the benchmark's
    /// to measure; that it is sent once per document, `EngineTests`').
    @Test func theTimeoutHoldsWhateverTheScriptsSize() async throws {
        let server = try TestHTTPServer(routes: ["/": .respond(body: "<p>page</p>")])
        let parser = WebParserRunner()
        for script in ["('x', null)", "('" + String(repeating: "x", count: 10 * 1024 * 1024) + "', null)"] {
            let error = await failure(job(server.url("/"), script, timeout: .seconds(3)), parser: parser)
            #expect(error?.kind == .timedOut(phase: .waitingForResult, after: .seconds(3)))
            #expect(error?.lastAnswer?.hasPrefix("the script returned null") == true, "its answers came back")
        }
    }

    @Test func aFiftyMegabyteResultArrivesWhole() async throws {
        let server = try TestHTTPServer(routes: ["/": .respond(body: "<p>big</p>")])
        let result = try await WebParserRunner().run(job(server.url("/"), "'x'.repeat(50 * 1024 * 1024)", timeout: .seconds(60)))
        #expect(result.data.count == 50 * 1024 * 1024 + 2)
        #expect(result.data.first == UInt8(ascii: "\"") && result.data.last == UInt8(ascii: "\""))
    }

    @Test func loneSurrogatesAndDeepResultsArePassedThrough() async throws {
        let server = try TestHTTPServer(routes: ["/": .respond(body: "<p>odd</p>")])
        let parser = WebParserRunner()
        let cut = try await parser.run(job(server.url("/"), "['😀 title'.slice(0, 1), '😀'.slice(1), 'fine']"))
        #expect(cut.data == Data(#"["\ud83d","\ude00","fine"]"#.utf8))
        let deep = try await parser.run(job(server.url("/"), "(() => { let v = {a: 1}; for (let i = 1; i < 20000; i++) v = [v]; return v; })()"))
        #expect(deep.data == Data((String(repeating: "[", count: 19_999) + #"{"a":1}"# + String(repeating: "]", count: 19_999)).utf8))
        #expect(deep.arrayLength == 1)
        let replaced = await failure(job(server.url("/"), "(JSON.stringify = () => '{broken', ['x'])"), parser: parser)
        #expect(replaced?.kind == .unsupportedResult("text that is not JSON (has the page replaced JSON.stringify?)"))
    }

    @Test func onlyAJobOnALocalFileNavigatesToLocalFiles() {
        #expect(!NavigationPolicy.allows(navigationTo: "file:///etc/passwd", localFiles: false))
        #expect(!NavigationPolicy.allows(navigationTo: "FILE:///etc/passwd", localFiles: false))
        #expect(NavigationPolicy.allows(navigationTo: "file:///srv/site/page2.html", localFiles: true))
        #expect(NavigationPolicy.allows(navigationTo: "https://example.com/", localFiles: false))
        #expect(!NavigationPolicy.allows(navigationTo: "mailto:someone@example.com", localFiles: true))
    }

    @Test func aRedirectAwayFromTheWebSaysWhere() async throws {
        let secret = FileManager.default.temporaryDirectory.appending(path: "webparse-secret-\(UUID().uuidString).html")
        try "<title>top secret</title>".write(to: secret, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: secret) }
        func redirect(_ target: String) -> TestHTTPServer.Route { .respond(status: 302, headers: ["Location": target], body: "") }
        let server = try TestHTTPServer(routes: [
            "/file": redirect(secret.absoluteString), "/data": redirect("data:text/html,<title>data</title>"),
            "/javascript": redirect("javascript:document.title='js'"), "/about": redirect("about:blank")
        ])
        let parser = WebParserRunner()
        let local = await failure(job(server.url("/file"), retries: 1), parser: parser)
        #expect(local?.kind == .webProcessEndedBeforePage, "\(String(describing: local))")
        #expect(local?.description.contains("redirected to a file: URL") == true)
        for (path, expected) in [
            ("/data", "the server redirected to data:text/html,<title>data</title>, which is not a web page"),
            ("/javascript", "the server redirected to javascript:document.title='js', which is not a web page"),
            ("/about", "the server redirected to about:blank, which is not a web page")
        ] {
            let error = await failure(job(server.url(path), retries: 2), parser: parser)
            guard case .loadFailed(let message)? = error?.kind else {
                Issue.record("\(path): got \(String(describing: error))")
                continue
            }
            #expect(message.contains(expected), "\(path): \(message)")
            #expect(error?.attempts == 1, "\(path) is not retried")
            #expect(server.requests(for: path).count == 1)
        }
    }

    @Test func popupsDialogsAndOtherSchemesDoNotStopTheJob() async throws {
        let page = """
            <title>before</title><script>
            window.open("https://example.com/popup");
            alert("hello"); confirm("sure?"); prompt("name?"); print();
            location.href = "mailto:someone@example.com";
            setTimeout(() => { document.title = "after"; }, 100);
            </script>
            """
        let server = try TestHTTPServer(routes: ["/": .respond(body: page)])
        var ignoringPopups = job(server.url("/"), "document.title === 'after' ? document.title : null", timeout: .seconds(10))
        ignoringPopups.page.popups = .ignore
        let result = try await WebParserRunner().run(ignoringPopups)
        #expect(result.data == Data(#""after""#.utf8))
        #expect(result.finalURL == server.url("/").absoluteString)
    }

    @Test func aPageThatNavigatesWhileTheScriptWaitsGivesTheNewDocumentsData() async throws {
        let server = try TestHTTPServer(routes: [
            "/first": .respond(body: "<title>first</title><script>setTimeout(() => location.href = '/second', 200)</script>"),
            "/second": .respond(body: "<title>second</title><p class=data>fresh</p>")
        ])
        let result = try await WebParserRunner().run(job(server.url("/first"), "document.querySelector('.data')?.textContent"))
        #expect(result.data == Data(#""fresh""#.utf8))
        #expect(result.finalURL == server.url("/second").absoluteString)
    }
}

/// What a page cannot do to webparse or to the machine it runs on.
@Suite struct SecurityTests {
    func job(_ url: URL, _ script: String) -> WebParserJob {
        WebParserJob(url: url, script: script, timeout: .seconds(15), retry: RetryPolicy(retries: 0))
    }

    @Test func aWebPageCannotReadLocalFiles() async throws {
        let secret = FileManager.default.temporaryDirectory.appending(path: "webparse-secret-\(UUID().uuidString).txt")
        try "top secret".write(to: secret, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: secret) }
        let server = try TestHTTPServer(routes: ["/": .respond(body: "<p>remote</p>")])
        let script = """
            async () => {
              const fetched = await fetch("\(secret.absoluteString)").then(r => r.text()).catch(e => "blocked");
              const requested = await new Promise(resolve => {
                const xhr = new XMLHttpRequest();
                xhr.onload = () => resolve(xhr.responseText);
                xhr.onerror = () => resolve("blocked");
                try { xhr.open("GET", "\(secret.absoluteString)"); xhr.send(); } catch (e) { resolve("blocked"); }
              });
              return [fetched, requested];
            }
            """
        let result = try await WebParserRunner().run(job(server.url("/"), script))
        #expect(result.data == Data(#"["blocked","blocked"]"#.utf8))
    }

    @Test func aWebPageReachesNoLocalFileByNavigationFormOrFrame() async throws {
        let secret = FileManager.default.temporaryDirectory.appending(path: "webparse-secret-\(UUID().uuidString).html")
        try "<title>top secret</title><p id=s>top secret</p>".write(to: secret, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: secret) }
        let page = """
            <title>remote</title>
            <iframe id=frame src="\(secret.absoluteString)"></iframe>
            <form id=form action="\(secret.absoluteString)" target=named></form><iframe name=named id=named></iframe>
            <a id=link href="\(secret.absoluteString)" target=_top>local</a>
            <script>
            window.addEventListener("load", () => {
              document.getElementById("form").submit();
              document.getElementById("link").click();
              setTimeout(() => { location.href = "\(secret.absoluteString)"; }, 50);
              setTimeout(() => { window.settled = true; }, 1000);
            });
            </script>
            """
        let server = try TestHTTPServer(routes: ["/": .respond(body: page)])
        let script = """
            window.settled ? [document.title, location.protocol, ...["frame", "named"].map(id => {
              try { return document.getElementById(id).contentDocument?.body?.textContent ?? "no access"; } catch { return "no access"; }
            })] : null
            """
        let result = try await WebParserRunner().run(job(server.url("/"), script))
        let text = String(decoding: result.data, as: UTF8.self)
        #expect(!text.contains("top secret"), "\(text)")
        #expect(text.hasPrefix(#"["remote","http:""#), "\(text)")
    }

    @Test func aHostilePageFindsNoWayToTheNativeSide() async throws {
        let hostile = """
            <title>real</title><script>
            window.attempts = [];
            try { window.webkit.messageHandlers.webparse.postMessage({result: "injected"}); window.attempts.push("posted"); }
            catch (e) { window.attempts.push("no handler"); }
            </script>
            """
        let server = try TestHTTPServer(routes: ["/": .respond(body: hostile)])
        let result = try await WebParserRunner().run(
            job(server.url("/"), "[document.title, window.attempts.join(), typeof window.webkit?.messageHandlers?.webparse]"))
        #expect(result.data == Data(#"["real","no handler","undefined"]"#.utf8))
    }

    @Test func passwordsInURLsStayOutOfMessages() async throws {
        let server = try TestHTTPServer(routes: [:])
        let url = URL(string: "http://reader:s3cret-pass@127.0.0.1:\(server.port)/members")!
        do {
            _ = try await WebParserRunner().run(job(url, "document.title"))
            Issue.record("a 404 page succeeded")
        } catch let error as WebParserError {
            #expect(!error.description.contains("s3cret"))
            #expect(error.description.contains("reader:***@"))
        }
        #expect(URLRedaction.redact("https://example.com/a?b=c") == "https://example.com/a?b=c")
    }
}
