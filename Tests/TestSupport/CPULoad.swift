import Foundation
import Synchronization

/// Threads that keep the machine's cores busy while a test runs, as other work on a loaded machine does.
public final class CPULoad: Sendable {
    private final class Switch: Sendable {
        let on = Atomic(true)
    }

    private let power = Switch()

    /// Starts `threads` threads that spin until `stop()`.
    public init(threads: Int = ProcessInfo.processInfo.activeProcessorCount) {
        for _ in 0..<threads {
            Thread { [power] in
                var count: UInt64 = 0
                while power.on.load(ordering: .relaxed) { count &+= 1 }
                _ = count
            }.start()
        }
    }

    /// Lets the threads end.
    public func stop() {
        power.on.store(false, ordering: .relaxed)
    }

    deinit { stop() }
}
