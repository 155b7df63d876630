import Foundation
import Testing
import TestSupport
@testable import WebParser

/// Pages that never hold still, written as sites write them: a clock, a list that grows forever, a carousel;
/// steps whose element moves, is re-rendered, or comes and goes while the step waits; an `if` whose selector
/// the page's engine refuses. A job ends with the settled answer, or at its timeout saying why; it never hangs.
@Suite(.serialized) struct UnsteadyPageTests {
    func job(_ url: URL, _ script: String, steps: [Step] = [], settle: Duration? = nil, timeout: Duration = .seconds(15)) -> WebParserJob {
        var evaluation = Evaluation(script: script, pollInterval: .milliseconds(20))
        evaluation.steps = steps
        if let settle { evaluation.settle = settle }
        return WebParserJob(url: url, evaluation: evaluation, timeout: timeout, retry: RetryPolicy(retries: 0))
    }

    static let server = try? TestHTTPServer(routes: [
        "/clock": .respond(body: "<p id=clock></p><script>setInterval(() => clock.textContent = Date.now(), 50)</script>"),
        "/grows": .respond(
            body: """
                <ul id=list></ul><script>let n = 0;
                setInterval(() => { const li = document.createElement('li'); li.textContent = 'item ' + (++n); list.append(li) }, 100)</script>
                """),
        "/carousel": .respond(
            body: """
                <ul id=list><li>a</li><li>b</li><li>c</li></ul><div id=slide></div>
                <script>let i = 0; setInterval(() => { slide.className = 'slide' + (++i % 3); slide.textContent = i }, 100)</script>
                """),
        "/moving": .respond(
            body: """
                <style>#b { position: absolute; top: 50px }</style><p id=out>no</p><button id=b>go</button>
                <script>let x = 0; setInterval(() => { x = (x + 37) % 300; b.style.left = x + 'px' }, 30);
                b.addEventListener('click', () => out.textContent = 'clicked')</script>
                """),
        "/rerendered": .respond(
            body: """
                <p id=out>no</p><div id=root></div>
                <script>let n = 0;
                function render() { root.innerHTML = '<button class=go>go ' + (++n) + '</button>'; root.firstChild.onclick = () => out.textContent = 'clicked' }
                render(); setInterval(render, 40)</script>
                """),
        "/hover-rerendered": .respond(
            body: """
                <p id=out>0</p><div id=root></div>
                <script>let hovered = false, clicks = 0;
                function render() {
                  root.innerHTML = '<button class="go' + (hovered ? ' hover' : '') + '">go</button>';
                  root.firstChild.onclick = () => out.textContent = String(++clicks);
                  root.firstChild.onmouseover = () => { if (!hovered) { hovered = true; render(); } };
                }
                render()</script>
                """),
        "/blinking": .respond(
            body: """
                <p id=out>no</p><div id=root></div>
                <script>let on = false;
                setInterval(() => { on = !on; root.innerHTML = on ? '<button id=b>go</button>' : ''; if (on) b.onclick = () => out.textContent = 'clicked' }, 300)</script>
                """)
    ])

    func url(_ path: String) throws -> URL { try #require(Self.server).url(path) }

    /// A clock and a list that grows forever never settle: the job ends at its timeout, once, with the last
    /// answer and why in its error; with `settle` 0 the first answer is the result. A carousel beside a list
    /// that stays the same settles on the list.
    @Test func aPageThatNeverSettlesEndsAtItsTimeoutSayingSo() async throws {
        for (path, script) in [("/clock", "clock.textContent"), ("/grows", "[...list.children].map(e => e.textContent)")] {
            let log = StateLog()
            let error = await #expect(throws: WebParserError.self) {
                try await WebParserRunner().run(self.job(try self.url(path), script, timeout: .seconds(3)), onStateChange: log.record)
            }
            #expect(error?.kind == .timedOut(phase: .waitingForResult, after: .seconds(3)), "\(path)")
            #expect(error?.lastAnswer?.contains("which had not stayed the same for 200 ms") == true, "\(path): \(String(describing: error?.lastAnswer))")
            #expect(error?.lastAnswer?.contains(#""settle": 0 takes the first answer"#) == true)
            #expect(error?.attempts == 1)
        }
        let first = try await WebParserRunner().run(job(try url("/clock"), "clock.textContent || null", settle: .zero))
        #expect(Int(String(decoding: first.data.dropFirst().dropLast(), as: UTF8.self)) != nil, "a time: \(String(decoding: first.data, as: UTF8.self))")
        let list = try await WebParserRunner().run(job(try url("/carousel"), "[...list.children].map(e => e.textContent)"))
        #expect(list.data == Data(#"["a","b","c"]"#.utf8))
    }

    /// A click waits for its element and lands on it though the element moves every 30 ms, is replaced by a
    /// re-render every 40 ms, or comes and goes every 300 ms.
    @Test(arguments: [("/moving", "#b"), ("/rerendered", "button.go"), ("/blinking", "#b")])
    func aClickLandsOnAnElementThatWillNotHoldStill(path: String, selector: String) async throws {
        let result = try await WebParserRunner().run(
            job(
                try url(path), "out.textContent === 'clicked' ? out.textContent : null",
                steps: [.click(selector: selector)]))
        #expect(result.data == Data(#""clicked""#.utf8))
    }

    /// A button that a hover re-renders (a new element in its place as the pointer first enters, as apps that
    /// render from templates do) gets the click on its new self: that click landed, and is not made again (the page counts one).
    @Test func aClickOnAnElementReRenderedUnderThePointerIsMadeOnce() async throws {
        let result = try await WebParserRunner().run(
            job(try url("/hover-rerendered"), "out.textContent !== '0' ? out.textContent : null", steps: [.click(selector: "button.go")]))
        #expect(result.data == Data(#""1""#.utf8))
    }

    /// A selector valid as CSS that the page's engine refuses (an unknown pseudo-class) fails the `if` step at
    /// once, naming it; it does not wait for the timeout, nor take the else branch.
    @Test func anIfWhoseSelectorThePageRefusesFailsAtOnce() async throws {
        let log = StateLog()
        let error = await #expect(throws: WebParserError.self) {
            try await WebParserRunner().run(
                self.job(try self.url("/carousel"), "1", steps: [.when(.selector("li:unknown-pseudo"), then: [], otherwise: [.click(selector: "#slide")])]),
                onStateChange: log.record)
        }
        guard case .stepFailed(let place, _, let reason)? = error?.kind else {
            Issue.record("expected the step to fail: \(String(describing: error))")
            return
        }
        #expect(place == "1")
        #expect(reason == "not a valid CSS selector: li:unknown-pseudo")
    }
}
