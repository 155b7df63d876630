import Foundation
import Testing

@testable import WebParser

/// `error_watch.js`, `bot_protection.js` and `page_quiet.js` on small documents.
struct PageCheckScriptFileTests {
    @Test func thePagesLastErrorIsKept() throws {
        let page = try ScriptPage()
        try page.evaluate(PageErrorWatch.source)
        #expect(try page.call(PageErrorWatch.readBody) == "null")
        try page.evaluate(
            "dispatchEvent(new ErrorEvent('error', { message: 'TypeError: list is null', filename: 'http://example.test/app.js', lineno: 3, colno: 7 }));")
        #expect(try page.call(PageErrorWatch.readBody) == "\"Uncaught TypeError: list is null (http://example.test/app.js:3:7)\"")
        try page.evaluate("dispatchEvent(Object.assign(new Event('unhandledrejection'), { reason: 'HTTP 500' }));")
        #expect(try page.call(PageErrorWatch.readBody) == "\"Unhandled rejection: HTTP 500\"")
    }

    @Test func aBotProtectionPageIsNamedAndAnOrdinaryOneIsNot() throws {
        let challenge = try ScriptPage("page.show(page.element(\"p\")); document.title = 'Just a moment...';")
        #expect(try challenge.call(BotProtection.checkBody) == "\"Cloudflare challenge\"")
        let dataDome = try ScriptPage("page.show(page.element(\"script\", { src: \"https://ct.captcha-delivery.com/c.js\" }));")
        #expect(try dataDome.call(BotProtection.checkBody) == "\"DataDome\"")
        let ordinary = try ScriptPage("page.show(page.element(\"h1\", {}, [\"403 Forbidden\"])); document.title = '403 Forbidden';")
        #expect(try ordinary.call(BotProtection.checkBody) == "null")
    }

    @Test func theQuietStateWakesItsWaitersAndCountsTheQuietTime() throws {
        let quiet = PageQuiet()
        let page = try ScriptPage()
        let call = "const quiet = \(quiet.functions);\n"
        try page.evaluate(
            "page.woken = 0; (() => { \(call) const state = quiet.pageQuiet(true, 'never', -1); state.wakers.add(() => page.woken++); })();")
        #expect(try page.call(call + "return [quiet.quietFor(300), quiet.quietIn(300)];") == "[false,\(RequestTracker.longLived.milliseconds)]")
        try page.evaluate("page.advance(100); (() => { \(call) quiet.pageQuiet(false); })();")
        #expect(try page.evaluate("page.woken") == "1")
        #expect(try page.call(call + "return [quiet.quietFor(300), quiet.quietIn(300)];") == "[false,300]")
        try page.evaluate("page.advance(300);")
        #expect(try page.call(call + "return [quiet.quietFor(300), quiet.quietIn(300)];") == "[true,0]")
    }

    @Test func aMetaRefreshWithinTheLookAheadIsPendingWork() throws {
        let quiet = PageQuiet(lookAhead: .seconds(3))
        let page = try ScriptPage(
            """
            page.show(page.element("meta", { "http-equiv": "Refresh", content: "2; url=/next" }));
            window[\(JavaScriptSyntax.literal(quiet.workKey))] = () => ({ busy: null, dueIn: null, never: null });
            """)
        let work = try page.call("const quiet = \(quiet.functions);\nreturn quiet.pendingWork();")
        #expect(work == "{\"busy\":\"a refresh due in 2000 ms\",\"dueIn\":2000,\"never\":null}")
        let none = try ScriptPage()
        #expect(try none.call("const quiet = \(quiet.functions);\nreturn [quiet.pendingWork(), quiet.workDone()];") == "[null,false]")
    }
}
