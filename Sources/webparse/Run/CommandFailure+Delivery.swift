import WebParserCore

extension CommandFailure {
    /// The failure of a run's sink, with the exit code its kind calls for.
    init(_ failure: DeliveryFailure) {
        switch failure.kind {
        case .usage: self = .usage(failure.message)
        case .stateLocked: self.init(message: failure.message, code: .stateLocked)
        case .failed: self.init(message: failure.message, code: .jobFailed)
        }
    }
}
