import Foundation
import Testing

@testable import WebParser

/// `bridge.js`, as `PageBridge` sends it: user scripts run with `webparse`, console lines reported, and only the
/// bridge's own messages taken.
struct BridgeScriptFileTests {
    /// A page whose webparse channel keeps what is posted to it in `page.posted`.
    func page() throws -> ScriptPage {
        try ScriptPage(
            """
            page.posted = [];
            window.console = { log() {}, info() {}, warn() {}, error() {}, debug() {} };
            window.webkit = { messageHandlers: { webparse: { postMessage(text) { page.posted.push(text); return Promise.resolve(); } } } };
            """)
    }

    func messages(_ page: ScriptPage, _ bridge: PageBridge) throws -> [PageMessage] {
        let posted = try JSONSerialization.jsonObject(with: Data(try page.evaluate("page.posted").utf8)) as? [String] ?? []
        return posted.compactMap(bridge.message(from:))
    }

    func userScript(_ body: String, name: String = "chapters") throws -> UserScript {
        try UserScript(
            source: "// ==UserScript==\n// @name \(name)\n// @run-at document-start\n// ==/UserScript==\n" + body, fileName: "\(name).user.js")
    }

    @Test func aUserScriptEmitsThroughTheBridge() throws {
        let page = try page()
        let bridge = PageBridge(userScripts: [try userScript("webparse.emit({ chapter: 1 });\nwebparse.done();")], capturesConsole: false)
        try page.evaluate(bridge.source)
        try page.call("await null;")
        #expect(try messages(page, bridge) == [.emitted(Data("{\"chapter\":1}".utf8)), .done])
    }

    @Test func consoleLinesAreReportedAndAUserScriptsErrorHasItsOwnLine() throws {
        let page = try page()
        let bridge = PageBridge(
            userScripts: [try userScript("const ok = 1;\nundefinedFunction();", name: "broken")], capturesConsole: true)
        try page.evaluate(bridge.source)
        try page.evaluate("console.warn('chapters:', { count: 2 });")
        let messages = try messages(page, bridge)
        #expect(
            messages.contains(
                .userScriptFailed(UserScriptFailure(script: "broken", message: "ReferenceError: Can't find variable: undefinedFunction", line: 6))))
        #expect(messages.contains { if case .console(let line) = $0 { line.level == .warn && line.text == "chapters: {\"count\":2}" } else { false } })
    }

    @Test func whatThePagePostsWithoutTheTokenIsDropped() throws {
        let page = try page()
        let bridge = PageBridge(userScripts: [], capturesConsole: false)
        try page.evaluate(bridge.source)
        try page.evaluate("webkit.messageHandlers.webparse.postMessage(JSON.stringify({ token: 'guess', kind: 'emit', value: '1' }));")
        #expect(try page.evaluate("page.posted.length") == "1")
        #expect(try messages(page, bridge).isEmpty)
    }

    @Test func aPageWithoutTheChannelRunsNoUserScript() throws {
        let page = try ScriptPage("window.ran = false;")
        let bridge = PageBridge(userScripts: [try userScript("window.ran = true;")], capturesConsole: true)
        try page.evaluate(bridge.source)
        #expect(try page.evaluate("window.ran") == "false")
    }
}
