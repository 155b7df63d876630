import FoundationEssentials

/// What webparse's own code in a page tells the engine, in one format: an object with a `kind` and that kind's
/// fields. The script's evaluations (`PageScript`), the steps' calls (`StepScript`) and the bridge's posted
/// messages (`PageBridge`, which adds its `token`) all speak it, and `read` is its one decoder.
enum PageAnswer: Equatable {
    /// The script's answer is empty, or its wait does not hold yet; the text says what it last answered.
    case pending(String)
    /// The script's final answer, as JSON text, what made it final, in words, and the document's title.
    case settled(value: String, by: String?, title: String?)
    /// A call meant for the script already sent to the document reached a document without it.
    case notInstalled
    /// The script's value has no faithful JSON form; the text says why.
    case unsupported(String)
    /// The job's code threw, or a step cannot be done.
    case error(Failure)
    /// A step waited a whole slice without acting; the text says for what.
    case waiting(String)
    /// An `if` step's condition, decided on the settled page.
    case decided(Bool)
    /// The view must click this point of the viewport, in CSS pixels; `before` is the job's answer before, and
    /// `waited` what the step waited for.
    case clickAt(x: Double, y: Double, before: String?, waited: StepWait? = nil)
    /// The element has the focus for a key; `before` is the job's answer before, and `waited` what the step waited
    /// for.
    case focused(before: String?, waited: StepWait? = nil)
    /// The step is done: it acted (false when there was nothing to do), `before` is the job's answer before, and
    /// `waited` what the step waited for.
    case done(acted: Bool, before: String?, waited: StepWait? = nil)
    /// Whether the last click of a step landed on its element (true when it cannot be told).
    case clickChecked(Bool)
    /// There is no next page.
    case lastPage
    /// The next page is at this URL.
    case nextPage(String)
    /// A user script emitted this JSON text.
    case emitted(String)
    /// A user script said it has emitted everything (`webparse.done()`).
    case finished
    /// A console line.
    case console(level: String, text: String, source: SourceLocation?)
    /// A user script threw.
    case userScriptFailed(script: String, message: String, line: Int?)

    /// What went wrong in the page, with where when the job's own code threw.
    struct Failure: Equatable {
        var message: String
        var line: Int?
        var column: Int?
        /// The part of the job that failed, when webparse's code knows (`waitForSelector`).
        var part: String?
    }

    /// Reads `data`, and the bridge's token when the answer carries one; nil when it is no answer in this format
    /// (a page script may have replaced what webparse's code uses).
    static func read(_ data: Data) -> (answer: PageAnswer, token: String?)? {
        guard let wire = try? JSONDecoder().decode(Wire.self, from: data), let answer = wire.answer else { return nil }
        return (answer, wire.token)
    }

    /// The format as JSON: every field any kind has.
    private struct Wire: Decodable {
        struct Location: Decodable {
            var url: String
            var line: Int
            var column: Int
        }
        var kind: String
        var token: String?
        var text: String?
        var message: String?
        var line: Int?
        var column: Int?
        var part: String?
        var holds: Bool?
        var x: Double?
        var y: Double?
        var before: String?
        var acted: Bool?
        var url: String?
        var value: String?
        var level: String?
        var source: Location?
        var script: String?
        var title: String?
        var waited: Int?
        var waitedFor: String?

        /// What a step waited for, when it says.
        var wait: StepWait? {
            guard let waited, let waitedFor else { return nil }
            return StepWait(duration: .milliseconds(waited), what: waitedFor)
        }

        var answer: PageAnswer? {
            switch kind {
            case "pending": text.map(PageAnswer.pending)
            case "settled": value.map { .settled(value: $0, by: text, title: title) }
            case "notInstalled": .notInstalled
            case "unsupported": text.map(PageAnswer.unsupported)
            case "error": message.map { .error(Failure(message: $0, line: line, column: column, part: part)) }
            case "waiting": text.map(PageAnswer.waiting)
            case "decided": holds.map(PageAnswer.decided)
            case "clickAt": x.flatMap { x in y.map { .clickAt(x: x, y: $0, before: before, waited: wait) } }
            case "focused": .focused(before: before, waited: wait)
            case "done": .done(acted: acted ?? true, before: before, waited: wait)
            case "clickCheck": holds.map(PageAnswer.clickChecked)
            case "lastPage": .lastPage
            case "nextPage": url.map(PageAnswer.nextPage)
            case "emit": value.map(PageAnswer.emitted)
            case "finished": .finished
            case "console":
                level.map { .console(level: $0, text: text ?? "", source: source.map { SourceLocation(url: $0.url, line: $0.line, column: $0.column) }) }
            case "userScriptFailed": .userScriptFailed(script: script ?? "", message: message ?? "", line: line)
            default: nil
            }
        }
    }
}
