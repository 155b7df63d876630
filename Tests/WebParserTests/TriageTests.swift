import Foundation
import Testing
@testable import WebParser

/// Which load failures are transient, and what each means.
@Suite struct TriageTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var domain: String
        var code: Int
        var kind: WebParserError.Kind
        var testDescription: String { "\(domain) \(code)" }
    }

    static let cases: [Case] = [
        Case(domain: "g-io-error-quark", code: 39, kind: .connectionRefused),
        Case(domain: "g-resolver-error-quark", code: 0, kind: .hostNotFound),
        Case(domain: "g-io-error-quark", code: 28, kind: .hostNotFound),
        Case(domain: "g-io-error-quark", code: 44, kind: .connectionLost("m")),
        Case(domain: "g-io-error-quark", code: 24, kind: .connectionLost("m")),
        Case(domain: "g-io-error-quark", code: 34, kind: .connectionLost("m")),
        Case(domain: "g-io-error-quark", code: 19, kind: .connectionLost("m")),
        Case(domain: "g-resolver-error-quark", code: 1, kind: .connectionLost("m")),
        Case(domain: "g-io-error-quark", code: 1, kind: .loadFailed("file not found")),
        Case(domain: "WebKitNetworkError", code: 303, kind: .loadFailed("file not found")),
        Case(domain: "g-tls-error-quark", code: 3, kind: .tlsFailed("m")),
        Case(domain: "WebKitPolicyError", code: 101, kind: .unsupportedURL("m")),
        Case(domain: "soup-session-error-quark", code: 2, kind: .tooManyRedirects),
        Case(domain: "soup-session-error-quark", code: 0, kind: .loadFailed("m [soup-session-error-quark 0]"))
    ]

    @Test(arguments: cases)
    func loadFailures(_ testCase: Case) {
        let failure = PageLoadFailure(url: "http://x.test/", error: PageError(domain: testCase.domain, code: testCase.code, message: "m"))
        #expect(failure.error.meaning == testCase.kind)
    }

    /// The shim names WebKit's own errors too, and a redirect limit WebKit reports without a domain of its own, or
    /// inside a download's error.
    @Test func theShimNamesWebKitsOwnErrors() {
        #expect(PageError(domain: "WebKitJavascriptError", code: 699, message: "SyntaxError").kind == .scriptFailed)
        #expect(PageError(domain: "WebKitNetworkError", code: 302, message: "").kind == .navigationReplaced)
        #expect(PageError(domain: "WebKitPolicyError", code: 102, message: "").kind == .policyInterrupted)
        #expect(PageError(domain: "WebKitPolicyError", code: 103, message: "").meaning == .unsupportedURL("the port is restricted by WebKit"))
        #expect(PageError(domain: "WebKitNetworkError", code: 300, message: "m").meaning == .connectionLost("m"))
        #expect(PageError(domain: "", code: 0, message: "Too many redirections").meaning == .tooManyRedirects)
        #expect(PageError(domain: "", code: 0, message: "Load cannot follow more than 20 redirections").meaning == .tooManyRedirects)
        // A download's network failure comes with libsoup's message alone.
        #expect(PageError(domain: "WebKitDownloadError", code: 499, message: "Too many redirects").meaning == .tooManyRedirects)
        #expect(
            PageError(domain: "WebKitDownloadError", code: 499, message: "Error receiving data: Connection reset by peer").meaning
                == .connectionLost("Error receiving data: Connection reset by peer"))
        #expect(PageError(domain: "g-io-error-quark", code: 2, message: "m") == PageError(domain: "g-io-error-quark", code: 2, message: "m"))
        #expect(PageError(domain: "g-io-error-quark", code: 2, message: "m").meaning == .loadFailed("m [g-io-error-quark 2]"))
        #expect(PageError(domain: "g-io-error-quark", code: 19, message: "m").kind == .cancelled)
    }

    @Test func transientKinds() {
        let transient: [WebParserError.Kind] = [
            .timedOut(phase: .loading, after: .seconds(1)), .connectionRefused, .connectionLost("reset"),
            .webProcessCrashed, .httpStatus(500), .httpStatus(502), .httpStatus(503), .httpStatus(429)
        ]
        let fatal: [WebParserError.Kind] = [
            .hostNotFound, .loadFailed("x"), .tlsFailed("x"), .unsupportedURL("x"), .httpStatus(404),
            .httpStatus(400), .httpStatus(403), .scriptFailed(ScriptFailure(message: "x")),
            .unsupportedResult("x"), .memoryLimitExceeded, .environmentUnavailable("x")
        ]
        for kind in transient { #expect(kind.isTransient, "\(kind)") }
        for kind in fatal { #expect(!kind.isTransient, "\(kind)") }
    }

    @Test func onlyTheReplacedLoadIsIgnored() {
        #expect(LoadFailureTriage.isSuperseded(PageLoadFailure(url: "", error: PageError(domain: "WebKitNetworkError", code: 302, message: ""))))
        #expect(!LoadFailureTriage.isSuperseded(PageLoadFailure(url: "", error: PageError(domain: "WebKitNetworkError", code: 300, message: ""))))
    }

    @Test func onlyACancelledHTTPSLoadMayHideAnUntrustedCertificate() {
        let cancelled = PageLoadFailure(url: "https://x.test/", error: PageError(domain: "g-io-error-quark", code: 19, message: ""))
        #expect(LoadFailureTriage.mayHideUntrustedCertificate(cancelled))
        #expect(
            !LoadFailureTriage.mayHideUntrustedCertificate(
                PageLoadFailure(url: "http://x.test/", error: PageError(domain: "g-io-error-quark", code: 19, message: ""))))
        #expect(
            !LoadFailureTriage.mayHideUntrustedCertificate(
                PageLoadFailure(url: "https://x.test/", error: PageError(domain: "WebKitNetworkError", code: 302, message: ""))))
        #expect(
            LoadFailureTriage.untrustedCertificate(at: cancelled.url).error.meaning
                == .tlsFailed("Unacceptable TLS certificate"))
    }

    @Test func backoffDoublesUpToTheCap() {
        let policy = RetryPolicy(retries: 6, delay: .seconds(1), maxDelay: .seconds(10))
        #expect((2...7).map { policy.delay(beforeAttempt: $0) } == [1, 2, 4, 8, 10, 10].map { Duration.seconds($0) })
    }

    @Test func errorsNameTheirCodeAndStep() {
        #expect(WebParserError(.connectionRefused).code == .connectionRefused)
        #expect(WebParserError(.connectionRefused).code.rawValue == "connection-refused")
        #expect(WebParserError(.connectionRefused).step == nil)
        #expect(WebParserError(.stepFailed(step: "2.then.1", .click(selector: "#a"), reason: "x")).step == "2.then.1")
        let stuck = WebParserError(.timedOut(phase: .runningStep("3", .click(selector: "#b")), after: .seconds(1)))
        #expect(stuck.step == "3" && stuck.code == .timedOut)
    }

    @Test func errorsDescribeThemselves() {
        let error = WebParserError(
            .timedOut(phase: .waitingForServer, after: .milliseconds(1500)),
            url: "http://x.test/", attempts: 3)
        #expect(error.description == "timed out after 1.5 s while waiting for the server (http://x.test/); gave up after 3 attempts")
        let script = ScriptFailure(message: "TypeError: boom", line: 2, column: 7)
        #expect(WebParserError(.scriptFailed(script)).description == "script failed: TypeError: boom at line 2, column 7")
    }
}
