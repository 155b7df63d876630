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

    /// Stops the WebKit thread, then the private Xvfb if webparse started one (and removes its theme), so that
    /// GTK never sees its display vanish and nothing runs while the process tears down. Runs at exit by itself.
    /// Safe to call from any thread except the WebKit thread, more than once, and when nothing was started.
    static func shutdown() {
        WebKitThread.stop()
        let (server, theme) = privateDisplay.withLock { display in
            display.shuttingDown = true
            defer { (display.server, display.theme) = (nil, nil) }
            return (display.server, display.theme)
        }
        server?.stop()
        theme?.remove()
        EGLVendor.remove()
    }

    /// The private display and its theme, and whether the process is past the point where one may be started.
    /// Launching and recording a server happen under this lock, so a shutdown racing a start still stops what
    /// it started.
    private struct PrivateDisplay {
        var server: XvfbServer?
        var theme: HeadlessTheme?
        var shuttingDown = false
    }

    private static let privateDisplay = Mutex(PrivateDisplay())

    private static let startup = Task {
        atexit { WebKitRuntime.shutdown() }
        let environment = ProcessInfo.processInfo.environment.filter { !$0.value.isEmpty }
        let needsOwnDisplay = environment["WAYLAND_DISPLAY"] == nil && environment["DISPLAY"] == nil
        let choosesTheme = environment["GTK_THEME"] != nil || environment["GTK_DATA_PREFIX"] != nil
        // A headless scraper needs neither the accessibility bus nor a session bus; without these settings
        // GTK and GLib would try to reach them, or even launch a bus daemon that outlives webparse.
        setenv("NO_AT_BRIDGE", "1", 0)
        setenv("DBUS_SESSION_BUS_ADDRESS", "disabled:", 0)
        // Nothing webparse draws uses OpenGL: its views paint without hardware acceleration, in the web process.
        // Without these settings GTK would load Mesa's GLX driver when it opens the display and WebKit would set
        // up an EGL display for a DMA-BUF renderer it never uses: ~40 ms of every start, measured.
        setenv("GDK_GL", "disable", 0)
        setenv("WEBKIT_DISABLE_DMABUF_RENDERER", "1", 0)
        // To find the GPU its web processes may use, WebKit sets up EGL in webparse's own process as the first page
        // loads: on a machine without a GPU that loads Mesa's software driver and LLVM (~17 ms of CPU while the first
        // web process starts, ~20 MB) and finds no device. Naming a device that does not exist gives web processes
        // the same "no device" without the search; a machine with a GPU is left to WebKit.
        // GTK sets the C library's locale from the environment as it starts, in webparse and in every web process, and
        // warns on stderr when the C library lacks it ("Locale not supported by C library"). Pages get their
        // languages from the environment's locale all the same (`SystemLocale`); the C library works in C.UTF-8.
        if !SystemLocale.current.missing.isEmpty { setenv("LC_ALL", "C.UTF-8", 1) }
        let hasGPU = hasRenderNode()
        if !hasGPU { setenv("WEBKIT_WEB_RENDER_DEVICE_FILE", "/dev/dri/none", 0) }
        EGLVendor.install(environment: environment, hasGPU: hasGPU)
        // JavaScriptCore lets a heap grow between collections by a factor it picks from the machine's RAM: on a
        // machine of many GiB every heap may double, and pages that live for seconds never give the garbage back.
        // Sized as on a machine of 256 MiB, a heap over 128 MiB grows by a quarter: 40 Dash pages at 4 at once
        // peaked at 567-575 MB instead of 742-775, about 4% slower (measured on 24 GiB).
        if ProcessInfo.processInfo.physicalMemory > javaScriptRAMSize {
            setenv("JSC_forceRAMSize", String(javaScriptRAMSize), 0)
        }
        // JavaScriptCore compiles a function with its baseline JIT once it ran about 500 times (100 for code that ran
        // before), and keeps what it compiled; most of a framework's code runs a few hundred times in a page that lives
        // for seconds. At 50,000, 40 Dash pages at 4 at once peaked at 525-534 MB instead of 556-596 and took 9.8-11.8 s
        // instead of 12.5-15, and a page's own hot loop ran as fast: its optimizing tiers still come in (without them,
        // measured and not kept, a page hashing 20 million steps took 1.48 s instead of 0.64). A user who sets a
        // JIT's tier or threshold (`JSC_use…JIT`, `JSC_threshold…`) has chosen: none is set then.
        if !environment.keys.contains(where: choosesJIT) {
            for (name, value) in javaScriptJITThresholds { setenv(name, value, 0) }
        }
        do {
            // Xvfb is started by the WebKit thread itself, the thread that lives as long as webparse: Xvfb is
            // told to die with the thread that started it, so it never outlives webparse, even a killed one.
            try await WebKitThread.start(beforeGTK: {
                if needsOwnDisplay { try startOwnDisplay(themed: !choosesTheme) }
                preloadLibrariesSearchedInVain()
            })
        } catch let error as WebParserError {
            shutdown()
            throw error
        } catch {
            shutdown()
            let display =
                environment["WAYLAND_DISPLAY"].map { "Wayland display \($0)" }
                ?? environment["DISPLAY"].map { "X display \($0)" } ?? "webparse's own Xvfb"
            throw WebParserError(.environmentUnavailable("\(error) on the \(display)"))
        }
    }

    /// JavaScriptCore's thresholds for its baseline JIT in web processes, unless the user chose a tier or a threshold:
    /// code is compiled once it ran 50,000 times.
    static let javaScriptJITThresholds: [String: String] = [
        "JSC_thresholdForJITAfterWarmUp": "50000",
        "JSC_thresholdForJITSoon": "50000"
    ]

    /// Whether the environment variable `name` chooses one of JavaScriptCore's JIT tiers or thresholds.
    private static func choosesJIT(_ name: String) -> Bool {
        (name.hasPrefix("JSC_use") && name.hasSuffix("JIT")) || name.hasPrefix("JSC_threshold")
    }

    /// The RAM, in bytes, JavaScriptCore sizes its heaps' growth by, unless the machine has less.
    static let javaScriptRAMSize: UInt64 = 256 << 20

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
        setenv("LD_PRELOAD", (preloaded + added).joined(separator: " "), 1)
    }

    /// The searches in vain (relocations against a library's own symbols, times the libraries loaded before it) from
    /// which a library is preloaded in WebKit's processes.
    private static let minimumSearchesInVain = 1_000_000

    /// Whether the machine has a DRM render node, the device WebKit would give its web processes for GPU buffers.
    private static func hasRenderNode() -> Bool {
        let nodes = (try? FileManager.default.contentsOfDirectory(atPath: "/dev/dri")) ?? []
        return nodes.contains { $0.hasPrefix("renderD") }
    }

    /// Starts Xvfb, waits for it and points `DISPLAY` and `XAUTHORITY` at it, and while it starts gives GTK
    /// webparse's theme when `themed`; on the WebKit thread, before GTK starts.
    private static func startOwnDisplay(themed: Bool) throws {
        let server = try privateDisplay.withLock { display throws in
            guard !display.shuttingDown else {
                throw WebParserError(.environmentUnavailable("webparse is exiting"))
            }
            let server = try XvfbServer.launch()
            display.server = server
            return server
        }
        if themed, let theme = HeadlessTheme.install() {
            let kept = privateDisplay.withLock { display in
                guard !display.shuttingDown else { return false }
                display.theme = theme
                return true
            }
            if kept {
                setenv("GTK_DATA_PREFIX", theme.prefix, 1)
                setenv("GTK_THEME", HeadlessTheme.name, 1)
            } else {
                theme.remove()
            }
        }
        setenv("DISPLAY", try server.waitForDisplay(), 1)
        setenv("XAUTHORITY", server.authorityPath, 1)
    }
}
