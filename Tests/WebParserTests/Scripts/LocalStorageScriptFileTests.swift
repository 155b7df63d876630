import Foundation
import Testing

@testable import WebParser

/// `local_storage.js`, as `WebParserSession.setLocalStorage` and `localStorage(of:)` call it, on a page whose
/// `localStorage` keeps its items in order.
struct LocalStorageScriptFileTests {
    let page: ScriptPage

    init() throws {
        page = try ScriptPage(
            """
            const stored = new Map([["theme", "dark"]]);
            window.localStorage = {
              get length() { return stored.size; },
              key: (index) => Array.from(stored.keys())[index] ?? null,
              getItem: (name) => stored.get(name) ?? null,
              setItem: (name, value) => { stored.set(String(name), String(value)); },
            };
            """)
    }

    @Test func itemsAreStoredInOrderAndReadBackAsText() throws {
        let items = JSONText.text(.array([.array([.string("token"), .string("a\"b\u{2028}c")]), .array([.string("theme"), .string("light")])]))
        #expect(try page.evaluate(ScriptSource.call(ScriptSource.localStorage, items)) == "true")
        let read = try page.evaluate(ScriptSource.call(ScriptSource.localStorage, "null"))
        let text = try JSONDecoder().decode(String.self, from: Data(read.utf8))
        #expect(try JSONDecoder().decode([[String]].self, from: Data(text.utf8)) == [["theme", "light"], ["token", "a\"b\u{2028}c"]])
    }

    @Test func anEmptyStorageIsReadAsTheTextOfAnEmptyList() throws {
        let empty = try ScriptPage("window.localStorage = { length: 0, key: () => null, getItem: () => null };")
        #expect(try empty.evaluate(ScriptSource.call(ScriptSource.localStorage, "null")) == #""[]""#)
    }
}
