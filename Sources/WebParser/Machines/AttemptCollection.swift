import FoundationEssentials

/// What an attempt collects for its result, as its job's `collect` says: the script's answers over a list's pages
/// (`PageTurner`), with an answer held while bodies are on their way and the items an extraction left out; or the
/// values user scripts emit; and, of the last answer, what made it final, its links and its document's title. (The
/// responses a job collects are the capture's, in `AttemptTraffic`.)
struct AttemptCollection {
    private let collect: WebParserJob.Collect
    private let readsLinks: Bool
    /// The pages of a list spread over pages.
    var pages: PageTurner
    /// The values user scripts emitted, in order, as JSON text, for a job that collects them.
    private(set) var emitted: [Data] = []
    /// The script's answer, held while bodies the capture (or a HAR file) wants are on their way: the page is read
    /// again once they came, or this is the result at the timeout.
    var heldAnswer: Data?
    /// How many items of an extraction's pages were left out for lacking a required field.
    private(set) var itemsLeftOut = 0
    /// What made the script's last answer final, in words, as the page said, its links (`Evaluation.links`) and its
    /// document's title.
    private var settledBy: String?
    private var links: [String]?
    private var title: String?

    /// What an attempt of `job` collects.
    init(job: WebParserJob) {
        collect = job.evaluation.collect
        readsLinks = job.evaluation.links != nil
        pages = PageTurner(pagination: collect == .result ? job.evaluation.pagination : nil, pollInterval: job.evaluation.pollInterval)
    }

    /// Keeps what the answer `data` says besides its result: what made it final, its document's title and, for a job
    /// that reads links, its links. Returns the result.
    mutating func answered(_ data: Data, settledBy: String?, title: String?) -> Data {
        self.settledBy = settledBy
        self.title = title.flatMap { $0.isEmpty ? nil : $0 }
        guard readsLinks else { return data }
        let bytes = Array(data)
        guard let node = try? JSONNode.parse(bytes, rules: .lenient), let result = node["result"] else {
            links = []
            return data
        }
        links = node["links"]?.array?.compactMap(\.string) ?? []
        return Data(bytes[result.span])
    }

    /// Keeps `json`, a value a user script emitted, for a job that collects them.
    mutating func emit(_ json: Data) {
        if collect == .emitted { emitted.append(json) }
    }

    /// The values emitted, as a JSON array.
    var emittedValues: Data { JSONText.array(emitted) }

    /// Counts `count` items an extraction left out of a page whose list was taken.
    mutating func leftOut(_ count: Int) {
        itemsLeftOut += count
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
        if pages.hasPages { return (pages.combined, "page \(pages.count + 1) timed out; the result holds the \(pages.count) pages read") }
        if collect == .emitted && !emitted.isEmpty {
            let values = "\(emitted.count) value\(emitted.count == 1 ? "" : "s")"
            return (emittedValues, "timed out before webparse.done(); the result holds the \(values) emitted until then")
        }
        if let heldAnswer {
            return (heldAnswer, "timed out while bodies of responses the capture wants were on their way; the records hold those that came")
        }
        if collect == .responses, let (json, count) = responses {
            return (json, "timed out before the page settled; the result holds the \(count) response\(count == 1 ? "" : "s") captured until then")
        }
        return nil
    }

    /// What a paginated job that failed with `error` after its first page leaves as a result; nil before.
    func afterFailure(_ error: WebParserError) -> (data: Data, cutShort: String)? {
        guard pages.hasPages, !error.mayBeAnotherJobsDoing else { return nil }
        return (pages.combined, "page \(pages.count + 1) could not be read (\(error)); the result holds the \(pages.count) pages read")
    }
}
