import Foundation
import Testing
@testable import WebParser

/// The wrapper around a job's script, and how the page's replies are read.
@Suite struct PageScriptTests {
    @Test func theScriptSitsOnItsOwnLinesWithoutTrailingSemicolons() {
        let body = PageScript("document.title ;; \n").installBody
        #expect(body.hasPrefix("const script = () => (\ndocument.title\n);\nconst waitFor = () => (\ntrue\n);\n"))
    }

    /// A script is a function of the captured responses when it is a function with a parameter, however written;
    /// an expression that starts with parentheses is not.
    @Test func aFunctionOfTheResponsesIsToldApart() {
        for script in ["(responses) => responses", "r => r.length", "async (list) => list", " function (all) { return all }", "(r, i) => r"] {
            #expect(JavaScriptSyntax.isFunctionWithParameter(script), "\(script)")
        }
        for script in ["(document.title)", "() => 1", "(out.textContent || null)", "document.title", "function () { return 1 }", "(a)"] {
            #expect(!JavaScriptSyntax.isFunctionWithParameter(script), "\(script)")
        }
    }

    @Test func errorsAreLocatedInTheScriptOrInWaitFor() {
        let script = PageScript("a\nb", waitFor: "c\nd\ne")
        func failure(at line: Int) -> PageScript.Outcome {
            script.outcome(of: .json(Data(#"{"kind":"error","message":"E","line":\#(line),"column":1}"#.utf8)))
        }
        #expect(failure(at: 2) == .failure(.scriptFailed(ScriptFailure(message: "E", line: 1, column: 1))))
        #expect(failure(at: 4) == .failure(.scriptFailed(ScriptFailure(message: "E", line: 2, column: 1))))
        #expect(failure(at: 6) == .failure(.scriptFailed(ScriptFailure(message: "E", line: 1, column: 1, part: .waitFor))))
        #expect(failure(at: 9) == .failure(.scriptFailed(ScriptFailure(message: "E", line: 3, column: 1, part: .waitFor))))
        #expect(failure(at: 30) == .failure(.scriptFailed(ScriptFailure(message: "E"))))
    }

    @Test func repliesMeanWhatTheWrapperSays() {
        let script = PageScript("x\ny * * 2")
        #expect(script.outcome(of: .null) == .empty(lastAnswer: nil))
        #expect(script.outcome(of: .undefined) == .empty(lastAnswer: nil))
        #expect(script.outcome(of: .json(Data(#"{"kind":"pending","text":"waitFor returned false"}"#.utf8))) == .empty(lastAnswer: "waitFor returned false"))
        #expect(script.outcome(of: .string(Data("[1]".utf8))) == .value(Data("[1]".utf8)))
        #expect(script.outcome(of: .json(Data(#"{"kind":"unsupported","text":"a Symbol"}"#.utf8))) == .failure(.unsupportedResult("a Symbol")))
        #expect(
            script.outcome(of: .json(Data(#"{"kind":"error","message":"E: m","line":3,"column":3}"#.utf8)))
                == .failure(.scriptFailed(ScriptFailure(message: "E: m", line: 2, column: 3))))
        #expect(
            script.outcome(of: .json(Data(#"{"kind":"error","message":"E: m"}"#.utf8)))
                == .failure(.scriptFailed(ScriptFailure(message: "E: m"))))
        let syntax = script.outcome(of: .failed(PageError(domain: "WebKitJavascriptError", code: 699, message: "webparse-script:3: SyntaxError: x")))
        #expect(syntax == .syntaxError(ScriptFailure(message: "SyntaxError: x", line: 2)))
        #expect(
            script.explained(ScriptFailure(message: "SyntaxError: x", line: 2))
                == ScriptFailure(message: "SyntaxError: Unexpected token '*'", line: 2))
        #expect(script.outcome(of: .failed(PageError(domain: "WebKitJavascriptError", code: 699, message: "page gone"))) == .interrupted)
        #expect(
            script.outcome(of: .string(Data("{broken".utf8)))
                == .failure(.unsupportedResult("text that is not JSON (has the page replaced JSON.stringify?)")))
    }

    @Test func syntaxChecksWorkFromTheWebKitThreadToo() async throws {
        try await WebParserRunner.prepare()
        let problem = await Task { @WebKitActor in JavaScriptSyntax.error(in: "1 +\n") }.value
        #expect(problem?.message.isEmpty == false)
        let none = await Task { @WebKitActor in JavaScriptSyntax.error(in: "[1, 2]") }.value
        #expect(none == nil)
    }

    @Test func resultsComeOnOneLine() {
        #expect(
            PageScript("x").outcome(of: .string(Data("[1,\n  {\"a\": \"b\\nc\"}\r\n]".utf8)))
                == .value(Data("[1,  {\"a\": \"b\\nc\"}]".utf8)))
    }

    @Test func linesAreCountedAsJavaScriptCountsThem() {
        let script = PageScript("a\r\nb\rc\u{2028}d\u{2029}e\u{85}f")
        #expect(
            script.outcome(of: .json(Data(#"{"kind":"error","message":"E","line":6,"column":1}"#.utf8)))
                == .failure(.scriptFailed(ScriptFailure(message: "E", line: 5, column: 1))))
        #expect(PageScript(" \n x ;\u{3000};; ").installBody.hasPrefix("const script = () => (\nx\n);"))
    }

    @Test func linesCountEveryKindOfLineBreak() {
        let script = PageScript("a\r\nb\r\nc")
        #expect(
            script.outcome(of: .json(Data(#"{"kind":"error","message":"E","line":4,"column":1}"#.utf8)))
                == .failure(.scriptFailed(ScriptFailure(message: "E", line: 3, column: 1))))
    }
}

/// The single resume point.
@Suite struct OneShotTests {
    @Test func manyRacingResolversDeliverOnce() async throws {
        for _ in 0..<100 {
            let shot = OneShot<Int>()
            let winners = await withTaskGroup(of: Bool.self) { group in
                group.addTask { (try? await shot.wait()) == nil }
                for index in 0..<8 {
                    group.addTask { shot.resolve(.success(index)) }
                }
                return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
            #expect(winners == 1)
        }
    }

    @Test func aResolutionBeforeTheWaitIsKept() async throws {
        let shot = OneShot<String>()
        #expect(shot.resolve(.success("early")))
        #expect(!shot.resolve(.success("late")))
        #expect(try await shot.wait() == "early")
    }
}
