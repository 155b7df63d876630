import Foundation
import Testing
@testable import WebParser

/// The attempt's decisions, event by event, without WebKit, a fake page or a clock.
@Suite struct AttemptMachineTests {
    let url = URL(string: "http://example.test/list")!

    func machine(_ configure: (inout WebParserJob) -> Void = { _ in }) -> AttemptMachine {
        var job = WebParserJob(url: url, evaluation: Evaluation(script: "document.title", pollInterval: .milliseconds(50)), timeout: .seconds(5))
        configure(&job)
        return AttemptMachine(job: job)
    }

    /// The actions in words, for comparing.
    func words(_ actions: [AttemptMachine.Action]) -> [String] {
        actions.map { action in
            switch action {
            case .watch(let timeout): "watch \(timeout)"
            case .load: "load"
            case .evaluate(let body, let document): "evaluate \(body.utf8.count > 200 ? "whole" : "repeat") in \(document)"
            case .evaluateLater(let delay): "evaluate after \(delay)"
            case .cancelLaterEvaluation: "cancel later evaluation"
            case .report(let state): "report \(state)"
            case .tell(let message): "tell \(message)"
            case .explain: "explain"
            case .snapshot: "snapshot"
            case .end(.success(let result)?): "succeed \(String(decoding: result.data, as: UTF8.self)) at \(result.url)"
            case .end(.failure(let error)?): "fail \(error)"
            case .end(nil): "end cancelled"
            }
        }
    }

    func string(_ text: String) -> JavaScriptReply { .string(Data(text.utf8)) }

    @Test func aLoadThenEvaluationsUntilTheDataIsThere() {
        var attempt = machine()
        #expect(words(attempt.handle(.start)) == ["watch 5.0 seconds", "load"])
        #expect(words(attempt.handle(.page(.started(url: url.absoluteString)))) == [])
        #expect(words(attempt.handle(.page(.committed(url: url.absoluteString, httpStatus: 200))))
                == ["report executingJavaScript", "evaluate whole in 0"])
        #expect(words(attempt.handle(.page(.finished(url: url.absoluteString)))) == [])
        #expect(words(attempt.handle(.reply(.null, document: 0))) == ["evaluate repeat in 0"])
        #expect(words(attempt.handle(.reply(string("\"Title\""), document: 0))) == ["succeed \"Title\" at \(url.absoluteString)"])
        #expect(attempt.stage == .ended)
        #expect(words(attempt.handle(.timedOut)) == [], "nothing after the end")
    }

    @Test func aNewDocumentGetsTheWholeScriptAndStaleRepliesAreIgnored() {
        var attempt = machine()
        _ = attempt.handle(.start)
        _ = attempt.handle(.page(.committed(url: "http://example.test/first", httpStatus: 200)))
        #expect(words(attempt.handle(.page(.committed(url: "http://example.test/second", httpStatus: 200))))
                == ["cancel later evaluation", "evaluate whole in 1"])
        #expect(words(attempt.handle(.reply(string("\"old\""), document: 0))) == [])
        #expect(words(attempt.handle(.reply(.json(Data(#"{"notInstalled":true}"#.utf8)), document: 1))) == ["evaluate whole in 1"])
        #expect(words(attempt.handle(.reply(.failed(domain: "WebKitJavascriptError", code: 1, message: "gone"), document: 1)))
                == ["evaluate after 0.05 seconds"])
        #expect(words(attempt.handle(.evaluationDue)) == ["evaluate whole in 1"])
    }

    @Test func failuresEndTheAttemptWithTheirKind() {
        var notFound = machine()
        _ = notFound.handle(.start)
        #expect(words(notFound.handle(.page(.committed(url: url.absoluteString, httpStatus: 404))))
                == ["fail HTTP status 404 (\(url.absoluteString))"])
        var superseded = machine()
        _ = superseded.handle(.start)
        let replaced = PageLoadFailure(url: url.absoluteString, domain: "WebKitNetworkError", code: 302, message: "replaced")
        #expect(words(superseded.handle(.page(.failed(replaced)))) == [], "a newer navigation took over")
        #expect(words(superseded.handle(.page(.finished(url: url.absoluteString)))) == [])
        var crashed = machine()
        _ = crashed.handle(.start)
        #expect(words(crashed.handle(.page(.processTerminated(.crashed)))).first?.contains("before the page arrived") == true)
        var unsupported = machine { $0.url = URL(string: "ftp://example.test/")! }
        #expect(words(unsupported.handle(.start)).first?.hasPrefix("fail unsupported URL") == true)
    }

    @Test func theTimeoutSaysThePhaseAndWhatTheScriptLastAnswered() {
        var attempt = machine()
        _ = attempt.handle(.start)
        _ = attempt.handle(.page(.committed(url: url.absoluteString, httpStatus: 200)))
        _ = attempt.handle(.page(.finished(url: url.absoluteString)))
        _ = attempt.handle(.reply(.json(Data(#"{"pending":"waitFor returned false"}"#.utf8)), document: 0))
        #expect(words(attempt.handle(.timedOut))
                == ["fail timed out after 5 s while waiting for the script's result (\(url.absoluteString)): waitFor returned false"])
    }

    @Test func emittedValuesAreCollectedUntilDoneOrTheTimeout() {
        let script = try! UserScript(source: "// ==UserScript==\n// @name s\n// ==/UserScript==\nwebparse.emit(1)", fileName: "s.user.js")
        var done = machine { $0.evaluation.script = ""; $0.page.userScripts = [script]; $0.evaluation.collect = .emitted }
        _ = done.handle(.start)
        #expect(words(done.handle(.page(.committed(url: url.absoluteString, httpStatus: 200)))) == [], "no script to evaluate")
        #expect(words(done.handle(.page(.message(.emitted(Data("1".utf8)))))) == ["tell emitted(json: 1 bytes)"])
        #expect(words(done.handle(.page(.message(.done)))) == ["succeed [1] at \(url.absoluteString)"])
        var cut = machine { $0.evaluation.script = ""; $0.page.userScripts = [script]; $0.evaluation.collect = .emitted }
        _ = cut.handle(.start)
        _ = cut.handle(.page(.message(.emitted(Data("2".utf8)))))
        #expect(words(cut.handle(.timedOut)) == ["succeed [2] at \(url.absoluteString)"])
    }

    @Test func aScreenshotIsWrittenBeforeTheAttemptSucceeds() {
        var attempt = machine { $0.evaluation.screenshot = .init(file: URL(fileURLWithPath: "/tmp/shot.png")) }
        _ = attempt.handle(.start)
        _ = attempt.handle(.page(.committed(url: url.absoluteString, httpStatus: 200)))
        #expect(words(attempt.handle(.reply(string("1"), document: 0))) == ["cancel later evaluation", "snapshot"])
        #expect(words(attempt.handle(.reply(string("2"), document: 0))) == [], "the result is already there")
        #expect(words(attempt.handle(.snapshotWritten(error: "disk full"))) == ["fail screenshot failed: disk full (\(url.absoluteString))"])
    }

    @Test func cancellationEndsTheAttemptOnce() {
        var attempt = machine()
        _ = attempt.handle(.start)
        #expect(words(attempt.handle(.cancelled)) == ["end cancelled"])
        #expect(words(attempt.handle(.cancelled)) == [])
    }
}
