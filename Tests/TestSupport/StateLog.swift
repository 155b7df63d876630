import Synchronization
import WebParser

/// Collects a job's states, in order.
public final class StateLog: Sendable {
    private let storage = Mutex<[WebParserState]>([])

    public init() {}

    /// The states recorded so far.
    public var states: [WebParserState] { storage.withLock { $0 } }

    /// Records `state`; pass it as a job's `onStateChange`.
    @Sendable public func record(_ state: WebParserState) { storage.withLock { $0.append(state) } }
}
