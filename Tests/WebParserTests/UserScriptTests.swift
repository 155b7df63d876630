import Foundation
import Testing
@testable import WebParser

/// Reading user-script headers and turning their URL patterns into regular expressions.
@Suite struct UserScriptTests {
    static func script(_ header: String, body: String = "console.log(1);") -> String {
        "// ==UserScript==\n\(header)\n// ==/UserScript==\n\(body)\n"
    }

    @Test func theHeaderIsRead() throws {
        let script = try UserScript(
            source: Self.script(
                """
                // @name        Capture chapters
                // @namespace   https://example.com
                // @match       https://*.comics.example/*
                // @include     http://127.0.0.1*/list*
                // @exclude     /\\/admin\\//i
                // @run-at      document-start
                // @grant       none
                """), fileName: "capture.user.js")
        #expect(script.name == "Capture chapters")
        #expect(script.matches == ["https://*.comics.example/*"])
        #expect(script.includes == ["http://127.0.0.1*/list*"])
        #expect(script.excludes == ["/\\/admin\\//i"])
        #expect(script.runAt == .documentStart)
    }

    @Test func defaultsAreTheFileNameAndDocumentIdle() throws {
        let script = try UserScript(source: Self.script("// @version 1"), fileName: "/tmp/scripts/tidy.user.js")
        #expect(script.name == "tidy.user.js")
        #expect(script.runAt == .documentIdle)
        #expect(script.matches.isEmpty && script.includes.isEmpty)
    }

    @Test func badHeadersNameTheFileAndLine() {
        let cases: [(source: String, line: Int?, message: String)] = [
            ("console.log(1);\n", nil, "no \"// ==UserScript==\" header"),
            ("// ==UserScript==\n// @name x\nconsole.log(1);\n", 3, "expected a \"// @key value\" line"),
            ("// ==UserScript==\n// @name x\n", 1, "never closed"),
            (Self.script("// @run-at document-later"), 2, "@run-at: expected document-start, document-end, document-idle"),
            (Self.script("// @name x\n// @match example.com"), 3, "@match: expected scheme://host/path"),
            (Self.script("// @match ftp://example.com/*"), 2, "@match"),
            (Self.script("// @include /(unclosed/"), 2, "not a valid regular expression"),
            (Self.script("// @name"), 2, "@name needs a value"),
            (Self.script("// @name x", body: "const a = ;"), 4, "JavaScript syntax error"),
            (Self.script("// @name x", body: "ok();\n\nfunction broken( {"), 6, "JavaScript syntax error")
        ]
        for (source, line, message) in cases {
            #expect {
                try UserScript(source: source, fileName: "bad.user.js")
            } throws: { error in
                guard let error = error as? UserScriptError else { return false }
                return error.fileName == "bad.user.js" && error.line == line && error.message.contains(message)
            }
        }
    }

    @Test func aTopLevelReturnIsValidAsInTampermonkey() throws {
        _ = try UserScript(source: Self.script("// @name x", body: "if (location.hash) return;\nconsole.log(2);"), fileName: "x.user.js")
    }

    @Test func matchPatternsMatchWhatTheySay() throws {
        let cases: [(pattern: String, yes: [String], no: [String])] = [
            (
                "https://*.comics.example/*", ["https://comics.example/", "https://www.comics.example/list?p=1"],
                ["http://comics.example/", "https://evil.example/comics.example/", "https://comics.example.evil.com/"]
            ),
            ("*://127.0.0.1/list*", ["http://127.0.0.1:8080/list", "https://127.0.0.1/list/2"], ["http://127.0.0.1:8080/other"]),
            ("http://example.com:8080/*", ["http://example.com:8080/a"], ["http://example.com:9090/a"]),
            ("<all_urls>", ["https://a.b/", "file:///tmp/x.html"], ["about:blank"]),
            ("file:///tmp/*.html", ["file:///tmp/page.html"], ["file:///etc/page.txt"])
        ]
        for (pattern, yes, no) in cases {
            let expression = try #require(URLPattern.match(pattern))
            #expect(expression.flags == "")
            let regex = try NSRegularExpression(pattern: expression.source)
            for url in yes { #expect(regex.matches(url), "\(pattern) should match \(url)") }
            for url in no { #expect(!regex.matches(url), "\(pattern) should not match \(url)") }
        }
    }

    @Test func includePatternsAreGlobsOrRegularExpressions() throws {
        let glob = try #require(URLPattern.include("http://*.example.com/comics/*"))
        let globRegex = try NSRegularExpression(pattern: glob.source)
        #expect(globRegex.matches("http://www.example.com/comics/12"))
        #expect(!globRegex.matches("http://www.example.com/news/12"))
        let literal = try #require(URLPattern.include("/\\/admin\\//i"))
        #expect(literal == URLPattern.Expression(source: "\\/admin\\/", flags: "i"))
    }
}

private extension NSRegularExpression {
    func matches(_ text: String) -> Bool {
        firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
    }
}
