internal import CWebKitGTK
import FoundationEssentials

/// A job's `when`: a JavaScript expression over `item` (and `result`, the same value), tested on JSON values by
/// JavaScriptCore outside any page: no DOM, no network, no timers, no clock (`Date.now()` and `new Date()` throw;
/// `new Date(text)` reads a date). Each test is stopped once it has run `timeLimit` seconds or grown the process by
/// `memoryLimit` bytes, and no string or buffer of more than a quarter of that is made in one call. A condition is made and used on one thread, any but the WebKit thread.
public final class ItemCondition {
    /// What the condition said of one value.
    public enum Verdict: Equatable, Sendable {
        /// Its value was truthy.
        case holds
        /// Its value was falsy.
        case fails
        /// It threw, with JavaScriptCore's words, such as "TypeError: undefined is not an object (evaluating
        /// 'item.price.amount')".
        case threw(String)
        /// It ran past its time or memory and was stopped, and which.
        case stopped(String)
    }

    /// How long one test may run, in seconds.
    public static let timeLimit = 1.0
    /// How much one test may grow the process, in bytes.
    public static let memoryLimit = 256 << 20
    /// How often a running test's time and the process's size are looked at, in seconds.
    static let checkEvery = 0.05

    /// The expression, as the config gave it.
    public let expression: String
    private let condition: OpaquePointer

    /// The condition `expression`, compiled.
    /// - Throws: `ItemCondition.Invalid` when it is not an expression JavaScriptCore compiles.
    public init(_ expression: String) throws(Invalid) {
        if let problem = Self.problem(in: expression) { throw Invalid(line: problem.line, message: problem.message) }
        var message: UnsafeMutablePointer<CChar>?
        guard let condition = wk_condition_new(Self.function(of: expression), Self.prelude, Self.timeLimit, Self.memoryLimit, Self.checkEvery, &message) else {
            defer { wk_free(message) }
            throw Invalid(line: nil, message: message.map { String(cString: $0) } ?? "it does not compile")
        }
        self.expression = expression
        self.condition = condition
    }

    deinit {
        wk_condition_free(condition)
    }

    /// Tests the condition on `json`, a JSON text.
    public func test(_ json: Data) -> Verdict {
        var message: UnsafeMutablePointer<CChar>?
        let verdict = String(decoding: json, as: UTF8.self).withCString { wk_condition_test(condition, $0, &message) }
        defer { wk_free(message) }
        let said = message.map { String(cString: $0) } ?? ""
        switch verdict {
        case WK_CONDITION_TRUE: return .holds
        case WK_CONDITION_FALSE: return .fails
        case WK_CONDITION_STOPPED: return .stopped(said)
        default: return .threw(said)
        }
    }

    /// The syntax error of `expression` as a condition, with its line in `expression` when JavaScriptCore gives one;
    /// nil when it compiles. Safe from any thread.
    public static func problem(in expression: String) -> (line: Int?, message: String)? {
        guard !expression.trimmingWhitespace().isEmpty else { return (nil, "expected a JavaScript expression, such as item.price < 300") }
        guard let error = JavaScriptSyntax.error(in: function(of: expression)) else { return nil }
        let line = error.line.map { $0 - 2 }
        let lines = JavaScriptSyntax.lineCount(expression)
        return (line.flatMap { (1...lines).contains($0) ? $0 : nil }, error.message)
    }

    /// A condition that does not compile: where (its line, when known) and why.
    public struct Invalid: Error, Sendable, CustomStringConvertible {
        /// The line of the expression the error is on, from 1.
        public let line: Int?
        /// JavaScriptCore's words.
        public let message: String
        /// "line N: MESSAGE", or the message alone.
        public var description: String { (line.map { "line \($0): " } ?? "") + message }
    }

    /// The function the expression is the value of: two lines before it, so that its lines are the function's lines
    /// less two.
    private static func function(of expression: String) -> String {
        "(function (item, result) {\nreturn (\n\(expression)\n);\n})"
    }

    /// Run in each condition's context before it: the clock removed, so that a condition says the same of the same
    /// value at any time, and no value made in one call larger than a quarter of `memoryLimit`.
    private static let prelude = ScriptSource.call(ScriptSource.conditionPrelude, String(memoryLimit / 4)) + ";"
}
