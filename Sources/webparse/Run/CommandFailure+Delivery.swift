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

    /// What `body` gives, setting up a sink.
    /// - Throws: `CommandFailure` made of the `DeliveryFailure` it throws.
    static func delivering<Value>(_ body: () throws(DeliveryFailure) -> Value) throws(CommandFailure) -> Value {
        do throws(DeliveryFailure) { return try body() } catch { throw CommandFailure(error) }
    }

    /// What `body` gives, setting up a sink.
    /// - Throws: `CommandFailure` made of the `DeliveryFailure` it throws.
    static func delivering<Value>(_ body: () async throws(DeliveryFailure) -> Value) async throws(CommandFailure) -> Value {
        do throws(DeliveryFailure) { return try await body() } catch { throw CommandFailure(error) }
    }
}
