import FoundationEssentials

/// The JavaScript webparse runs at the start of every document of a page that has user scripts or whose
/// console is captured, and the reading of what that JavaScript sends back.
///
/// It runs in the page's main world before the page's own scripts, and keeps what it needs (the message
/// channel, `JSON.stringify`, timers) in a closure, so that the page cannot change them later. Every message
/// carries a token made for this page alone, which no page script can read: the page's scripts can post to
/// the channel, but webparse drops what they post. `webparse.emit` and `done` are handed to user scripts as
/// an argument, never put on `window`.
struct PageBridge: Sendable {
    /// How long `webparse.emit`'s Promise waits for webparse to confirm a value before it rejects.
    static let emitTimeout: Duration = .seconds(10)

    /// The JavaScript to run at the start of every document.
    let source: String
    private let token: String

    /// A bridge for `userScripts` that also reports console lines and unhandled errors when `capturesConsole`.
    init(userScripts: [UserScript], capturesConsole: Bool, token: String = Self.makeToken()) {
        self.token = token
        let settings = JSONText.Value.object([
            ("emitTimeoutMs", .integer(Int(Self.emitTimeout.milliseconds))), ("capturesConsole", .bool(capturesConsole))
        ])
        // A page without webparse's channel runs no user script.
        var source =
            "(() => {\nconst run = " + ScriptSource.call(ScriptSource.bridge, JavaScriptSyntax.literal(token), JSONText.text(settings))
            + ";\nif (!run) return;\n"
        for script in userScripts {
            // The settings' line, then the wrapper's first line, then the script's first line.
            let offset = JavaScriptSyntax.lineCount(source) + 2
            let settings = JSONText.text(
                .object([
                    ("name", .string(script.name)), ("runAt", .string(script.runAt.rawValue)), ("offset", .integer(offset)),
                    ("lines", .integer(JavaScriptSyntax.lineCount(script.source))),
                    ("include", .array((script.matches.compactMap(URLPattern.match) + script.includes.compactMap(URLPattern.include)).map(\.asJSON))),
                    ("exclude", .array(script.excludes.compactMap(URLPattern.include).map(\.asJSON)))
                ]))
            source += "run(\(settings),\n" + UserScriptBody.wrapped(script.source) + ");\n"
        }
        self.source = source + "})();\n"
    }

    /// A token no page can guess: 128 random bits.
    static func makeToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<2).map { _ in String(generator.next() as UInt64, radix: 16) }.joined(separator: "-")
    }

    /// What `text`, a message posted to webparse's channel, says; nil when it does not come from this bridge.
    func message(from text: String) -> PageMessage? {
        guard let (answer, token) = PageAnswer.read(Data(text.utf8)), token == self.token else { return nil }
        switch answer {
        case .emitted(let json):
            return .emitted(Data(json.utf8))
        case .finished:
            return .done
        case .console(let level, let text, let source):
            return ConsoleMessage.Level(rawValue: level).map { .console(ConsoleMessage(level: $0, text: text, source: source)) }
        case .userScriptFailed(let script, let message, let line):
            return .userScriptFailed(UserScriptFailure(script: script, message: message, line: line))
        default:
            return nil
        }
    }
}

/// What a page's bridge said.
enum PageMessage: Sendable, Equatable {
    /// A value a user script emitted, as JSON text.
    case emitted(Data)
    /// A user script said it has emitted everything.
    case done
    case console(ConsoleMessage)
    case userScriptFailed(UserScriptFailure)
}

private extension URLPattern.Expression {
    var asJSON: JSONText.Value { .object([("source", .string(source)), ("flags", .string(flags))]) }
}
