/// The decisions between the attempts of one job, made without WebKit or a clock: which attempt runs, whether
/// it runs alone in a web process of its own, whether a failure is retried, after how long, and by which deadline.
///
/// `WebParserRunner.run` feeds it each attempt's failure and the time, and carries out what it answers.
struct JobMachine {
    /// Where the job is.
    enum State: Equatable {
        /// The job has not begun.
        case idle
        /// Attempt `number` runs, beside other jobs' pages when the pool places it so, until `deadline`.
        case attempting(number: Int, deadline: ContinuousClock.Instant)
        /// Attempt `number` runs again alone, in a web process of its own, until the same `deadline`: its first
        /// run failed in a way another job's page may have caused. It runs again alone once, and does not count.
        case rerunningAlone(number: Int, deadline: ContinuousClock.Instant)
        /// Attempt `number` starts once the retry delay is over.
        case waitingToRetry(number: Int)
        /// The job succeeded or gave up.
        case ended
    }

    /// What `WebParserRunner.run` does next.
    enum Action: Equatable {
        /// Runs attempt `number` now, alone or not, by `deadline`.
        case run(number: Int, alone: Bool, deadline: ContinuousClock.Instant)
        /// Waits `delay`, then sends `.retryDue`.
        case wait(Duration)
        /// Reports the job's state.
        case report(WebParserState)
        /// Gives up with `error`.
        case fail(WebParserError)
    }

    /// What happened.
    enum Event {
        /// The job begins at `now`.
        case start(now: ContinuousClock.Instant)
        /// The attempt that ran ended with `error` at `now`.
        case attemptFailed(WebParserError, now: ContinuousClock.Instant)
        /// The retry delay is over at `now`.
        case retryDue(now: ContinuousClock.Instant)
        /// The attempt that ran succeeded.
        case succeeded
    }

    private(set) var state = State.idle
    private let timeout: Duration
    private let retry: RetryPolicy

    /// The machine of a job that gives each attempt `timeout` and retries as `retry` says.
    init(timeout: Duration, retry: RetryPolicy) {
        self.timeout = timeout
        self.retry = retry
    }

    /// Takes `event` and says what to do.
    mutating func handle(_ event: Event) -> [Action] {
        switch (state, event) {
        case (.idle, .start(let now)):
            return attempt(1, alone: false, deadline: now + timeout)
        case (.attempting(let number, let deadline), .attemptFailed(var error, let now)):
            error.attempts = number
            if error.runsAgainAlone, !error.stepsActed, deadline > now {
                state = .rerunningAlone(number: number, deadline: deadline)
                return [.report(.rerunningAlone(error: error)), .run(number: number, alone: true, deadline: deadline)]
            }
            return retryOrFail(after: number, error)
        case (.rerunningAlone(let number, _), .attemptFailed(var error, _)):
            error.attempts = number
            return retryOrFail(after: number, error)
        case (.waitingToRetry(let number), .retryDue(let now)):
            return attempt(number, alone: false, deadline: now + timeout)
        case (.attempting, .succeeded), (.rerunningAlone, .succeeded):
            state = .ended
            return [.report(.completed)]
        default:
            preconditionFailure("JobMachine: \(event) cannot happen in \(state)")
        }
    }

    private mutating func attempt(_ number: Int, alone: Bool, deadline: ContinuousClock.Instant) -> [Action] {
        state = .attempting(number: number, deadline: deadline)
        return [.run(number: number, alone: alone, deadline: deadline)]
    }

    private mutating func retryOrFail(after number: Int, _ error: WebParserError) -> [Action] {
        guard retry.retries(error), number <= retry.retries else {
            state = .ended
            return [.fail(error)]
        }
        state = .waitingToRetry(number: number + 1)
        return [
            .report(.retrying(attempt: number + 1, error: error)),
            .wait(retry.delay(beforeAttempt: number + 1, retryAfter: error.retryAfter))
        ]
    }
}
