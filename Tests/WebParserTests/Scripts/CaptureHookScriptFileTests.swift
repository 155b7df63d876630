import Foundation
import Testing

/// `capture_hook.js`, the extension's capture of what the page's scripts read, run in JavaScriptCore on the fake page
/// before the page's own scripts, as the extension runs it in pages that capture: each fetch is a numbered read,
/// begun as the script asks and ended by its record (the response's URL, status, type and body) or by an end; what a
/// request sends is passed on; a page that replaces the built-ins later changes nothing of it.
@Suite struct CaptureHookScriptFileTests {
    /// The hook's source, read from the source tree (the extension compiles it in).
    static let hook: String = {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appending(path: "Sources/CWebParseExtension/capture_hook.js")
        return (try? String(contentsOf: file, encoding: .utf8)) ?? "throw new Error('capture_hook.js is missing')"
    }()

    /// A page that captures fetches (kinds 1), bodies of `maxBody` bytes at most, whose `setUp` runs after the hook;
    /// what the hook sends is kept in `sent`, one array of `send`'s arguments a call.
    func page(_ setUp: String, maxBody: Int = 1 << 20) throws -> ScriptPage {
        let first = "globalThis.sent = []; (" + Self.hook + ")((...values) => sent.push(values), \(maxBody), 1);"
        return try ScriptPage(setUp, first: first)
    }

    /// What the hook sent, each call as "kind url method status mime exact size body note read".
    func sent(_ page: ScriptPage) throws -> [String] {
        let text = try page.evaluate("sent.map((values) => values.map((value) => value === null ? 'null' : String(value)).join(' '))")
        return (try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String]) ?? []
    }

    @Test func aFetchIsAReadThatItsRecordEnds() throws {
        let page = try page("fetch('/items.json').then((response) => response.json()).then((items) => { window.items = items; });")
        #expect(try sent(page) == ["begin http://example.test/items.json GET 0  false 0 null  1"])
        try page.advance(200)
        let body = #"{"url": "http://example.test/items.json"}"#
        #expect(
            try sent(page) == [
                "begin http://example.test/items.json GET 0  false 0 null  1",
                "fetch http://example.test/items.json GET 200 application/json true 0 \(body)  1"
            ])
        #expect(try page.evaluate("items.url") == #""http://example.test/items.json""#, "the page reads its own body as before")
    }

    @Test func aBodyOverTheLimitIsRecordedWithoutIt() throws {
        let page = try page("page.answers['/big'] = 'big'; fetch('/big');", maxBody: 10)
        try page.advance(200)
        #expect(try sent(page).last == "fetch http://example.test/big GET 200 application/json false 1000000 null over-limit 1")
    }

    @Test func whatARequestSendsIsPassedOn() throws {
        let page = try page(
            """
            fetch('/search', { method: 'post', body: 'q=chapter' });
            fetch('/form', { method: 'POST', body: new URLSearchParams({ page: '2' }) });
            fetch('/typed', { method: 'PUT', body: '{}', headers: { 'Content-Type': 'application/json' } });
            fetch('/read', { method: 'GET', body: 'ignored' });
            """)
        #expect(
            try sent(page).filter { $0.hasPrefix("sent") } == [
                "sent http://example.test/search POST 0 text/plain;charset=UTF-8 false 0 q=chapter  0",
                "sent http://example.test/form POST 0 application/x-www-form-urlencoded;charset=UTF-8 false 0 page=2  0",
                "sent http://example.test/typed PUT 0 application/json false 0 {}  0"
            ])
    }

    /// The hook keeps the built-ins of the moment it ran: a page that replaces a response's reader or wraps the global
    /// fetch later hides nothing and forges nothing.
    @Test func builtInsThePageReplacesLaterChangeNothing() throws {
        let page = try page(
            """
            Response.prototype.text = () => Promise.resolve("forged");
            const hooked = fetch;
            window.fetch = (input) => hooked(input);
            fetch('/items.json');
            """)
        try page.advance(200)
        #expect(try sent(page).last == #"fetch http://example.test/items.json GET 200 application/json true 0 {"url": "http://example.test/items.json"}  1"#)
    }

    @Test func aFetchThatFailsEndsItsReadAndAnOpaqueOneIsRecordedWithoutItsBody() throws {
        let page = try page("page.answers['/broken'] = 'fail'; page.answers['/cdn'] = 'opaque'; fetch('/broken').catch(() => {}); fetch('/cdn');")
        try page.advance(200)
        #expect(
            try sent(page) == [
                "begin http://example.test/broken GET 0  false 0 null  1", "begin http://example.test/cdn GET 0  false 0 null  2",
                "end   0  false 0 null  1", "fetch http://example.test/cdn GET 0  false 0 null opaque 2"
            ])
    }
}
