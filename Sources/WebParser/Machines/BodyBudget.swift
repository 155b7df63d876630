import FoundationEssentials

/// The body bytes a job's records may hold (its capture's, or a HAR file's): each body within `bodyLimit`, all of
/// them together within `totalLimit`; and why a record holds no body, in words.
struct BodyBudget {
    let bodyLimit: Int
    let totalLimit: Int
    /// The body bytes taken so far.
    private(set) var held = 0

    /// The budget of `capture`'s limits, or the defaults of `WebParserJob.Capture` without one.
    init(_ capture: WebParserJob.Capture?) {
        bodyLimit = capture?.bodyLimit ?? WebParserJob.Capture.defaultBodyLimit
        totalLimit = capture?.totalLimit ?? WebParserJob.Capture.defaultTotalLimit
    }

    /// Takes `body`: nil when it fits both limits (it is counted then), else why it is left out.
    mutating func take(_ body: Data) -> CapturedResponse.Omission? {
        guard body.count <= bodyLimit else { return .overLimit }
        guard held + body.count <= totalLimit else { return .pastTotal }
        held += body.count
        return nil
    }

    /// Why a record holds no body, for `omission`.
    func reason(_ omission: CapturedResponse.Omission) -> String {
        switch omission {
        case .overLimit: "the body is larger than the limit of \(bodyLimit) bytes"
        case .pastTotal: "the records hold \(held) body bytes already, and the total limit is \(totalLimit)"
        case .opaque: "an opaque (no-cors) response: its body is hidden from the page itself"
        case .unreadable: "the page could not read the body"
        case .websocket: "a websocket: its messages are not recorded"
        case .eventStream: "an event stream (EventSource): its events are not recorded"
        }
    }
}
