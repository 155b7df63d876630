import Synchronization

/// A value delivered at most once, awaited by one task.
///
/// Success, failure, the watchdog and cancellation all race to `resolve`; the first wins, the others get
/// `false` and change nothing. The awaiting continuation is taken out under the lock before it is resumed,
/// so it is resumed exactly once, even when `resolve` comes before `wait`.
final class OneShot<Value: Sendable>: Sendable {
    private enum State {
        case idle
        case waiting(CheckedContinuation<Value, Error>)
        case resolvedEarly(Result<Value, Error>)
        case done
    }

    private let state = Mutex<State>(.idle)

    /// Suspends until `resolve` is called, or returns at once if it was called already.
    /// - Throws: the error the winning `resolve` carried.
    func wait() async throws -> Value {
        try await withCheckedThrowingContinuation { continuation in
            let early: Result<Value, Error>? = state.withLock { state in
                switch state {
                case .idle:
                    state = .waiting(continuation)
                    return nil
                case .resolvedEarly(let result):
                    state = .done
                    return result
                case .waiting, .done:
                    preconditionFailure("a OneShot is awaited once")
                }
            }
            if let early { continuation.resume(with: early) }
        }
    }

    /// Delivers `result` unless something was delivered before; returns whether this call delivered it.
    @discardableResult
    func resolve(_ result: Result<Value, Error>) -> Bool {
        let (delivered, continuation): (Bool, CheckedContinuation<Value, Error>?) = state.withLock { state in
            switch state {
            case .idle:
                state = .resolvedEarly(result)
                return (true, nil)
            case .waiting(let continuation):
                state = .done
                return (true, continuation)
            case .resolvedEarly, .done:
                return (false, nil)
            }
        }
        continuation?.resume(with: result)
        return delivered
    }
}
