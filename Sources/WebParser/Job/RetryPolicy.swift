/// How a job retries transient failures: each retry runs on a fresh page after a delay that doubles from
/// `delay` up to `maxDelay`.
public struct RetryPolicy: Sendable, Equatable {
    /// How many times a job is tried again after its first attempt fails transiently.
    public var retries: Int
    /// The wait before the first retry.
    public var delay: Duration
    /// The longest wait between two attempts.
    public var maxDelay: Duration
    /// Whether a time-out on a page that loaded, while only the script's data was missing, is retried too.
    public var retriesMissingData: Bool
    /// Whether a page of bot protection (`WebParserError.Kind.blocked`) is retried too.
    public var retriesBlocked = false

    /// Retries unless a policy says otherwise.
    public static let defaultRetries = 2
    /// The wait before the first retry unless a policy says otherwise.
    public static let defaultDelay: Duration = .seconds(1)

    /// Creates a policy; by default 2 retries, 1 s then 2 s apart, never more than 30 s, and a page that
    /// loaded without the script's data not retried.
    public init(
        retries: Int = defaultRetries, delay: Duration = defaultDelay, maxDelay: Duration = .seconds(30),
        retriesMissingData: Bool = false
    ) {
        self.retries = retries
        self.delay = delay
        self.maxDelay = maxDelay
        self.retriesMissingData = retriesMissingData
    }

    /// Whether `error`, the failure of an attempt, is tried again (attempts permitting).
    public func retries(_ error: WebParserError) -> Bool {
        error.isTransient || retriesMissingData && error.kind.isMissingData && !error.stepsActed
            || retriesBlocked && error.kind.isBlocked && !error.stepsActed
    }

    /// The wait before attempt `attempt` (2 for the first retry): the doubling delay, or as long as the server
    /// asked for in `retryAfter` if that is longer, but never more than `maxDelay`.
    public func delay(beforeAttempt attempt: Int, retryAfter: Duration? = nil) -> Duration {
        let exponent = min(max(attempt - 2, 0), 30)
        return min(max(delay * (1 << exponent), retryAfter ?? .zero), maxDelay)
    }
}
