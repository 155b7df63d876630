/// Where a job is. A job is `started` once, then for each attempt `loading` (repeatedly, with a progress that
/// only grows; `requested` once among them, as the page's request leaves) and `executingJavaScript` (once, after which no `loading` comes); between attempts `retrying`
/// or `rerunningAlone`; at the end `completed`, `failed` or `cancelled`.
public enum WebParserState: Sendable, Equatable {
    /// The job began (once per job, not per attempt).
    case started
    /// The attempt's page asked for its document: its request is on its way (once an attempt, among its `loading`
    /// states).
    case requested
    /// The page is loading; `progress` goes from 0 to 1.
    case loading(progress: Double)
    /// The page is there and the job's script is being evaluated until it yields data.
    case executingJavaScript
    /// Attempt `attempt` (2 for the first retry) will start after a delay because of `error`.
    case retrying(attempt: Int, error: WebParserError)
    /// The attempt that failed with `error` (number `error.attempts`) runs again at once, in a fresh tab in a web
    /// process of its own, in the time left of the attempt, and does not count: the failure may have been another
    /// job's doing (the web process it shared with another job's page ended or stopped answering), or the tab's
    /// (WebKit ended its load without a document). It runs again so once.
    case rerunningAlone(error: WebParserError)
    /// The job produced its result.
    case completed
    /// The job gave up with `error`.
    case failed(WebParserError)
    /// The job's task was cancelled.
    case cancelled
}
