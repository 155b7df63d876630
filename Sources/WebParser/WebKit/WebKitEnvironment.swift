internal import CWebKitGTK
import FoundationEssentials
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The settings webparse gives GTK, WebKit and WebKit's processes through the environment, all put there at once,
/// synchronously, before any thread of webparse's own starts (`WebParserRunner.prepareEnvironment`): the C
/// library's `setenv` may move the environment's array while another thread's `getenv` reads it. What can only be
/// known later (the private display's name once Xvfb has started, the libraries WebKit's processes preload) gets a
/// value here first, and is only overwritten then (`overwrite`): replacing an existing variable's value changes one
/// pointer of the array and never moves it.
enum WebKitEnvironment {
    /// One variable to set.
    struct Setting: Equatable {
        var name: String
        var value: String
        /// Whether a value the environment already has is replaced (false: kept).
        var replacing: Bool
    }

    /// What the environment said before webparse's settings, for the runtime's start.
    struct Found: Sendable {
        /// No display is named: webparse starts its own Xvfb (`DISPLAY` and `XAUTHORITY` are set for it later).
        var needsOwnDisplay: Bool
        /// The display the environment names, for messages.
        var display: String
    }

    /// Puts the settings in the environment, once; later calls only return what the first one found.
    @discardableResult
    static func prepare() -> Found { prepared }

    /// Sets `name`, which `prepare` put in the environment, to `value`.
    static func overwrite(_ name: String, with value: String) {
        assert(getenv(name) != nil, "\(name) is not in the environment: WebKitEnvironment.settings must reserve it")
        setenv(name, value, 1)
    }

    /// Removes the files the settings name (the theme, the EGL vendor's description). Safe to call more than once.
    static func removeFiles() {
        theme.withLock { $0.take() }?.remove()
        EGLVendor.remove()
    }

    /// The settings for a process whose environment is `environment`, on a machine with a GPU or not, whose
    /// locale the C library lacks or not, with `physicalMemory` bytes of RAM.
    static func settings(for environment: [String: String], hasGPU: Bool, localeMissing: Bool, physicalMemory: UInt64) -> [Setting] {
        let environment = environment.filter { !$0.value.isEmpty }
        let keep = { (name: String, value: String) in Setting(name: name, value: value, replacing: false) }
        // A headless scraper needs neither the accessibility bus nor a session bus; without these settings GTK and
        // GLib would try to reach them, or even launch a bus daemon that outlives webparse.
        var settings = [keep("NO_AT_BRIDGE", "1"), keep("DBUS_SESSION_BUS_ADDRESS", "disabled:")]
        // Nothing webparse draws uses OpenGL: its views paint without hardware acceleration, in the web process.
        // Without these settings GTK would load Mesa's GLX driver when it opens the display and WebKit would set up an
        // EGL display for a DMA-BUF renderer it never uses: ~40 ms of every start, measured.
        settings += [keep("GDK_GL", "disable"), keep("WEBKIT_DISABLE_DMABUF_RENDERER", "1")]
        // GTK sets the C library's locale from the environment as it starts, in webparse and in every web process,
        // and warns on stderr when the C library lacks it ("Locale not supported by C library"). Pages get their
        // languages from the environment's locale all the same (`SystemLocale`); the C library works in C.UTF-8.
        if localeMissing { settings.append(Setting(name: "LC_ALL", value: "C.UTF-8", replacing: true)) }
        // To find the GPU its web processes may use, WebKit sets up EGL in webparse's own process as the first page
        // loads: on a machine without a GPU that loads Mesa's software driver and LLVM (~17 ms of CPU while the
        // first web process starts, ~20 MB) and finds no device. Naming a device that does not exist gives web
        // processes the same "no device" without the search; a machine with a GPU is left to WebKit.
        if !hasGPU { settings.append(keep("WEBKIT_WEB_RENDER_DEVICE_FILE", "/dev/dri/none")) }
        // JavaScriptCore lets a heap grow between collections by a factor it picks from the machine's RAM: on a
        // machine of many GiB every heap may double, and pages that live for seconds never give the garbage back.
        // Sized as on a machine of 256 MiB, a heap over 128 MiB grows by a quarter: 40 Dash pages at 4 at once
        // peaked at 567-575 MB instead of 742-775, about 4% slower (measured on 24 GiB).
        if physicalMemory > javaScriptRAMSize { settings.append(keep("JSC_forceRAMSize", String(javaScriptRAMSize))) }
        // JavaScriptCore compiles a function with its baseline JIT once it ran about 500 times (100 for code that ran
        // before), and keeps what it compiled; most of a framework's code runs a few hundred times in a page that
        // lives for seconds. At 50,000, 40 Dash pages at 4 at once peaked at 525-534 MB instead of 556-596 and took
        // 9.8-11.8 s instead of 12.5-15, and a page's own hot loop ran as fast: its optimizing tiers still come in
        // (without them, measured and not kept, a page hashing 20 million steps took 1.48 s instead of 0.64). A user
        // who sets a JIT's tier or threshold (`JSC_use…JIT`, `JSC_threshold…`) has chosen: none is set then.
        if !environment.keys.contains(where: choosesJIT) {
            settings += javaScriptJITThresholds.sorted { $0.key < $1.key }.map { keep($0.key, $0.value) }
        }
        // Set later, once known: the private display, and the libraries WebKit's processes preload.
        if namesNoDisplay(environment) {
            settings += [keep("DISPLAY", ""), keep("XAUTHORITY", "")]
        }
        settings.append(keep("LD_PRELOAD", ""))
        return settings
    }

    /// JavaScriptCore's thresholds for its baseline JIT in web processes, unless the user chose a tier or a threshold:
    /// code is compiled once it ran 50,000 times.
    static let javaScriptJITThresholds: [String: String] = [
        "JSC_thresholdForJITAfterWarmUp": "50000",
        "JSC_thresholdForJITSoon": "50000"
    ]

    /// The RAM, in bytes, JavaScriptCore sizes its heaps' growth by, unless the machine has less.
    static let javaScriptRAMSize: UInt64 = 256 << 20

    /// Whether `environment` (without its empty variables) names no display: webparse then starts its own.
    private static func namesNoDisplay(_ environment: [String: String]) -> Bool {
        environment["WAYLAND_DISPLAY"] == nil && environment["DISPLAY"] == nil
    }

    /// Whether the environment variable `name` chooses one of JavaScriptCore's JIT tiers or thresholds.
    private static func choosesJIT(_ name: String) -> Bool {
        (name.hasPrefix("JSC_use") && name.hasSuffix("JIT")) || name.hasPrefix("JSC_threshold")
    }

    /// The theme of webparse's private display, while it is installed.
    private static let theme = Mutex<HeadlessTheme?>(nil)

    private static let prepared: Found = {
        let environment = ProcessInfo.processInfo.environment.filter { !$0.value.isEmpty }
        let hasGPU = hasRenderNode()
        // Read before LC_ALL changes what the environment's locale is.
        let localeMissing = !SystemLocale.current.missing.isEmpty
        for setting in settings(for: environment, hasGPU: hasGPU, localeMissing: localeMissing, physicalMemory: ProcessInfo.processInfo.physicalMemory) {
            setenv(setting.name, setting.value, setting.replacing ? 1 : 0)
        }
        EGLVendor.install(environment: environment, hasGPU: hasGPU)
        let needsOwnDisplay = namesNoDisplay(environment)
        // GTK parses webparse's one-line theme instead of Adwaita's stylesheet on webparse's own display, unless the
        // user chose a theme.
        if needsOwnDisplay, environment["GTK_THEME"] == nil, environment["GTK_DATA_PREFIX"] == nil, let installed = HeadlessTheme.install() {
            theme.withLock { $0 = installed }
            setenv("GTK_DATA_PREFIX", installed.prefix, 1)
            setenv("GTK_THEME", HeadlessTheme.name, 1)
        }
        atexit { WebKitRuntime.shutdown() }
        let display =
            environment["WAYLAND_DISPLAY"].map { "Wayland display \($0)" } ?? environment["DISPLAY"].map { "X display \($0)" } ?? "webparse's own Xvfb"
        return Found(needsOwnDisplay: needsOwnDisplay, display: display)
    }()

    /// Whether the machine has a DRM render node, the device WebKit would give its web processes for GPU buffers.
    private static func hasRenderNode() -> Bool {
        let nodes = (try? FileManager.default.contentsOfDirectory(atPath: "/dev/dri")) ?? []
        return nodes.contains { $0.hasPrefix("renderD") }
    }
}
