import WebParser

/// Why a job of a run has no result: it failed, or it was not run.
package enum JobFailure: Error, Equatable, CustomStringConvertible {
    /// The job ran and failed.
    case failed(WebParserError)
    /// The job was not run, and why (a job it runs after failed or did not run).
    case notRun(String)

    /// The failure's stable name: the error's `code`, or `not-run`.
    package var code: String {
        switch self {
        case .failed(let error): error.code.rawValue
        case .notRun: "not-run"
        }
    }

    /// How many attempts the job made: none when it was not run.
    package var attempts: Int {
        switch self {
        case .failed(let error): error.attempts
        case .notRun: 0
        }
    }

    /// The failure in words, as stderr and `--jsonl` records say it.
    package var description: String {
        switch self {
        case .failed(let error): error.description
        case .notRun(let reason): "not run: \(reason)"
        }
    }
}
