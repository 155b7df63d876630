import Foundation
import Testing
import TestSupport
@testable import WebParser

/// Pages that attack what webparse runs in them: built-ins replaced so that promises webparse awaits never
/// settle. The job still gets its data, or ends at its timeout saying why.
@Suite(.serialized) struct HostilePageTests {
    func job(_ url: URL, _ script: String, steps: [Step] = [], pagination: Pagination? = nil, timeout: Duration = .seconds(15)) -> WebParserJob {
        var evaluation = Evaluation(script: script, pollInterval: .milliseconds(20))
        evaluation.steps = steps
        evaluation.pagination = pagination
        return WebParserJob(url: url, evaluation: evaluation, timeout: timeout, retry: RetryPolicy(retries: 0))
    }

    /// `Object.prototype.then = function () {}` makes every object thenable, and a promise resolved with one never
    /// settles. webparse's own answers are objects without a prototype and data is not awaited, so results,
    /// steps (click, fill, an `if` whose script returns an object), empty answers and pagination all work.
    @Test func aPageThatMakesEveryObjectThenableStillGivesItsData() async throws {
        let thenable = "<script>Object.prototype.then = function () {};</script>"
        let server = try TestHTTPServer(routes: [
            "/": .respond(
                body: """
                    <p id="out">waiting</p><input id="q"><button id="go">go</button>\(thenable)
                    <script>go.addEventListener("click", () => { out.textContent = "clicked " + q.value; });</script>
                    <a id="next" href="/2">next</a>
                    """),
            "/2": .respond(body: "<p id=\"out\">page 2</p>\(thenable)")
        ])
        let steps: [Step] = [
            .fill(selector: "#q", value: "x"),
            .when(.script("({ login: document.querySelector('#go') !== null })"), then: [.click(selector: "#go")], otherwise: [])
        ]
        let result = try await WebParserRunner().run(
            job(server.url("/"), "out.textContent.startsWith('clicked') ? { text: out.textContent, list: [1, 2] } : null", steps: steps))
        #expect(result.data == Data(#"{"text":"clicked x","list":[1,2]}"#.utf8))

        let paged = try await WebParserRunner().run(job(server.url("/"), "[out.textContent]", pagination: Pagination(next: .selector("#next"), maxPages: 2)))
        #expect(paged.data == Data(#"["waiting","page 2"]"#.utf8))

        let empty = await #expect(throws: WebParserError.self) {
            try await WebParserRunner().run(self.job(server.url("/"), "document.querySelector('#none')", timeout: .seconds(2)))
        }
        #expect(empty?.kind == .timedOut(phase: .waitingForResult, after: .seconds(2)))
        #expect(empty?.lastAnswer?.hasPrefix("the script returned null") == true, "its empty answers came back: \(String(describing: empty?.lastAnswer))")
    }

    /// A page whose promises never settle (it replaced `Promise.prototype.then`) gives no answer to any call: the
    /// job ends at its timeout, once, saying that it waited for the script's result.
    @Test func aPageWhosePromisesNeverSettleEndsAtItsTimeout() async throws {
        let server = try TestHTTPServer(routes: [
            "/": .respond(body: "<p id=out>x</p><script>Promise.prototype.then = function () {};</script>")
        ])
        let log = StateLog()
        let error = await #expect(throws: WebParserError.self) {
            try await WebParserRunner().run(self.job(server.url("/"), "out.textContent", timeout: .seconds(2)), onStateChange: log.record)
        }
        #expect(error?.kind == .timedOut(phase: .waitingForResult, after: .seconds(2)))
        #expect(error?.attempts == 1)
        #expect(!log.states.contains { if case .retrying = $0 { true } else { false } })
    }
}
