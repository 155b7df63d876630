import FoundationEssentials

/// The JavaScript webparse runs around a job's script, and what the page's replies to it mean.
///
/// The job's script is an expression. The wrapper evaluates it, calls it if it is a function, and awaits it if
/// it is a Promise. While the result is empty it waits inside the page for the next DOM change (a
/// MutationObserver) or for the poll interval, whichever comes first, and evaluates again, for one time slice;
/// so a result is seen within milliseconds of the change that makes it, and the Swift side gets control back
/// at the end of every slice. It replies with a `pending` answer (`PageAnswer`: what the script or its wait last answered) when the
/// slice ends without data, with the result's JSON text once there is data, or with a small object describing
/// an exception or a value that is not data (`PageAnswer` too). An exception thrown while the document is still being parsed
/// counts as "not yet": the element the script needs may be further down the HTML. Once the job's wait
/// (`waitFor`, `waitForSelector`) holds, the script's result is final, empty included. Without a wait, a
/// non-empty answer is final once the page has settled: the answer unchanged, and none of the page's data
/// requests in flight, for the settle time the call asks for (pages append list items one by one, and re-render
/// after their requests); until then the slice goes on and replies `pending` saying what it waits for.
struct PageScript: Sendable {
    /// The name the wrapper's code has in JavaScript error messages.
    static let sourceName = "webparse-script"

    /// How long one call waits inside the page for data before it returns empty.
    static let slice: Duration = .milliseconds(500)
    /// How long an empty answer that counts (`emptyIsAnswer`) must stay the same before it is the result, at least.
    static let emptyHold: Duration = .seconds(1)

    /// The body of the async function that defines the slice's functions and keeps them in the document (under
    /// a name of its own, not enumerable), without calling them: what `body` sends once per document.
    private let installation: String
    /// The key of the document's slice functions, as a JavaScript string literal.
    private let key: String
    private let scriptLineCount: Int
    private let waitForLineCount: Int

    private let script: String
    private let waitFor: String?
    /// Whether the script's answer is final as soon as the job's wait holds (`waitFor`, `waitForSelector`).
    let isFinalOnceWaitHolds: Bool
    /// The page's quiet state, which an answer waits for before it is final.
    let quiet: PageQuiet

    /// Wraps `script`, a job's script, to be evaluated once `waitFor` (if any) is truthy and an element matches
    /// `waitForSelector` (if any), again on every DOM change and at least every `pollInterval`; without either
    /// wait, an answer is final once it has stayed the same while the page was quiet for the settle time each call
    /// asks for (`quiet`). With `emptyIsAnswer`, an empty answer settles like any other (an extraction's list
    /// that is empty); `emptyText` says what an empty answer means while it does not count (nil: that the script
    /// returned it).
    init(
        _ script: String, waitFor: String? = nil, waitForSelector: String? = nil,
        pollInterval: Duration = .milliseconds(100), emptyIsAnswer: Bool = false, emptyText: String? = nil,
        lookAhead: Duration = Evaluation.defaultLookAhead, links: String? = nil
    ) {
        quiet = PageQuiet(lookAhead: lookAhead)
        self.script = Self.trimmed(script)
        self.waitFor = waitFor.map(Self.trimmed)
        isFinalOnceWaitHolds = waitFor != nil || waitForSelector != nil
        let waitForCode = self.waitFor ?? "true"
        let name = "webparse-slice-" + UUID().uuidString
        key = JavaScriptSyntax.literal(name)
        let settings = JSONText.Value.object([
            ("key", .string(name)), ("sourceName", .string(Self.sourceName)), ("sliceMs", .integer(Int(Self.slice.milliseconds))),
            ("pollMs", .integer(Int(pollInterval.milliseconds))), ("busyMs", .integer(Int(RequestTracker.longLived.milliseconds))),
            ("lookAheadMs", .integer(Int(lookAhead.milliseconds))), ("emptyHoldMs", .integer(Int(Self.emptyHold.milliseconds))),
            ("waitForSelector", waitForSelector.map(JSONText.Value.string) ?? .null), ("final", .bool(isFinalOnceWaitHolds)),
            ("emptyIsAnswer", .bool(emptyIsAnswer)), ("emptyText", emptyText.map(JSONText.Value.string) ?? .null),
            ("links", links.map(JSONText.Value.string) ?? .null), ("linksHoldMs", .integer(Int(Evaluation.defaultSettle.milliseconds)))
        ])
        // The job's code sees only its own two names: webparse's code is in a function of its own, so that none
        // of its names hides a global of the page's that the job's code reads.
        installation =
            "const script = () => (\n\(self.script)\n);\nconst waitFor = () => (\n\(waitForCode)\n);\n"
            + ScriptSource.call(
                ScriptSource.slice, "script", "waitFor", JSONText.text(settings), quiet.functions, ScriptSource.resolved) + ";\n"
        scriptLineCount = JavaScriptSyntax.lineCount(self.script)
        waitForLineCount = JavaScriptSyntax.lineCount(waitForCode)
    }

    /// The wrapper of `evaluation`'s script and waits. For a large script this takes a while: make it off the
    /// WebKit thread.
    /// A job that collects responses without a script waits for the page to settle as if its script answered
    /// `true`; an extraction is read by its own script, whose empty list is an answer, and whose object of fields
    /// that are all missing or empty is not.
    init(for evaluation: Evaluation) {
        let collectsOnlyResponses = evaluation.collect == .responses && evaluation.script.allSatisfy(\.isWhitespace)
        let script = evaluation.extract.map(ExtractionScript.source) ?? (collectsOnlyResponses ? "true" : evaluation.script)
        let readsOneObject = evaluation.extract != nil && evaluation.extract?.items == nil
        self.init(
            script, waitFor: evaluation.waitFor, waitForSelector: evaluation.waitForSelector, pollInterval: evaluation.pollInterval,
            emptyIsAnswer: evaluation.extract?.items != nil || evaluation.links != nil,
            emptyText: readsOneObject ? ExtractionScript.nothingMatched : nil, lookAhead: evaluation.lookAhead, links: evaluation.links)
    }

    /// The body of a call that evaluates the script for one slice, with requests in flight or not (`busy`), an
    /// answer final once unchanged for `settle` while the page was quiet (zero: at once), or once no request is
    /// in flight in a document that nothing can change any more (`stillness`, `PageQuiet`). With `installed`
    /// false, it first sends the whole script (once per document); with `installed`, a few bytes, whatever the
    /// script's size, which answer `{"notInstalled": true}` in a document the script was not sent to.
    /// With `responses` (a JSON array), a script that is a function gets them as its argument from this call on.
    func body(
        installed: Bool, busy: Bool, document: PageQuiet.Document, settle: Duration, responses: Data? = nil
    ) -> String {
        let give = responses.map { "window[\(key)].setResponses(\(String(decoding: $0, as: UTF8.self)));\n" } ?? ""
        let call = give + "return await window[\(key)].slice(\(settle.milliseconds), \(busy), \(document.arguments));\n"
        return installed ? "if (!window[\(key)]) return { __proto__: null, kind: \"notInstalled\" };\n" + call : installation + call
    }

    /// The body of a call that gives a script of the responses `responses` (a JSON array), the records as they are
    /// now, in a document the script was sent to, so that a slice waiting for its answer to settle reads them.
    func responsesBody(_ responses: Data) -> String {
        "window[\(key)]?.setResponses(\(String(decoding: responses, as: UTF8.self)));\nreturn null;\n"
    }

    /// The body of a call that sends the script to the current document without evaluating it, so that a step
    /// can read the script's answer just before it acts (`probe`).
    var installBody: String { installation + "return null;\n" }

    /// A JavaScript expression whose value is a Promise of the script's answer now, as JSON text, or null when
    /// it is empty, throws or the script was not sent to the document (`installBody`).
    var probe: String { "(window[\(key)]?.probe() ?? null)" }

    /// What one evaluation found.
    enum Outcome: Equatable {
        /// `null`, `undefined`, `""`, `[]` or `{}` before the wait holds, or the wait not holding yet: evaluate
        /// again later. What the script or the wait last answered, in words, when the page said.
        case empty(lastAnswer: String?)
        /// The result, as UTF-8 JSON text on one line, what made it final, in words, and the document's title then,
        /// when the page said.
        case value(Data, settledBy: String? = nil, title: String? = nil)
        /// The script is wrong; no later evaluation can do better.
        case failure(WebParserError.Kind)
        /// The script or `waitFor` does not parse; `explained(_:)` says why in the terms of its own code.
        case syntaxError(ScriptFailure)
        /// The evaluation could not run (the page was replaced or is going away); evaluate again later.
        case interrupted
        /// A call made with `installed` reached a document the script was not sent to: send it.
        case notInstalled
    }

    /// What `reply`, the page's answer to a `body` call, means.
    func outcome(of reply: JavaScriptReply) -> Outcome {
        switch reply {
        case .undefined, .null:
            return .empty(lastAnswer: nil)
        case .string(let json):
            return Self.result(json)
        case .json(let object):
            switch PageAnswer.read(object)?.answer {
            case .settled(let value, let by, let title)?:
                guard case .value(let data, _, _) = Self.result(Data(value.utf8)) else { return Self.result(Data(value.utf8)) }
                return .value(data, settledBy: by, title: title)
            case .pending(let text)?:
                return .empty(lastAnswer: text)
            case .notInstalled?:
                return .notInstalled
            case .unsupported(let text)?:
                return .failure(.unsupportedResult(text))
            case .error(let error)? where error.part == "waitForSelector":
                return .failure(.scriptFailed(ScriptFailure(message: error.message, part: .waitForSelector)))
            case .error(let error)?:
                let place = locate(error.line)
                return .failure(
                    .scriptFailed(
                        ScriptFailure(
                            message: error.message, line: place?.line,
                            column: place == nil ? nil : error.column,
                            part: place?.part ?? .script)))
            default:
                return .failure(.unsupportedResult("an unexpected value"))
            }
        case .unserializable:
            return .failure(.unsupportedResult("a value without a JSON form"))
        case .failed(let error):
            if error.kind == .scriptFailed, let failure = syntaxError(in: error.message) { return .syntaxError(failure) }
            return .interrupted
        }
    }

    /// `json`, the script's answer: JSON text on one line, or a failure when the page's scripts made it something
    /// else (they can replace `JSON.stringify`). In valid JSON a raw line break can only be whitespace between
    /// tokens, so it can go.
    private static func result(_ json: Data) -> Outcome {
        guard JSONTextCheck.isJSON(json) else {
            return .failure(.unsupportedResult("text that is not JSON (has the page replaced JSON.stringify?)"))
        }
        return .value(json.contains { $0 == 0x0A || $0 == 0x0D } ? json.filter { $0 != 0x0A && $0 != 0x0D } : json)
    }

    /// The script without surrounding blanks and trailing semicolons, which cannot end an expression. Scans
    /// from both ends only, so that a script of many megabytes costs one copy.
    private static func trimmed(_ script: String) -> String {
        let scalars = script.unicodeScalars
        var start = scalars.startIndex
        var end = scalars.endIndex
        while start < end, scalars[start].properties.isWhitespace { scalars.formIndex(after: &start) }
        while start < end {
            let last = scalars[scalars.index(before: end)]
            guard last.properties.isWhitespace || last == ";" else { break }
            scalars.formIndex(before: &end)
        }
        return String(scalars[start..<end])
    }

    /// `location`, a place in the code webparse runs, as a place in the job's own code (`script:1:13`,
    /// `waitFor:2:5`); other places as they are.
    func ownPlace(of location: SourceLocation) -> SourceLocation {
        guard location.url == Self.sourceName, let place = locate(location.line) else { return location }
        return SourceLocation(url: place.part == .waitFor ? "waitFor" : "script", line: place.line, column: location.column)
    }

    /// The part and line of the job's code for a line of the function body: the script starts on line 2,
    /// `waitFor` three lines after the script's end. An error on the line that closes a part (an unclosed
    /// bracket) belongs to that part's last line.
    private func locate(_ line: Int?) -> (part: ScriptFailure.Part, line: Int)? {
        guard let line else { return nil }
        let waitForStart = scriptLineCount + 4
        switch line {
        case 2...(scriptLineCount + 2): return (.script, min(line - 1, scriptLineCount))
        case waitForStart...(waitForStart + waitForLineCount): return (.waitFor, min(line - waitForStart + 1, waitForLineCount))
        default: return nil
        }
    }

    /// A syntax error in the script, from a message like `webparse-script:4: SyntaxError: Unexpected token`
    /// (JavaScriptCore gives no column for these), located in the part's lines.
    private func syntaxError(in message: String) -> ScriptFailure? {
        let parts = message.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0] == Self.sourceName, let line = Int(parts[1]) else { return nil }
        let place = locate(line)
        return ScriptFailure(
            message: parts[2].trimmingSpaces(), line: place?.line,
            part: place?.part ?? .script)
    }

    /// `failure`, a syntax error of the wrapped code, said in the terms of the part's own code: its own parse
    /// error when it is not JavaScript at all (not a token of the wrapper), that it holds statements when it
    /// parses only as those, and a hint when it looks like a CSS selector. It parses the code again
    /// (`JavaScriptSyntax`, safe from any thread), which for a large script takes a while: the engine calls it
    /// off the WebKit thread.
    func explained(_ failure: ScriptFailure) -> ScriptFailure {
        let source = failure.part == .waitFor ? waitFor ?? "" : script
        var failure = failure
        if let own = JavaScriptSyntax.error(in: source) {
            failure.message = "SyntaxError: " + own.message
            failure.line = own.line
        } else {
            failure.message =
                "SyntaxError: statements where an expression is expected; write them as a function, "
                + "such as () => { …; return value; }"
            failure.line = nil
        }
        failure.hint = JavaScriptSyntax.looksLikeSelector(source) ? Self.selectorHint(source, part: failure.part) : nil
        return failure
    }

    private static func selectorHint(_ selector: String, part: ScriptFailure.Part) -> String {
        let literal = JavaScriptSyntax.literal(selector.trimmingWhitespace())
        return part == .waitFor
            ? "\(literal) looks like a CSS selector: write \"waitForSelector\": \(literal), or document.querySelector(\(literal))"
            : "\(literal) looks like a CSS selector: the script is JavaScript, such as Array.from(document.querySelectorAll(\(literal)), e => e.textContent)"
    }
}
