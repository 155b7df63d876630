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
        var source = Self.prologue(token: token) + (capturesConsole ? Self.consoleCapture : "") + Self.bridgeEnd
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

    /// The channel, `webparse` and the user-script runner, in strict mode (a page's function that webparse's
    /// code calls cannot reach that code through `caller`). Ends inside the strict closure, where the console
    /// capture goes; `bridgeEnd` closes it, and the user scripts (sloppy, as user scripts are everywhere) follow.
    ///
    /// The token goes only into messages built on null-prototype objects whose values are checked primitives,
    /// serialised with the `JSON.stringify` captured here: no setter, getter, `toJSON` or `Symbol.toPrimitive`
    /// a page puts on `Object.prototype` is ever called with a message, and every built-in the bridge uses
    /// after the page's scripts have run is one it captured before they ran.
    private static func prologue(token: String) -> String {
        """
        (() => {
        const run = (() => {
        "use strict";
        const handler = window.webkit && window.webkit.messageHandlers && window.webkit.messageHandlers.webparse;
        if (!handler) return undefined;
        const token = "\(token)";
        const post = handler.postMessage.bind(handler);
        const stringify = JSON.stringify, ErrorType = Error, TypeErrorType = TypeError, PromiseType = Promise, RegExpType = RegExp;
        const StringType = String;
        const setTimer = setTimeout, clearTimer = clearTimeout, freeze = Object.freeze, apply = Reflect.apply;
        const uncurry = (method) => (target, ...values) => apply(method, target, values);
        const then = uncurry(PromiseType.prototype.then), sliceText = uncurry(StringType.prototype.slice);
        const splitText = uncurry(StringType.prototype.split), exec = uncurry(RegExpType.prototype.exec);
        const text = (value) => typeof value === "string" ? value : null;
        const number = (value) => typeof value === "number" ? value : null;
        const send = (message) => post(stringify(message));
        const ownSource = new ErrorType().sourceURL;
        const rejected = (error) => new PromiseType((_, reject) => reject(error));
        const emit = (value) => {
        let json;
        try { json = stringify(value); } catch (error) { return rejected(error); }
        if (json === undefined) return rejected(new TypeErrorType("webparse.emit: the value has no JSON form"));
        return new PromiseType((resolve, reject) => {
        const timer = setTimer(() => reject(new ErrorType("webparse.emit: webparse did not confirm the value in time")), \(emitTimeout.milliseconds));
        then(send({ __proto__: null, token, kind: "emit", value: json }), () => { clearTimer(timer); resolve(); }, (error) => { clearTimer(timer); reject(error); });
        });
        };
        const done = () => then(send({ __proto__: null, token, kind: "finished" }), () => undefined);
        const webparse = freeze({ emit, done });
        const describeError = (error) => {
        try { return text(StringType(error)) ?? "an exception"; } catch (_) { return "an exception"; }
        };
        const failed = (script, error) => {
        let line = null;
        try {
        const errorLine = error !== null && typeof error === "object" && error.sourceURL === ownSource ? number(error.line) : null;
        if (errorLine !== null && errorLine >= script.offset && errorLine < script.offset + script.lines) line = errorLine - script.offset + 1;
        } catch (_) {}
        send({ __proto__: null, token, kind: "userScriptFailed", script: script.name, message: describeError(error), line });
        };
        const run = (script, body) => {
        const href = location.href;
        const matches = (pattern) => new RegExpType(pattern.source, pattern.flags).test(href);
        if (script.include.length > 0 && !script.include.some(matches)) return;
        if (script.exclude.some(matches)) return;
        const start = () => {
        try {
        then(apply(body, window, [webparse, window]), undefined, (error) => failed(script, error));
        } catch (error) {
        failed(script, error);
        }
        };
        const later = script.runAt === "document-idle" ? () => setTimer(start, 0) : start;
        if (script.runAt === "document-start") start();
        else if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", later, { once: true });
        else later();
        };

        """
    }

    /// Closes the strict closure, handing its `run` to the user scripts; a page without the channel runs none.
    private static let bridgeEnd = """
        return run;
        })();
        if (!run) return;

        """

    /// Console methods and unhandled errors, reported with the place in the page's code they come from.
    private static let consoleCapture = """
        const format = (value) => {
        if (typeof value === "string") return value;
        if (value instanceof ErrorType) return describeError(value);
        if (value !== null && typeof value === "object") {
        try { const json = stringify(value); if (json !== undefined) return json; } catch (_) {}
        }
        return describeError(value);
        };
        const where = (stack) => {
        const frames = splitText(typeof stack === "string" ? stack : "", "\\n");
        for (let index = 1; index < frames.length; index++) {
        const found = exec(/^(?:[^@]*@)?(.+):(\\d+):(\\d+)$/, frames[index]);
        if (found) return { __proto__: null, url: text(found[1]), line: number(+found[2]), column: number(+found[3]) };
        }
        return null;
        };
        const place = (url, line, column) =>
        text(url) ? { __proto__: null, url: text(url), line: number(line), column: number(column) } : null;
        const report = (level, message, source) => {
        try { send({ __proto__: null, token, kind: "console", level, text: sliceText(text(message) ?? "", 0, 4000), source }); } catch (_) {}
        };
        for (const level of ["log", "info", "warn", "error", "debug"]) {
        const original = console[level];
        console[level] = function (...values) {
        let line = "";
        for (let index = 0; index < values.length; index++) line += (index > 0 ? " " : "") + format(values[index]);
        report(level, line, where(new ErrorType().stack));
        return apply(original, this, values);
        };
        }
        addEventListener("error", (event) => {
        if (!(event instanceof ErrorEvent)) return;
        const error = event.error;
        const message = error !== undefined && error !== null ? format(error) : text(event.message) ?? "";
        report("error", "Uncaught " + message, place(event.filename, event.lineno, event.colno));
        }, true);
        addEventListener("unhandledrejection", (event) => report("error", "Unhandled rejection: " + format(event.reason), null));

        """
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
