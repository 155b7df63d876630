import FoundationEssentials

/// What a step waited for before it acted, once its element was there, on a page that had requests in flight or
/// work scheduled (a timer due, a script or frame loading, a request of its own code): how long, and the first
/// thing it waited for, in words.
public struct StepWait: Sendable, Equatable, CustomStringConvertible {
    /// How long the step waited for the page.
    public var duration: Duration
    /// The first thing it waited for, such as `a timer due in 300 ms`.
    public var what: String

    /// Creates a wait.
    public init(duration: Duration, what: String) {
        self.duration = duration
        self.what = what
    }

    /// `waited 312 ms for a timer due in 300 ms`.
    public var description: String { "waited \(duration.milliseconds) ms for \(what)" }
}
