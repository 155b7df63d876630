internal import CWebKitGTK
import FoundationEssentials
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The process-wide WebKit runtime: a display, and the WebKit thread with GTK initialised on it.
///
/// GTK can be initialised once per process, so the runtime starts on first use and lives until the process
/// ends. When the environment names no display it starts a private Xvfb, stopped by `shutdown()` or at exit.
enum WebKitRuntime {
    /// Starts the runtime once; later and concurrent calls wait for the same start.
    /// - Throws: `WebParserError` with kind `.environmentUnavailable` when no display can be had or GTK
    ///   cannot start; the failure is remembered and thrown again by later calls.
    static func start() async throws {
        try await startup.value
    }

    /// Stops the WebKit thread, then WebKit's web processes (a grace, then SIGKILL: one stuck in a page's endless
    /// loop never notices that webparse went away), then the private Xvfb if webparse started one, and removes the
    /// files of its settings (its theme, its EGL vendor), so that GTK never sees its display vanish and nothing runs
    /// while the process tears down. The network process ends by itself once webparse has (it may still be writing
    /// a session's cookies). Runs at exit by itself. Safe to call from any thread except the WebKit thread, more than
    /// once, and when nothing was started.
    static func shutdown() {
        WebKitThread.stop()
        ChildProcesses.end(ChildProcesses.running(named: webProcessNames), grace: webProcessGrace)
        let server = privateDisplay.withLock { display in
            display.shuttingDown = true
            return display.server.take()
        }
        server?.stop()
        WebKitEnvironment.removeFiles()
    }

    /// The names (as the kernel shortens them) of the processes WebKit starts per page: web processes, and the GPU
    /// process of a WebKit that has one.
    private static let webProcessNames = ["WebKitWebProces", "WebKitGPUProces"]

    /// The web and GPU processes WebKit runs for this process now.
    static func webProcesses() -> [ChildProcesses.Child] {
        ChildProcesses.running(named: webProcessNames)
    }
    /// How long web processes get to end on SIGTERM before they are killed.
    private static let webProcessGrace: Duration = .milliseconds(500)

    /// The private display, and whether the process is past the point where one may be started. Launching and
    /// recording a server happen under this lock, so a shutdown racing a start still stops what it started.
    private struct PrivateDisplay {
        var server: XvfbServer?
        var shuttingDown = false
    }

    private static let privateDisplay = Mutex(PrivateDisplay())

    private static let startup = Task {
        let found = WebKitEnvironment.prepare()
        do {
            // Xvfb is started by the WebKit thread itself, the thread that lives as long as webparse: Xvfb is
            // told to die with the thread that started it, so it never outlives webparse, even a killed one.
            try await WebKitThread.start(beforeGTK: {
                if found.needsOwnDisplay { try startOwnDisplay() }
                preloadLibrariesSearchedInVain()
            })
        } catch let error as WebParserError {
            shutdown()
            throw error
        } catch {
            shutdown()
            throw WebParserError(.environmentUnavailable("\(error) on the \(found.display)"))
        }
    }

    /// Has WebKit's processes start with the libraries preloaded (`LD_PRELOAD`, after any the user named) that
    /// would otherwise make the dynamic loader search other libraries most in vain, chosen among libwebkit2gtk and
    /// the libraries it needs: a relocation is looked up in every library loaded before the one defining its symbol,
    /// and Debian's flite voice `cmu_time_awb`, which libwebkit2gtk links for speech synthesis, has 31,000
    /// relocations against its own symbols and comes 55th: 1.7 million fruitless searches, ~15 ms of every WebKit
    /// process's start (measured: a program linking WebKit and doing nothing started in 58-62 ms with it preloaded,
    /// 67-80 without). Called once Xvfb has started, which has no use for it.
    private static func preloadLibrariesSearchedInVain() {
        guard let found = wk_libraries_searched_in_vain(minimumSearchesInVain) else { return }
        defer { wk_free(found) }
        let preloaded = (ProcessInfo.processInfo.environment["LD_PRELOAD"] ?? "").split(whereSeparator: { $0 == " " || $0 == ":" })
        let added = String(cString: found).split(separator: " ").filter { !preloaded.contains($0) }
        guard !added.isEmpty else { return }
        WebKitEnvironment.overwrite("LD_PRELOAD", with: (preloaded + added).joined(separator: " "))
    }

    /// The searches in vain (relocations against a library's own symbols, times the libraries loaded before it) from
    /// which a library is preloaded in WebKit's processes.
    private static let minimumSearchesInVain = 1_000_000

    /// Starts Xvfb, waits for it and points `DISPLAY` and `XAUTHORITY` at it; on the WebKit thread, before GTK starts.
    private static func startOwnDisplay() throws {
        let server = try privateDisplay.withLock { display throws in
            guard !display.shuttingDown else {
                throw WebParserError(.environmentUnavailable("webparse is exiting"))
            }
            let server = try XvfbServer.launch()
            display.server = server
            return server
        }
        WebKitEnvironment.overwrite("DISPLAY", with: try server.waitForDisplay())
        WebKitEnvironment.overwrite("XAUTHORITY", with: server.authorityPath)
    }
}
