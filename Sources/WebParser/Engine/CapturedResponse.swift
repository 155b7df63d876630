import FoundationEssentials

/// A response a page's script read (`fetch`, `XMLHttpRequest`), as webparse's web process extension captured it.
struct CapturedResponse: Sendable, Equatable {
    /// Why a response came without its body.
    enum Omission: String, Sendable, Equatable {
        /// Larger than the body limit the page was given.
        case overLimit = "over-limit"
        /// A `no-cors` response: its body is hidden from the page itself.
        case opaque
        /// The page could not read it (the request was aborted while the body arrived).
        case unreadable
        /// The job's records hold as many body bytes as its total limit allows.
        case pastTotal = "past-total"
        /// A websocket, recorded as it opened: its messages are no response.
        case websocket
        /// An event stream (`EventSource`), recorded as it opened: its events are no response.
        case eventStream = "event-stream"
    }

    var kind: WebParserJob.Capture.Kind
    var url: String
    var method: String
    var status: Int
    var mimeType: String
    /// Whether the main frame's document made the request (false: an iframe's).
    var mainFrame: Bool
    /// Whether `body` holds the exact bytes the server sent (false: text the page decoded).
    var exact: Bool
    /// The body's whole size in bytes, also when it is not here.
    var size: Int
    /// The body; nil when `omitted` says why not.
    var body: Data?
    var omitted: Omission?
    /// The read (`ScriptRead.id`) this response ends; 0 for a websocket or an event stream, which no read started.
    var read: UInt64 = 0
}

/// A request a page's script made whose response it may read (a fetch, an XHR sent), as webparse's hook saw it
/// start: its body is on its way until its record (`CapturedResponse.read`) or its end comes.
struct ScriptRead: Sendable, Equatable {
    /// The read's number, for the page's documents.
    var id: UInt64
    var method: String
    /// The URL the script asked for, before any redirect.
    var url: String
}
