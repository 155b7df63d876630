import CWebKitGTK
import Foundation
import Synchronization

/// The one thread that initialises GTK and runs GLib's default main loop for the life of the process.
enum WebKitThread {
    /// Starts the thread and returns once GTK is initialised on it. Call once.
    /// - Throws: `WebKitThread.StartFailure` when GTK cannot be initialised (it cannot open the display).
    static func start() async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, Error>) in
            let thread = Thread {
                if let failure = wk_main_init() {
                    continuation.resume(throwing: StartFailure(reason: String(cString: failure)))
                    return
                }
                running.withLock { $0 = true }
                continuation.resume()
                wk_main_run()
                stopped.signal()
            }
            thread.name = "webparse-webkit"
            thread.stackSize = 8 << 20
            thread.start()
        }
    }

    /// Ends the main loop and waits up to `timeout` for the thread to leave it, so that nothing touches the
    /// display any more. Does nothing if the thread is not running.
    static func stop(timeout: Duration = .seconds(2)) {
        let wasRunning = running.withLock { running in
            defer { running = false }
            return running
        }
        guard wasRunning else { return }
        wk_main_quit()
        _ = stopped.wait(timeout: .now() + .milliseconds(Int(timeout.components.seconds * 1000)))
    }

    /// Why GTK could not start on the WebKit thread.
    struct StartFailure: Error, CustomStringConvertible {
        let reason: String
        var description: String { reason }
    }

    private static let running = Mutex(false)
    private static let stopped = DispatchSemaphore(value: 0)
}
