import FoundationEssentials

/// What a successful attempt produced.
struct AttemptResult: Sendable, Equatable {
    /// The script's first non-empty result, or the array of emitted values, as JSON text.
    var data: Data
    /// The page's URL when the result came.
    var url: String
    /// The main document's HTTP status; 0 when there is none (a `file:` URL).
    var httpStatus: Int
    /// Why it is not complete (emitted values or pages cut short), in words; nil when it is whole.
    var cutShort: String?
    /// Whether the result is whole.
    var isComplete: Bool { cutShort == nil }
    /// Whether the attempt ended at its timeout (with what it had read): its page may not answer any more.
    var endedAtTimeOut = false
    /// How many items of an extraction's list were left out for lacking a required field.
    var itemsLeftOut = 0
    /// What made the answer final, in words (`WebParserResult.settledBy`).
    var settledBy: String?
    /// The links read with the answer (`WebParserResult.links`).
    var links: [String]?
    /// The main document's title when the answer came (`WebParserResult.title`).
    var title: String?
}
