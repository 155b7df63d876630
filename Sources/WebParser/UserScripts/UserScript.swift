import FoundationEssentials

/// A user script in the Tampermonkey convention: JavaScript with a `// ==UserScript==` header that says
/// where and when it runs. webparse runs it in the page's own JavaScript world (so it can hook `fetch` or
/// `XMLHttpRequest` before the page's scripts use them), inside a function that receives `webparse` (with
/// `emit(value)` and `done()`) and `unsafeWindow`.
///
/// ```javascript
/// // ==UserScript==
/// // @name     capture chapters
/// // @match    https://comics.example/*
/// // @run-at   document-start
/// // ==/UserScript==
/// const originalFetch = window.fetch;
/// window.fetch = async (...args) => { … webparse.emit(await response.clone().json()); … };
/// ```
public struct UserScript: Sendable, Equatable {
    /// When a user script runs in a document.
    public enum RunAt: String, Sendable, Equatable, CaseIterable {
        /// Before the document's own scripts, when the document is still empty.
        case documentStart = "document-start"
        /// Once the document is parsed (`DOMContentLoaded`).
        case documentEnd = "document-end"
        /// Just after `DOMContentLoaded` and its handlers (the default).
        case documentIdle = "document-idle"
    }

    /// The `@name`, or the file's name when the header has none.
    public var name: String
    /// The script's JavaScript, header included.
    public var source: String
    /// The `@match` patterns (`https://*.example.com/path/*`, `<all_urls>`).
    public var matches: [String]
    /// The `@include` patterns: globs where `*` is any text, or regular expressions written `/…/`.
    public var includes: [String]
    /// The `@exclude` patterns, written as `@include` ones: a URL matching one of them is left alone.
    public var excludes: [String]
    /// The `@run-at` time.
    public var runAt: RunAt

    /// Reads the header of `source`, the contents of the file named `fileName`, and checks that the script is
    /// valid JavaScript. Without `@match` and `@include`, the script runs on every page of its job.
    /// - Throws: `UserScriptError` naming the file and line when the header is missing or malformed, a pattern
    ///   is invalid, or the JavaScript does not parse.
    public init(source: String, fileName: String) throws(UserScriptError) {
        self.source = source
        self.name = fileName.split(separator: "/").last.map(String.init) ?? fileName
        matches = []
        includes = []
        excludes = []
        runAt = .documentIdle
        try readHeader(fileName: fileName)
        if let problem = UserScriptBody.syntaxProblem(in: source) {
            throw UserScriptError(fileName: fileName, line: problem.line, message: problem.message)
        }
    }

    /// Reads the file at `url` and its header.
    /// - Throws: `UserScriptError` when the file cannot be read as UTF-8, and what `init(source:fileName:)` throws.
    public init(contentsOf url: URL) throws(UserScriptError) {
        let bytes: Data
        do {
            bytes = try InputFile.read(url.path)
        } catch {
            throw UserScriptError(fileName: url.path, line: nil, message: "the file \(error)")
        }
        guard let source = String(data: bytes, encoding: .utf8) else {
            throw UserScriptError(fileName: url.path, line: nil, message: "the file is not UTF-8 text")
        }
        try self.init(source: source, fileName: url.path)
    }

    private mutating func readHeader(fileName: String) throws(UserScriptError) {
        let lines = source.split(separator: "\n", omittingEmptySubsequences: false).map {
            $0.trimmingWhitespace()
        }
        guard let start = lines.firstIndex(where: { $0.hasPrefix("//") && $0.dropFirst(2).trimmingSpaces() == "==UserScript==" }) else {
            throw UserScriptError(fileName: fileName, line: nil, message: "no \"// ==UserScript==\" header")
        }
        var index = start + 1
        while index < lines.count {
            let line = lines[index]
            let number = index + 1
            index += 1
            if line.isEmpty { continue }
            guard line.hasPrefix("//") else {
                throw UserScriptError(fileName: fileName, line: number, message: "expected a \"// @key value\" line or \"// ==/UserScript==\", got \"\(line)\"")
            }
            let content = line.dropFirst(2).trimmingSpaces()
            if content == "==/UserScript==" { return }
            guard content.hasPrefix("@") else {
                if content.isEmpty { continue }
                throw UserScriptError(fileName: fileName, line: number, message: "expected \"// @key value\", got \"\(line)\"")
            }
            let parts = content.dropFirst().split(maxSplits: 1, whereSeparator: \.isWhitespace)
            let key = String(parts[0])
            let value = parts.count > 1 ? parts[1].trimmingSpaces() : ""
            try apply(key: key, value: value, fileName: fileName, line: number)
        }
        throw UserScriptError(fileName: fileName, line: start + 1, message: "the header is never closed by \"// ==/UserScript==\"")
    }

    private mutating func apply(key: String, value: String, fileName: String, line: Int) throws(UserScriptError) {
        func needValue() throws(UserScriptError) {
            if value.isEmpty { throw UserScriptError(fileName: fileName, line: line, message: "@\(key) needs a value") }
        }
        switch key {
        case "name":
            try needValue()
            name = value
        case "match":
            try needValue()
            guard URLPattern.match(value) != nil else {
                throw UserScriptError(
                    fileName: fileName, line: line,
                    message: "@match: expected scheme://host/path (such as https://*.example.com/*) or <all_urls>, got \"\(value)\"")
            }
            matches.append(value)
        case "include", "exclude":
            try needValue()
            guard URLPattern.include(value) != nil else {
                throw UserScriptError(fileName: fileName, line: line, message: "@\(key): \"\(value)\" is not a valid regular expression")
            }
            if key == "include" { includes.append(value) } else { excludes.append(value) }
        case "run-at":
            guard let time = RunAt(rawValue: value) else {
                throw UserScriptError(
                    fileName: fileName, line: line, message: "@run-at: expected \(RunAt.allCases.map(\.rawValue).joined(separator: ", ")), got \"\(value)\"")
            }
            runAt = time
        default:
            // Other keys (@version, @grant, @namespace, @description…) say nothing webparse acts on.
            break
        }
    }
}

/// A user script that cannot be used, and where the problem is.
public struct UserScriptError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The script's file, as it was named.
    public var fileName: String
    /// The line of the problem, from 1, when it has one.
    public var line: Int?
    /// What is wrong.
    public var message: String

    /// Creates an error about `fileName` at `line`.
    public init(fileName: String, line: Int?, message: String) {
        self.fileName = fileName
        self.line = line
        self.message = message
    }

    /// `FILE:LINE: message`.
    public var description: String {
        "\(fileName)\(line.map { ":\($0)" } ?? ""): \(message)"
    }
}

/// How a user script's code is wrapped to run in a page, and whether it parses so wrapped.
enum UserScriptBody {
    /// The text before the script's code: its code starts on the wrapper's second line.
    /// An async function, so that the script may `await` at its top level, as in Tampermonkey.
    static let prefix = "(async function (webparse, unsafeWindow) {\n"
    /// The text after it.
    static let suffix = "\n})"

    /// `source` wrapped: a function expression.
    static func wrapped(_ source: String) -> String { prefix + source + suffix }

    /// Why `source` does not parse as a user script, with the line in `source`; nil when it does.
    static func syntaxProblem(in source: String) -> (line: Int?, message: String)? {
        guard let problem = JavaScriptSyntax.error(in: wrapped(source)) else { return nil }
        // An error at the end of the wrapper (an unclosed bracket) is on the script's last line.
        let lastLine = source.split(separator: "\n", omittingEmptySubsequences: false).count - (source.hasSuffix("\n") ? 1 : 0)
        let line = problem.line.flatMap { $0 > 1 ? min($0 - 1, max(lastLine, 1)) : nil }
        return (line, "JavaScript syntax error: \(problem.message)")
    }
}
