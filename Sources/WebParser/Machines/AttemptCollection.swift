import FoundationEssentials

/// What an attempt collects for its result, as its job's `collect` says (`Collector`): the script's answers over a
/// list's pages, with an answer held while bodies are on their way and the items an extraction left out; or the
/// values user scripts emit; or the responses the capture records; and, of the last answer, what made it final,
/// its links and its document's title.
struct AttemptCollection {
    /// What the attempt collects, with that mode's data.
    enum Collector {
        /// The script's answers, over the pages of a list spread over pages (`PageTurner`).
        case result(PageTurner)
        /// The values user scripts emitted, in order, as JSON text.
        case emitted([Data])
        /// The responses the capture records (kept in `AttemptTraffic`); the script's answer says when they are
        /// complete.
        case responses
        /// Out of the collection while it changes, so that its data is not copied; never seen outside.
        case modifying
    }

    /// What the attempt does with a final answer of the script's.
    enum Next: Equatable {
        /// Concludes with this result.
        case succeed(Data)
        /// Concludes with the responses, once they are complete.
        case readResponses
        /// Takes this answer as the list of the page: its next page is looked for, or it is the result.
        case turn(Data)
    }

    private(set) var collector: Collector
    private let readsLinks: Bool
    /// The script's answer, held while bodies the capture (or a HAR file) wants are on their way: the page is read
    /// again once they came, or this is the result at the timeout.
    private var heldAnswer: Data?
    /// How many items of an extraction's pages were left out for lacking a required field.
    private(set) var itemsLeftOut = 0
    /// What made the script's last answer final, in words, as the page said, its links (`Evaluation.links`) and its
    /// document's title.
    private var settledBy: String?
    private var links: [String]?
    private var title: String?

    /// What an attempt of `job` collects.
    init(job: WebParserJob) {
        readsLinks = job.evaluation.links != nil
        collector =
            switch job.evaluation.collect {
            case .result: .result(PageTurner(pagination: job.evaluation.pagination, pollInterval: job.evaluation.pollInterval))
            case .emitted: .emitted([])
            case .responses: .responses
            }
    }

    /// What to do with `answer`, final on the page: it keeps what the answer says besides its result (what made it
    /// final, its document's title and, for a job that reads links, its links).
    mutating func answered(_ answer: Data, settledBy: String?, title: String?) -> Next {
        self.settledBy = settledBy
        self.title = title.flatMap { $0.isEmpty ? nil : $0 }
        let list = readsLinks ? withoutLinks(answer) : answer
        switch collector {
        case .emitted(let values): return .succeed(JSONText.array(values))
        case .responses: return .readResponses
        case .result: return .turn(list)
        case .modifying: preconditionFailure("AttemptCollection: an answer while the collector changes")
        }
    }

    /// `answer`'s result, its links (`{"result": …, "links": […]}`) kept.
    private mutating func withoutLinks(_ answer: Data) -> Data {
        let bytes = Array(answer)
        guard let node = try? JSONNode.parse(bytes, rules: .lenient), let result = node["result"] else {
            links = []
            return answer
        }
        links = node["links"]?.array?.compactMap(\.string) ?? []
        return Data(bytes[result.span])
    }

    /// Keeps `json`, a value a user script emitted, for a job that collects them.
    mutating func emit(_ json: Data) {
        guard case .emitted(var values) = collector else { return }
        collector = .modifying
        values.append(json)
        collector = .emitted(values)
    }

    /// Holds `answer`, final on the page, while bodies the capture wants are on their way.
    mutating func hold(_ answer: Data) {
        heldAnswer = answer
    }

    /// Lets go of the answer held, once the bodies came; true when one was held (the page is then read again).
    mutating func releaseHeldAnswer() -> Bool {
        defer { heldAnswer = nil }
        return heldAnswer != nil
    }

    /// The values emitted, as a JSON array, for a job that collects them; nil for another.
    var emittedValues: Data? {
        if case .emitted(let values) = collector { JSONText.array(values) } else { nil }
    }

    /// Whether a page of a list has been read: a time-out then ends the job with the pages read so far.
    var hasPages: Bool {
        if case .result(let pages) = collector { pages.hasPages } else { false }
    }

    /// Takes `list`, the list of the current page, of which an extraction left out `leftOut` items: the page turner
    /// says what follows (the next page is looked for, or the result is made, or the page is read again).
    mutating func turn(_ list: Data, leftOut: Int) -> [PageTurner.Command] {
        let commands = turningPages { $0.read(list) }
        // The page's list was taken (the next page is looked for, or the result is made).
        if commands.contains(where: { if case .read = $0 { false } else { true } }) { itemsLeftOut += leftOut }
        return commands
    }

    /// The page turner's commands for `reply`, the page's answer to its call `call` that looked for the next page.
    mutating func found(_ reply: JavaScriptReply, call: Int) -> [PageTurner.Command] {
        turningPages { $0.found(reply, call: call) }
    }

    /// Runs `body` on the page turner of a job that collects its script's result; nothing for another.
    private mutating func turningPages(_ body: (inout PageTurner) -> [PageTurner.Command]) -> [PageTurner.Command] {
        guard case .result(var pages) = collector else { return [] }
        collector = .modifying
        defer { collector = .result(pages) }
        return body(&pages)
    }

    /// The attempt's result of `data`, read at `url` whose main document came with `httpStatus`.
    func result(_ data: Data, url: String, httpStatus: Int, cutShort: String? = nil, atTimeOut: Bool = false) -> AttemptResult {
        AttemptResult(
            data: data, url: url, httpStatus: httpStatus, cutShort: cutShort, endedAtTimeOut: atTimeOut, itemsLeftOut: itemsLeftOut,
            settledBy: atTimeOut ? nil : settledBy, links: links, title: title)
    }

    /// What a time-out leaves as a result, and why it is cut short; nil when nothing was collected. `responses` are
    /// the responses captured so far, for a job that collects them.
    func atTimeOut(responses: (json: Data, count: Int)?) -> (data: Data, cutShort: String)? {
        switch collector {
        case .result(let pages) where pages.hasPages:
            return (pages.combined, "page \(pages.count + 1) timed out; the result holds the \(pages.count) pages read")
        case .result:
            guard let heldAnswer else { return nil }
            return (heldAnswer, "timed out while bodies of responses the capture wants were on their way; the records hold those that came")
        case .emitted(let values) where !values.isEmpty:
            let count = "\(values.count) value\(values.count == 1 ? "" : "s")"
            return (JSONText.array(values), "timed out before webparse.done(); the result holds the \(count) emitted until then")
        case .emitted:
            return nil
        case .responses:
            guard let (json, count) = responses else { return nil }
            return (json, "timed out before the page settled; the result holds the \(count) response\(count == 1 ? "" : "s") captured until then")
        case .modifying:
            preconditionFailure("AttemptCollection: a time-out while the collector changes")
        }
    }

    /// What a paginated job that failed with `error` after its first page leaves as a result; nil before.
    func afterFailure(_ error: WebParserError) -> (data: Data, cutShort: String)? {
        guard case .result(let pages) = collector, pages.hasPages, !error.runsAgainAlone else { return nil }
        return (pages.combined, "page \(pages.count + 1) could not be read (\(error)); the result holds the \(pages.count) pages read")
    }
}
