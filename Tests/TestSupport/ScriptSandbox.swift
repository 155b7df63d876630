import CScriptSandbox

/// A JavaScriptCore context without a page (no DOM, no timers): the tests of the page's JavaScript files define
/// what a file reads in JavaScript, then run it. Not thread-safe: one test, one sandbox.
public final class ScriptSandbox {
    /// Why a script threw: the exception's line and message.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String

        /// A failure that says `description`.
        public init(description: String) {
            self.description = description
        }
    }

    private let sandbox: OpaquePointer

    /// A fresh context with a global object of its own.
    public init() {
        sandbox = script_sandbox_new()
    }

    deinit {
        script_sandbox_free(sandbox)
    }

    /// Evaluates `source` as a script named `name`, and returns its value as JSON text ("undefined" for a value
    /// JSON cannot show), once the Promise jobs it queued have run. Throws `Failure` when it throws.
    @discardableResult
    public func evaluate(_ source: String, name: String = "test") throws -> String {
        var error: UnsafeMutablePointer<CChar>?
        guard let json = script_sandbox_evaluate(sandbox, source, name, &error) else {
            defer { script_sandbox_free_text(error) }
            throw Failure(description: error.map { String(cString: $0) } ?? "an exception")
        }
        defer { script_sandbox_free_text(json) }
        return String(cString: json)
    }
}
