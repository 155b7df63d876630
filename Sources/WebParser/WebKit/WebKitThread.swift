internal import CWebKitGTK
import Dispatch
import Synchronization

/// The one thread that initialises GTK and runs GLib's default main loop for the life of the process.
enum WebKitThread {
    /// Starts the thread, runs `beforeGTK` on it, and returns once GTK is initialised on it. Call once.
    /// - Throws: what `beforeGTK` throws; `WebKitThread.StartFailure` when GTK cannot be initialised (it cannot
    ///   open the display), or when the process is already shutting down.
    static func start(beforeGTK: @escaping @Sendable () throws -> Void) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, Error>) in
            SystemThread.start(name: "webparse-webkit", stackSize: 8 << 20) {
                // Under the lock, so that a shutdown waits for GTK to be up and then stops it cleanly.
                let failure = state.withLock { state -> Error? in
                    guard !state.stopped else { return StartFailure(reason: "the process is exiting") }
                    do {
                        try beforeGTK()
                    } catch {
                        return error
                    }
                    if let failure = wk_main_init() { return StartFailure(reason: String(cString: failure)) }
                    state.running = true
                    return nil
                }
                if let failure {
                    continuation.resume(throwing: failure)
                    return
                }
                continuation.resume()
                wk_main_run()
                finished.signal()
            }
        }
    }

    /// Ends the main loop and waits up to `timeout` for the thread to leave it, so that nothing touches the
    /// display any more; a thread still starting is stopped once it is up, and one not yet started never
    /// starts GTK. Call once, when the process ends.
    static func stop(timeout: Duration = .seconds(2)) {
        let wasRunning = state.withLock { state in
            state.stopped = true
            return state.running
        }
        guard wasRunning else { return }
        // Through the loop itself: a quit asked for before the loop runs would be lost.
        wk_main_invoke({ _ in wk_main_quit() }, nil)
        _ = finished.wait(timeout: .now() + .milliseconds(Int(timeout.milliseconds)))
    }

    /// Why GTK could not start on the WebKit thread.
    struct StartFailure: Error, CustomStringConvertible {
        let reason: String
        var description: String { reason }
    }

    private struct State {
        var running = false
        var stopped = false
    }

    private static let state = Mutex(State())
    private static let finished = DispatchSemaphore(value: 0)
}
