import Dispatch
import FoundationEssentials
import Glibc
import WebParserCore
import Synchronization

/// Turns SIGINT, SIGTERM and SIGHUP into task cancellation, so jobs stop through the same path as any cancellation,
/// and makes sure the process ends soon after even if something does not stop.
final class SignalTrap {
    /// How long a cancelled run may take to wind down before the process exits anyway.
    static let gracePeriod: DispatchTimeInterval = .milliseconds(900)

    private let received = FirstSignal()
    private let sources: [any DispatchSourceSignal]

    /// Starts trapping; on the first signal `task` is cancelled, and the process exits with `128 + signal`
    /// after the grace period if it is still running.
    init<Success>(cancelling task: Task<Success, Never>) {
        let received = self.received
        sources = [SIGINT, SIGTERM, SIGHUP].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                guard received.record(number) else { return }
                task.cancel()
                DispatchQueue.global().asyncAfter(deadline: .now() + SignalTrap.gracePeriod) {
                    ProcessExit.exit(128 + number)
                }
            }
            source.resume()
            return source
        }
    }

    /// The exit code for the signal received, if one was.
    var interruption: ExitCode? {
        received.number.map { number in
            switch number {
            case SIGINT: .interrupted
            case SIGHUP: .hangUp
            default: .terminated
            }
        }
    }

    private final class FirstSignal: Sendable {
        private let value = Mutex<Int32?>(nil)

        var number: Int32? { value.withLock { $0 } }

        /// Records `number` if no signal came before; returns whether it did.
        func record(_ number: Int32) -> Bool {
            value.withLock { value in
                guard value == nil else { return false }
                value = number
                return true
            }
        }
    }
}
