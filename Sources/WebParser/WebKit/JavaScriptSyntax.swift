import Dispatch
internal import CWebKitGTK
import FoundationEssentials
import Synchronization

/// Facts about a piece of a job's JavaScript, checked without a page: whether it parses, whether it looks like
/// a CSS selector written where JavaScript was expected, and how to write a string in it.
enum JavaScriptSyntax {
    /// The syntax error of `source` read as a script on its own (JavaScriptCore's message, without the
    /// `SyntaxError:` name), with its line in `source`; nil when it parses. Safe from any thread: the check makes
    /// a JavaScriptCore context of its own, which must not be made on the WebKit thread (before WebKit has
    /// started, it hangs WebKit's start), so there it runs on another thread while the caller waits.
    static func error(in source: String) -> (line: Int?, message: String)? {
        guard wk_main_is_current_thread() else { return check(source) }
        // A thread of its own: a global queue's `sync` would run the check on the calling thread.
        let outcome = Mutex<(line: Int?, message: String)??>(nil)
        let finished = DispatchSemaphore(value: 0)
        SystemThread.start {
            outcome.withLock { $0 = .some(check(source)) }
            finished.signal()
        }
        finished.wait()
        return outcome.withLock { $0 } ?? nil
    }

    private static func check(_ source: String) -> (line: Int?, message: String)? {
        var line: UInt32 = 0
        var message: UnsafeMutablePointer<CChar>?
        guard !wk_check_script_syntax(source, &line, &message) else { return nil }
        defer { wk_free(message) }
        return (line > 0 ? Int(line) : nil, message.map { String(cString: $0) } ?? "invalid JavaScript")
    }

    /// True when `text` reads as a CSS selector (`.quote`, `#list li`, `[data-id]`, `div.item > a`) rather
    /// than as JavaScript: compound selectors joined by combinators, one of them with a class, id or attribute.
    static func looksLikeSelector(_ text: String) -> Bool {
        let text = text.trimmingWhitespace()
        guard !text.isEmpty, !text.contains(where: \.isNewline) else { return false }
        let compounds = text.replacing(/\ *[>+~]\ *|\ +/, with: " ").split(separator: " ")
        let compound = /(?:[a-zA-Z][\w-]*|\*)?(?:[.#][a-zA-Z_-][\w-]*|\[[^\]]+\]|::?[a-zA-Z-]+)*/
        return compounds.allSatisfy { (try? compound.wholeMatch(in: $0)) != nil }
            && compounds.contains { $0.contains(where: { ".#[".contains($0) }) }
    }

    /// `text` as a JavaScript string literal.
    static func literal(_ text: String) -> String {
        JSONText.text(.string(text))
    }

    /// How many lines `text` has, as JavaScript counts them: a line ends at LF, CR, CR LF, U+2028 or U+2029.
    /// Whether `script` is a function that takes at least one parameter: `(a) => …`, `a => …`, `async (a) => …`,
    /// `function (a) { … }`.
    static func isFunctionWithParameter(_ script: String) -> Bool {
        let trimmed = script.trimmingWhitespace()
        return trimmed.prefixMatch(of: #/(async\s+)?(\(\s*[\p{L}_$][^)]*\)\s*=>|[\p{L}_$][\p{L}\p{N}_$]*\s*=>|function\b[^(]*\(\s*[\p{L}_$])/#) != nil
    }

    static func lineCount(_ text: String) -> Int {
        var lines = 1
        var previous: UInt8 = 0
        var beforePrevious: UInt8 = 0
        for byte in text.utf8 {
            switch byte {
            case 0x0A where previous != 0x0D, 0x0D: lines += 1
            case 0xA8...0xA9 where previous == 0x80 && beforePrevious == 0xE2: lines += 1
            default: break
            }
            (beforePrevious, previous) = (previous, byte)
        }
        return lines
    }
}
