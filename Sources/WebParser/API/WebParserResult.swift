import FoundationEssentials

/// What a job produced: its data and where it came from.
public struct WebParserResult: Sendable, Equatable {
    /// The script's result (or the array of emitted values) as UTF-8 JSON text, exactly as the page produced it.
    public var data: Data
    /// The page's URL when the result came, after redirects and in-page navigation.
    public var finalURL: String
    /// The main document's HTTP status; nil for pages without one (`file:` URLs).
    public var httpStatus: Int?
    /// How many attempts the job took (1 when the first succeeded).
    public var attempts: Int
    /// Why the result is not complete, in words; nil when it is. A job collecting emitted values that ran out
    /// of time before a user script called `webparse.done()` (`data` holds the values emitted until then), or a
    /// paginated job that could not read its next page (`data` holds the pages read until then).
    public var cutShort: String?
    /// Whether the result is whole: `cutShort` is nil.
    public var isComplete: Bool { cutShort == nil }
    /// How many items of an extraction's list (`Evaluation.extract`) were left out because a required field was
    /// missing or empty.
    public var itemsLeftOut = 0
    /// What made the answer final, in words: "waitFor held", "nothing pending" (after what the page had pending,
    /// such as "a timer due in 600 ms"), "the document cannot change", or, on a page where something always stays
    /// pending, that the answer stayed the same for the settle time and why ("an open websocket…"); nil when the
    /// page did not say (emitted values, a result cut short).
    public var settledBy: String?
    /// The links the page had once its answer was final, when the job read them (`Evaluation.links`): absolute
    /// URLs, each once, in the page's order; nil when it did not.
    public var links: [String]?
    /// The main document's title when the answer came (its `<title>`, or what its scripts set); nil when it had
    /// none.
    public var title: String?

    /// The number of elements of `data` when it is a JSON array (a list, or the emitted values); nil for
    /// another value. Counted by scanning the text, at any depth.
    public var arrayLength: Int? { JSONTextCheck.arrayLength(of: data) }

    /// Creates a result.
    public init(data: Data, finalURL: String, httpStatus: Int?, attempts: Int, cutShort: String? = nil) {
        self.data = data
        self.finalURL = finalURL
        self.httpStatus = httpStatus
        self.attempts = attempts
        self.cutShort = cutShort
    }
}
