import Foundation
import TestSupport

/// A page for the tests of webparse's page JavaScript: a JavaScriptCore context without WebKit with `fake_page.js`
/// loaded (a small DOM, events, mutation observers and a clock the test moves), in which a call's body runs as
/// WebKit runs it: as the body of an async function.
final class ScriptPage {
    /// The fake page's source, read from the source tree.
    static let fakePage: String = {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("fake_page.js")
        return (try? String(contentsOf: file, encoding: .utf8)) ?? "throw new Error('fake_page.js is missing')"
    }()

    private let sandbox = ScriptSandbox()

    /// A page with an empty document, or the document `setUp` (JavaScript) makes with `page.element` and `page.show`;
    /// `first` runs before `setUp`, as a document-start script runs before the page's own.
    init(_ setUp: String = "", first: String = "") throws {
        try sandbox.evaluate(Self.fakePage, name: "fake_page.js")
        try sandbox.evaluate(first, name: "first")
        try sandbox.evaluate(setUp, name: "setUp")
    }

    /// The value of `expression` as JSON text.
    @discardableResult
    func evaluate(_ expression: String) throws -> String {
        try sandbox.evaluate(expression)
    }

    /// Runs `body` as the body of an async function, moving the page's clock 10 ms at a time (running its timers)
    /// until its Promise settles, for `within` of the page's time at most; returns the value as JSON text, and
    /// throws what it rejected with, or that it had not settled.
    func call(_ body: String, within: Duration = .seconds(20)) throws -> String {
        try sandbox.evaluate("page.watch((async () => {\n" + body + "\n})());", name: "call")
        let end = try Int(sandbox.evaluate("page.now"))! + Int(within.components.seconds * 1000)
        while try sandbox.evaluate("page.outcome === undefined") == "true" {
            guard try Int(sandbox.evaluate("page.now"))! < end else { throw ScriptSandbox.Failure(description: "the call had not settled") }
            try sandbox.evaluate("page.advance(10)")
        }
        if try sandbox.evaluate("'error' in page.outcome") == "true" {
            throw ScriptSandbox.Failure(description: try sandbox.evaluate("page.outcome.error"))
        }
        return try sandbox.evaluate("page.outcome.value")
    }

    /// Moves the page's clock `ms` on, 10 ms at a time, each step a task of its own after which the promise jobs run
    /// (as a browser's event loop runs them between tasks).
    func advance(_ ms: Int) throws {
        for _ in 0..<(ms / 10) { try sandbox.evaluate("page.advance(10)") }
        if ms % 10 > 0 { try sandbox.evaluate("page.advance(\(ms % 10))") }
    }

    /// `text`, a JSON object a call answered, as a dictionary.
    static func object(_ text: String) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] ?? [:]
    }
}
