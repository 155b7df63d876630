import FoundationEssentials

/// Something a job's page said or did that is not the job's result: a value a user script emitted, a console
/// line, a user script's exception, a window it opened, a link it was not allowed to follow.
public enum WebParserMessage: Sendable, Equatable {
    /// A user script called `webparse.emit(value)`; `json` is the value as UTF-8 JSON text on one line.
    case emitted(json: Data)
    /// The page wrote to its console, or an exception or a rejected Promise went unhandled (with
    /// `WebParserJob.capturesConsole`).
    case console(ConsoleMessage)
    /// A user script threw; the page and the other user scripts went on.
    case userScriptFailed(UserScriptFailure)
    /// The page opened a window for `url` by a user's action (a step's click); with `followed`, the page loaded `url`
    /// in its place.
    case popupOpened(url: String, followed: Bool)
    /// The page's own script opened a window for `url` without a user's action (at load, on a timer): refused, as a
    /// browser's popup blocker refuses it; the page stays where it is.
    case popupBlocked(url: String)
    /// The page tried to navigate to `url`, which a scraper does not follow (`mailto:`, `tel:`, `intent:`…);
    /// the page stayed where it was.
    case navigationRefused(url: String)
    /// The `if` step at `step` (`2`, `3.then.1`) found its condition `holds` or not, and runs that branch.
    case stepDecided(step: String, Step, holds: Bool)
    /// The step at `step` waited for the page's requests or scheduled work (a timer due, a script loading) before it
    /// acted, so that what the page wires up first is there when it acts.
    case stepWaited(step: String, Step, StepWait)
    /// An attempt of a job that records requests (`WebParserJob.recordsRequests`) ended: its page's requests, in
    /// the order they ended.
    case requests([WebParserRequest])
}

/// One line of a page's console.
public struct ConsoleMessage: Sendable, Equatable, CustomStringConvertible {
    /// The console method, or `error` for an uncaught exception.
    public enum Level: String, Sendable, Equatable {
        /// `console.log`.
        case log
        /// `console.info`.
        case info
        /// `console.warn`.
        case warn
        /// `console.error`, an uncaught exception or an unhandled rejection.
        case error
        /// `console.debug`.
        case debug
    }

    /// The method that wrote it.
    public var level: Level
    /// The values written, as `console.log` shows them, separated by spaces (at most 4000 characters).
    public var text: String
    /// Where in the page's code it was written, when known.
    public var source: SourceLocation?

    /// Creates a message.
    public init(level: Level, text: String, source: SourceLocation? = nil) {
        self.level = level
        self.text = text
        self.source = source
    }

    /// `console.warn: text (https://…/app.js:12:5)`.
    public var description: String {
        "console.\(level.rawValue): \(text)" + (source.map { " (\($0))" } ?? "")
    }
}

/// A place in a page's code.
public struct SourceLocation: Sendable, Equatable, CustomStringConvertible {
    /// The script's URL (the page's own URL for inline scripts).
    public var url: String
    /// From 1.
    public var line: Int
    /// From 1.
    public var column: Int

    /// Creates a location.
    public init(url: String, line: Int, column: Int) {
        self.url = url
        self.line = line
        self.column = column
    }

    /// `url:line:column`, with any password in the URL hidden.
    public var description: String { "\(URLRedaction.redact(url)):\(line):\(column)" }
}

/// An exception a user script threw.
public struct UserScriptFailure: Sendable, Equatable, CustomStringConvertible {
    /// The script's `@name`.
    public var script: String
    /// The exception as text, such as `TypeError: null is not an object`.
    public var message: String
    /// The line in the script's file, from 1, when the exception was raised by the script's own code.
    public var line: Int?

    /// Creates a failure.
    public init(script: String, message: String, line: Int? = nil) {
        self.script = script
        self.message = message
        self.line = line
    }

    /// `user script "name" failed: message at line N`.
    public var description: String {
        "user script \"\(script)\" failed: \(message)" + (line.map { " at line \($0)" } ?? "")
    }
}
