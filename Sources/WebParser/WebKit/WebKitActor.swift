internal import CWebKitGTK

/// The global actor for everything that touches WebKit: its executor is the WebKit thread's GLib main loop.
///
/// GTK and WebKit may only be used from the thread that initialised GTK. Code isolated to this actor runs
/// there, so pages, views and the web context are `@WebKitActor`. Callers elsewhere hop on with `await`.
@globalActor
actor WebKitActor {
    static let shared = WebKitActor()

    nonisolated var unownedExecutor: UnownedSerialExecutor {
        WebKitExecutor.shared.asUnownedSerialExecutor()
    }

    /// Runs `operation` synchronously as actor-isolated code; traps unless called on the WebKit thread.
    /// For C callbacks, which GLib delivers on the WebKit thread but outside any Swift task.
    static func assumeIsolated<T>(_ operation: @WebKitActor () throws -> T) rethrows -> T {
        typealias Isolated = @WebKitActor () throws -> T
        typealias Plain = () throws -> T
        shared.preconditionIsolated()
        return try withoutActuallyEscaping(operation) { (isolated: @escaping Isolated) in
            try unsafeBitCast(isolated, to: Plain.self)()
        }
    }
}

/// A serial executor that runs jobs on the WebKit thread by scheduling them on GLib's default main context.
final class WebKitExecutor: SerialExecutor {
    static let shared = WebKitExecutor()

    func enqueue(_ job: consuming ExecutorJob) {
        wk_main_invoke(
            { context in
                CallbackBox<UnownedJob>.take(context).runSynchronously(on: WebKitExecutor.shared.asUnownedSerialExecutor())
            }, CallbackBox.retained(UnownedJob(job)))
    }

    func checkIsolated() {
        precondition(wk_main_is_current_thread(), "expected to run on the WebKit thread")
    }
}
