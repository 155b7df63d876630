import FoundationEssentials
import WebParser

/// Why a page of a crawl or a follow has no result, as it is written in the result's place: `{"error", "code"}`,
/// `code` a `WebParserError.Code` name, or `noURL` for a list's item that names no page to follow.
public struct PageFailure: Error, Sendable, Equatable {
    /// What went wrong, in words.
    public var message: String
    /// A stable name for it.
    public var code: String

    /// The failure `message`, named `code`.
    public init(message: String, code: String) {
        self.message = message
        self.code = code
    }

    /// The failure of a page whose job failed with `error`.
    public init(_ error: WebParserError) {
        self.init(message: error.description, code: error.code.rawValue)
    }

    /// The `code` of an item that names no page to follow.
    public static let noURLCode = "noURL"

    /// The record's members: `"error"` and `"code"`.
    package var members: [(key: String, value: JSONText.Value)] {
        [("error", .string(message)), ("code", .string(code))]
    }

    /// The record: `{"error", "code"}`.
    public var record: Data { JSONText.object(members) }
}
