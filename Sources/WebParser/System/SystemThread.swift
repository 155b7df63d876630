import Glibc

/// A detached POSIX thread, for work that must own a thread rather than borrow one of the task pool's: GLib's
/// main loop, blocking reads and waits, recursion deeper than a default stack holds.
package enum SystemThread {
    /// Runs `body` on a new thread of its own, named `name` (15 bytes at most are kept) and with a stack of
    /// `stackSize` bytes (nil: the system's default). The thread ends when `body` returns.
    package static func start(name: String? = nil, stackSize: Int? = nil, _ body: @escaping @Sendable () -> Void) {
        let work = Unmanaged.passRetained(ThreadWork(name: name, body: body)).toOpaque()
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        if let stackSize { pthread_attr_setstacksize(&attributes, stackSize) }
        var thread = pthread_t()
        let status = pthread_create(
            &thread, &attributes,
            { context in
                Unmanaged<ThreadWork>.fromOpaque(context!).takeRetainedValue().run()
                return nil
            }, work)
        pthread_attr_destroy(&attributes)
        // Only a process out of threads or memory gets here; Foundation's Thread stops the process too.
        precondition(status == 0, "cannot start a thread: \(String(cString: strerror(status)))")
    }
}

/// What a thread `SystemThread.start` made runs, handed to it retained.
private final class ThreadWork: Sendable {
    let name: String?
    let body: @Sendable () -> Void

    init(name: String?, body: @escaping @Sendable () -> Void) {
        self.name = name
        self.body = body
    }

    /// Names the thread, then runs the body.
    func run() {
        if let name { nameCurrentThread(name) }
        body()
    }

    /// Names the calling thread (what `top -H` and a debugger show), through `/proc` as `pthread_setname_np`
    /// does: glibc's declaration of it is not visible to Swift.
    private func nameCurrentThread(_ name: String) {
        let descriptor = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        let bytes = Array(name.utf8.prefix(15))
        _ = write(descriptor, bytes, bytes.count)
        close(descriptor)
    }
}
