import FoundationEssentials

/// The value a JavaScript call produced, or why it produced none.
enum JavaScriptReply: Sendable, Equatable {
    case undefined
    case null
    /// A string's contents, as UTF-8.
    case string(Data)
    /// Any other value, as JSON text.
    case json(Data)
    /// A value with no JSON form.
    case unserializable
    /// The call failed: a syntax error, or the page went away while it ran.
    case failed(PageError)
}
