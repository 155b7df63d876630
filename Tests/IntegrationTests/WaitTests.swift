import Foundation
import TestSupport
import Testing
@testable import WebParser

/// When a result counts, how long a job waits for it, and what the user is told when it never comes.
@Suite(.serialized) struct WaitTests {
    /// A search page written the usual way: the hits arrive over XHR 200 ms after load and are rendered into
    /// a list that may stay empty; `window.searched` says the search is over.
    static let search = """
        <!doctype html><title>search</title><ul id=hits></ul><script>
        setTimeout(() => {
          const request = new XMLHttpRequest();
          request.open("GET", "/hits.json" + location.search);
          request.onload = () => {
            for (const hit of JSON.parse(request.responseText)) {
              const item = document.createElement("li");
              item.className = "quote";
              item.textContent = hit;
              document.getElementById("hits").append(item);
            }
            window.searched = true;
            document.body.dataset.state = "done";
          };
          request.send();
        }, 200);
        </script>
        """
    static let hitsScript = "Array.from(document.querySelectorAll('.quote'), e => e.textContent)"

    func server() throws -> TestHTTPServer {
        try TestHTTPServer(routes: [
            "*": .respond(body: Self.search),
            "/hits.json?q=none": .respond(contentType: "application/json", body: "[]"),
            "/hits.json?q=two": .respond(contentType: "application/json", body: #"["to be","or not"]"#)
        ])
    }

    func job(
        _ url: URL, waitFor: String? = nil, waitForSelector: String? = nil, timeout: Duration = .seconds(10),
        retries: Int = 2, retriesMissingData: Bool = false
    ) -> WebParserJob {
        WebParserJob(
            url: url,
            evaluation: Evaluation(
                script: Self.hitsScript, waitFor: waitFor, waitForSelector: waitForSelector,
                pollInterval: .milliseconds(20)),
            timeout: timeout,
            retry: RetryPolicy(retries: retries, delay: .milliseconds(50), retriesMissingData: retriesMissingData))
    }

    @Test func anEmptyListIsTheResultOnceWaitForHolds() async throws {
        let server = try server()
        // Had the empty list not been final, the job would have failed at its timeout.
        let none = try await WebParserRunner().run(job(server.url("/?q=none"), waitFor: "window.searched"))
        #expect(none.data == Data("[]".utf8))
        let two = try await WebParserRunner().run(job(server.url("/?q=two"), waitFor: "window.searched"))
        #expect(two.data == Data(#"["to be","or not"]"#.utf8))
        var nothing = job(server.url("/?q=none"), waitFor: "document.body.dataset.state === 'done'")
        nothing.evaluation.script = "document.querySelector('.quote')?.textContent"
        #expect(try await WebParserRunner().run(nothing).data == Data("null".utf8), "undefined after waitFor is null")
    }

    @Test func waitForSelectorWaitsForAnElement() async throws {
        let server = try server()
        let two = try await WebParserRunner().run(job(server.url("/?q=two"), waitForSelector: "body[data-state=done] #hits"))
        #expect(two.data == Data(#"["to be","or not"]"#.utf8))
        let none = try await WebParserRunner().run(job(server.url("/?q=none"), waitForSelector: "[data-state='done']"))
        #expect(none.data == Data("[]".utf8), "the result is final once the selector matches, empty included")
        let both = try await WebParserRunner().run(job(server.url("/?q=two"), waitFor: "window.searched", waitForSelector: "li.quote"))
        #expect(both.data == Data(#"["to be","or not"]"#.utf8))
    }

    @Test func anInvalidSelectorFailsAtOnce() async throws {
        let server = try server()
        let error = await #expect(throws: WebParserError.self) {
            try await WebParserRunner().run(job(server.url("/?q=two"), waitForSelector: "li[", retries: 3))
        }
        #expect(error?.attempts == 1)
        #expect(
            error?.description.hasPrefix(#"script failed: "li[" is not a valid CSS selector in waitForSelector"#) == true,
            "\(String(describing: error))")
    }

    /// A page that loads and never gives data times out once, saying what the script last returned: 3 s, so that a
    /// loaded machine has the page answer at least once before the time-out.
    @Test func aLoadedPageWithoutDataTimesOutOnceAndSaysWhatTheScriptReturned() async throws {
        let server = try server()
        let error = await #expect(throws: WebParserError.self) {
            try await WebParserRunner().run(job(server.url("/?q=none"), timeout: .seconds(3), retries: 2))
        }
        #expect(error?.attempts == 1, "not retried")
        #expect(error?.kind == .timedOut(phase: .waitingForResult, after: .seconds(3)))
        #expect(error?.isTransient == false)
        #expect(
            error?.description == "timed out after 3 s while waiting for the script's result (\(server.url("/?q=none"))): "
                + "the script returned [] (empty; an empty answer is the result only once waitFor or waitForSelector holds)")

        let waiting = await #expect(throws: WebParserError.self) {
            try await WebParserRunner().run(job(server.url("/?q=none"), waitFor: "window.searched && false", timeout: .seconds(3)))
        }
        #expect(waiting?.lastAnswer == "waitFor returned false")
        let noElement = await #expect(throws: WebParserError.self) {
            try await WebParserRunner().run(job(server.url("/?q=none"), waitForSelector: ".quote", timeout: .seconds(3)))
        }
        #expect(noElement?.lastAnswer == #"no element matched waitForSelector ".quote""#)
    }

    @Test func missingDataIsRetriedWhenTheJobAsks() async throws {
        let server = try server()
        let error = await #expect(throws: WebParserError.self) {
            try await WebParserRunner().run(job(server.url("/?q=none"), timeout: .milliseconds(700), retries: 1, retriesMissingData: true))
        }
        #expect(error?.attempts == 2)
        #expect(server.requests(for: "/?q=none").count == 2)
    }

    @Test func aServerThatNeverAnswersIsStillRetried() async throws {
        let server = try TestHTTPServer(routes: ["/": .hang])
        let error = await #expect(throws: WebParserError.self) {
            try await WebParserRunner().run(job(server.url("/"), timeout: .milliseconds(500), retries: 1))
        }
        #expect(error?.kind == .timedOut(phase: .waitingForServer, after: .milliseconds(500)))
        #expect(error?.attempts == 2)
    }

    @Test(arguments: [
        (waitFor: ".quote", message: #"".quote" looks like a CSS selector: write "waitForSelector": ".quote", or document.querySelector(".quote")"#),
        (waitFor: "#hits li", message: ##""#hits li" looks like a CSS selector: write "waitForSelector": "#hits li", or document.querySelector("#hits li")"##)
    ])
    func aSelectorWrittenAsWaitForGetsAHint(waitFor: String, message: String) async throws {
        let server = try server()
        let error = await #expect(throws: WebParserError.self) {
            try await WebParserRunner().run(job(server.url("/?q=two"), waitFor: waitFor))
        }
        guard case .scriptFailed(let failure)? = error?.kind else {
            Issue.record("expected a script failure, got \(String(describing: error))")
            return
        }
        #expect(failure.part == .waitFor)
        #expect(failure.hint == message)
        #expect(failure.message.hasPrefix("SyntaxError"))
    }

    @Test func aSelectorWrittenAsTheScriptGetsAHint() async throws {
        let server = try server()
        var selector = job(server.url("/?q=two"))
        selector.evaluation.script = "#hits .quote"
        let error = await #expect(throws: WebParserError.self) { try await WebParserRunner().run(selector) }
        #expect(
            error?.description.contains(##"looks like a CSS selector: the script is JavaScript, such as Array.from(document.querySelectorAll("#hits .quote")"##)
                == true,
            "\(String(describing: error))")
    }

    /// The document commits and the script runs while a slow script still holds the page's load event, so
    /// WebKit's progress events go on after `executingJavaScript`: none of them reaches the job's states.
    @Test func statesNeverGoBack() async throws {
        let server = try TestHTTPServer(routes: [
            "/": .respond(body: "<title>t</title><p class=quote>a</p><script src=/slow.js async></script>"),
            "/slow.js": .delayed(.milliseconds(600), .respond(contentType: "text/javascript", body: "window.slow = 1"))
        ])
        let log = StateLog()
        var wait = job(server.url("/"))
        wait.evaluation.script = "window.slow ? document.title : null"
        _ = try await WebParserRunner().run(wait, onStateChange: log.record)
        let progress = log.states.compactMap { if case .loading(let progress) = $0 { progress } else { nil } }
        #expect(progress == progress.sorted() && Set(progress).count == progress.count, "\(log.states)")
        let executing = try #require(log.states.firstIndex(of: .executingJavaScript))
        #expect(!log.states[executing...].contains { if case .loading = $0 { true } else { false } }, "\(log.states)")
        #expect(log.states.filter { $0 == .executingJavaScript }.count == 1)
        #expect(log.states.last == .completed)
    }

    @Test func aSyntaxErrorIsToldInTheScriptsOwnTerms() async throws {
        let server = try server()
        var unclosed = job(server.url("/?q=two"))
        unclosed.evaluation.script = "Array.from(document.querySelectorAll('li'), e => e.textContent"
        let error = await #expect(throws: WebParserError.self) { try await WebParserRunner().run(unclosed) }
        guard case .scriptFailed(let failure)? = error?.kind else {
            Issue.record("expected a script failure, got \(String(describing: error))")
            return
        }
        #expect(!failure.message.contains("';'"), "a token of webparse's wrapper: \(failure.message)")
        #expect(failure.line == 1)

        var statements = job(server.url("/?q=two"))
        statements.evaluation.script = "const hits = document.querySelectorAll('li'); hits.length"
        let statementsError = await #expect(throws: WebParserError.self) { try await WebParserRunner().run(statements) }
        #expect(statementsError?.description.contains("statements where an expression is expected") == true)
    }
}
