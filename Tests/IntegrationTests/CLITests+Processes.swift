import Foundation
import TestSupport
import WebParser
import Testing

/// The processes a run starts, what they are given, and that none outlives the run however it ends.
extension CLITests {
    /// A headless run whose only job waits on a server that never answers, once its request has arrived: Xvfb
    /// and WebKit's processes are up.
    func startRunOnAHangingServer(environment: [String: String?] = [:]) async throws -> (TestHTTPServer, ProcessRunner.Running) {
        let server = try TestHTTPServer(routes: ["/": .hang])
        let config = try writeConfig(#"{"url": "\#(server.url("/"))", "script": "document.title", "timeout": 60}"#)
        let running = try webparse.start(["run", config], environment: headless.merging(environment) { $1 })
        while server.requests(for: "/").isEmpty { try await Task.sleep(for: .milliseconds(20)) }
        return (server, running)
    }

    @Test(arguments: [(SIGTERM, Int32(143)), (SIGINT, Int32(130)), (SIGHUP, Int32(129))])
    func aSignalStopsTheRunAndLeavesNoProcessBehind(signal: Int32, status: Int32) async throws {
        let (server, running) = try await startRunOnAHangingServer()
        defer { server.stop() }
        let children = running.descendants()
        #expect(children.contains { $0.name == "Xvfb" })
        #expect(children.contains { $0.name.hasPrefix("WebKitWebProces") })
        #expect(children.contains { $0.name.hasPrefix("WebKitNetworkPr") })
        running.send(signal)
        let outcome = await running.finish()
        #expect(outcome.status == status, "stopped by the signal, not at the job's timeout: \(outcome.stderr)")
        #expect(outcome.stdout.isEmpty)
        let deadline = ContinuousClock.now + .seconds(2)
        while ProcessTree.anyAlive(children.map(\.pid)) && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        let survivors = ProcessTree.snapshot().filter { pid, _ in children.contains { $0.pid == pid } }
        #expect(survivors.isEmpty, "left behind: \(survivors.map { "\($0.key) \($0.value.name)" })")
    }

    @Test func noOneButWebparseCanUseItsPrivateDisplay() async throws {
        let (server, running) = try await startRunOnAHangingServer()
        defer { server.stop() }
        let children = running.descendants()
        let webProcess = try #require(children.first { $0.name.hasPrefix("WebKitWebProces") })
        let environment = try Self.environment(of: webProcess.pid)
        let display = try #require(environment["DISPLAY"])
        let authority = try #require(environment["XAUTHORITY"])
        let folder = URL(fileURLWithPath: authority).deletingLastPathComponent().path
        #expect(try Self.permissions(authority) == 0o600)
        #expect(try Self.permissions(folder) == 0o700)

        let client = ProcessRunner(path: "/usr/bin/xdpyinfo")
        let withCookie = try await client.run(["-display", display], environment: ["XAUTHORITY": authority])
        #expect(withCookie.status == 0, "the display is up and the cookie opens it: \(withCookie.stderr)")
        let withoutCookie = try await client.run(["-display", display], environment: ["XAUTHORITY": "/nonexistent", "HOME": "/nonexistent"])
        #expect(withoutCookie.status != 0, "a client without the cookie connected")
        #expect(withoutCookie.stderr.contains("unable to open display"))
        if getuid() == 0 {
            let otherUser = try await ProcessRunner(path: "/usr/bin/setpriv").run(
                ["--reuid=65534", "--regid=65534", "--clear-groups", "/usr/bin/xdpyinfo", "-display", display],
                environment: ["XAUTHORITY": authority, "HOME": "/nonexistent"])
            #expect(otherUser.status != 0, "another user connected: \(otherUser.stdoutText.prefix(200))")
            #expect(otherUser.stderr.contains("unable to open display"))
        }
        running.send(SIGTERM)
        _ = await running.finish()
        #expect(!FileManager.default.fileExists(atPath: folder), "the cookie's folder is removed at exit")
    }

    /// Nothing webparse does draws with OpenGL, so nothing loads Mesa's GL drivers for it: not webparse (GTK's GL
    /// is off, and on a machine without a GPU WebKit is not left to look for one with EGL), not its private Xvfb
    /// (no GLX), and its web processes are told so too.
    @Test func noProcessLoadsAnOpenGLDriverItNeverUses() async throws {
        let (server, running) = try await startRunOnAHangingServer()
        defer { server.stop() }
        let children = running.descendants()
        let webProcess = try #require(children.first { $0.name.hasPrefix("WebKitWebProces") })
        let xvfb = try #require(children.first { $0.name == "Xvfb" })
        let environment = try Self.environment(of: webProcess.pid)
        #expect(environment["GDK_GL"] == "disable")
        #expect(environment["WEBKIT_DISABLE_DMABUF_RENDERER"] == "1")
        let webparsePID = try #require(ProcessTree.snapshot()[xvfb.pid]?.parent)
        let webparseMaps = try Self.procFile("\(webparsePID)/maps")
        #expect(webparseMaps.contains("libwebkit2gtk"), "the parent of Xvfb is webparse")
        #expect(!webparseMaps.contains("libGLX_mesa"), "webparse loaded Mesa's GLX driver")
        let renderNodes = (try? FileManager.default.contentsOfDirectory(atPath: "/dev/dri"))?.filter { $0.hasPrefix("renderD") } ?? []
        if renderNodes.isEmpty {
            #expect(environment["WEBKIT_WEB_RENDER_DEVICE_FILE"] == "/dev/dri/none")
            #expect(
                !webparseMaps.contains("libEGL_mesa") && !webparseMaps.contains("libLLVM"),
                "webparse set up EGL to look for a GPU on a machine that has none")
        }
        let xvfbMaps = try Self.procFile("\(xvfb.pid)/maps")
        #expect(!xvfbMaps.contains("swrast_dri") && !xvfbMaps.contains("libGLX_mesa"), "Xvfb loaded a GL driver")
        running.send(SIGTERM)
        _ = await running.finish()
    }

    /// Web processes size their JavaScript heaps as on a machine of 256 MiB, unless the user says otherwise.
    @Test(arguments: [(nil, "268435456"), ("1073741824", "1073741824")])
    func webProcessesAreToldHowToSizeTheirJavaScriptHeaps(given: String?, expected: String) async throws {
        let (server, running) = try await startRunOnAHangingServer(environment: ["JSC_forceRAMSize": given])
        defer { server.stop() }
        let webProcess = try #require(running.descendants().first { $0.name.hasPrefix("WebKitWebProces") })
        #expect(try Self.environment(of: webProcess.pid)["JSC_forceRAMSize"] == expected)
        running.send(SIGTERM)
        _ = await running.finish()
    }

    /// Web processes compile JavaScript with JavaScriptCore's baseline JIT once it ran 50,000 times, unless the user
    /// chose a tier or a threshold: then webparse sets none of them.
    @Test(arguments: [(nil, "50000"), ("1", nil)] as [(String?, String?)])
    func webProcessesAreToldWhenToCompileJavaScript(given: String?, threshold: String?) async throws {
        // The test process may have these settings from WebParser runs of its own: webparse must not inherit them.
        let (server, running) = try await startRunOnAHangingServer(
            environment: ["JSC_useDFGJIT": given, "JSC_thresholdForJITAfterWarmUp": nil, "JSC_thresholdForJITSoon": nil])
        defer { server.stop() }
        let webProcess = try #require(running.descendants().first { $0.name.hasPrefix("WebKitWebProces") })
        let environment = try Self.environment(of: webProcess.pid)
        #expect(environment["JSC_useDFGJIT"] == given)
        #expect(environment["JSC_thresholdForJITAfterWarmUp"] == threshold)
        #expect(environment["JSC_thresholdForJITSoon"] == threshold)
        running.send(SIGTERM)
        _ = await running.finish()
    }

    /// WebKit's processes start with the libraries preloaded that would make the dynamic loader search other
    /// libraries most in vain (on Debian, flite's cmu_time_awb voice, which libwebkit2gtk links), after those the
    /// user preloads, and only libraries they load anyway; Xvfb, started before, gets none of them.
    @Test(arguments: [nil, "libm.so.6"])
    func webKitProcessesPreloadWhatTheLoaderWouldSearchMostInVain(given: String?) async throws {
        let (server, running) = try await startRunOnAHangingServer(environment: ["LD_PRELOAD": given])
        defer { server.stop() }
        let children = running.descendants()
        let xvfb = try #require(children.first { $0.name == "Xvfb" })
        let webKitProcesses = children.filter { $0.name.hasPrefix("WebKitWebProces") || $0.name.hasPrefix("WebKitNetworkPr") }
        #expect(webKitProcesses.count >= 2)
        for process in webKitProcesses {
            let loadedAnyway = try Self.librariesLoaded(by: "/proc/\(process.pid)/exe")
            let flite = loadedAnyway.first { $0.contains("/libflite_cmu_time_awb.so") }
            let preload = (try Self.environment(of: process.pid)["LD_PRELOAD"] ?? "").split(separator: " ").map(String.init)
            if let given { #expect(preload.first == given, "the user's own come first") }
            let added = preload.dropFirst(given == nil ? 0 : 1).map { URL(fileURLWithPath: $0).resolvingSymlinksInPath().path }
            #expect(added.allSatisfy(loadedAnyway.contains), "\(added): only libraries \(process.name) loads anyway")
            #expect(added.contains { $0 == flite } == (flite != nil), "\(added) against \(flite ?? "no flite voice")")
        }
        #expect(try Self.environment(of: xvfb.pid)["LD_PRELOAD"] == given)
        running.send(SIGTERM)
        _ = await running.finish()
    }

    /// The libraries `program` loads by itself (`ldd`, with nothing preloaded), by their real paths.
    static func librariesLoaded(by program: String) throws -> Set<String> {
        let ldd = Process()
        ldd.executableURL = URL(fileURLWithPath: "/usr/bin/ldd")
        ldd.arguments = [program]
        ldd.environment = ProcessInfo.processInfo.environment.filter { $0.key != "LD_PRELOAD" }
        let output = Pipe()
        ldd.standardOutput = output
        try ldd.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        ldd.waitUntilExit()
        return Set(
            String(decoding: data, as: UTF8.self).split(separator: "\n").compactMap { line in
                guard let arrow = line.range(of: "=> "), let path = line[arrow.upperBound...].split(separator: " ").first,
                    path.hasPrefix("/")
                else { return nil }
                return URL(fileURLWithPath: String(path)).resolvingSymlinksInPath().path
            })
    }

    /// On its private display webparse gives GTK a theme of one line (GTK parsed Adwaita's whole stylesheet at
    /// every start), in a private folder removed at exit; a theme the user chose is left alone.
    @Test(arguments: [nil, "Adwaita"])
    func gtkGetsAOneLineThemeOnThePrivateDisplay(chosen: String?) async throws {
        let (server, running) = try await startRunOnAHangingServer(environment: ["GTK_THEME": chosen, "GTK_DATA_PREFIX": nil])
        defer { server.stop() }
        let webProcess = try #require(running.descendants().first { $0.name.hasPrefix("WebKitWebProces") })
        let environment = try Self.environment(of: webProcess.pid)
        if let chosen {
            #expect(environment["GTK_THEME"] == chosen)
            #expect(environment["GTK_DATA_PREFIX"] == nil)
        } else {
            #expect(environment["GTK_THEME"] == "webparse")
            let prefix = try #require(environment["GTK_DATA_PREFIX"])
            #expect(
                try String(contentsOfFile: prefix + "/share/themes/webparse/gtk-3.0/gtk.css", encoding: .utf8)
                    == "@define-color theme_selected_bg_color #3584e4;\n")
            #expect(try Self.permissions(prefix) == 0o700)
            running.send(SIGTERM)
            _ = await running.finish()
            #expect(!FileManager.default.fileExists(atPath: prefix), "the theme is removed at exit")
            return
        }
        running.send(SIGTERM)
        _ = await running.finish()
    }

    /// A file of /proc read to its end: its size reads as 0, and `Data(contentsOf:)` stops after its first block.
    static func procFile(_ path: String) throws -> String {
        let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: "/proc/" + path))
        defer { try? handle.close() }
        return String(decoding: try handle.readToEnd() ?? Data(), as: UTF8.self)
    }

    static func environment(of pid: pid_t) throws -> [String: String] {
        let text = try #require(InputFile.kernelText("/proc/\(pid)/environ"), "process \(pid) is gone")
        let pairs = text.split(separator: "\0").map { $0.split(separator: "=", maxSplits: 1) }
        return Dictionary(pairs.filter { $0.count == 2 }.map { (String($0[0]), String($0[1])) }) { $1 }
    }

    static func permissions(_ path: String) throws -> Int {
        try #require(FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
    }

    @Test func exitingEarlyLeavesNoXvfbBehind() async throws {
        // The Xvfbs of these runs only (they carry the mark), whatever else runs on the machine.
        let mark = UUID().uuidString
        func xvfbs() -> [pid_t] { ProcessTree.carrying("WEBPARSE_TEST_RUN", mark).filter { $0.name == "Xvfb" }.map(\.pid) }
        let config = try writeConfig(#"{"jobs": [{"name": "a", "url": "https://example.com", "script": "1"}]}"#)
        // WebKit and Xvfb start while the config is read; a usage error then ends the run at once.
        for _ in 1...20 {
            let outcome = try await webparse.run(["run", config, "--only", "b"], environment: headless.merging(["WEBPARSE_TEST_RUN": mark]) { $1 })
            #expect(outcome.status == 2)
        }
        let deadline = ContinuousClock.now + .seconds(15)
        while !xvfbs().isEmpty && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(xvfbs().isEmpty, "left behind: \(xvfbs())")
    }

    /// Whatever the moment webparse is killed with SIGKILL, its Xvfb and WebKit processes end too.
    @Test func killedWithSIGKILLItLeavesNothingBehind() async throws {
        let server = try TestHTTPServer(routes: ["/": .hang])
        defer { server.stop() }
        let config = try writeConfig(#"{"url": "\#(server.url("/"))", "script": "document.title", "timeout": 60}"#)
        for delay in [50, 150, 400, 1500] {
            let running = try webparse.start(["run", config], environment: headless)
            var children = Set<pid_t>()
            let deadline = ContinuousClock.now + .milliseconds(delay)
            while ContinuousClock.now < deadline {
                children.formUnion(running.descendants().map(\.pid))
                try await Task.sleep(for: .milliseconds(10))
            }
            running.send(SIGKILL)
            _ = await running.finish()
            let settle = ContinuousClock.now + .seconds(2)
            while ProcessTree.anyAlive(Array(children)) && ContinuousClock.now < settle {
                try await Task.sleep(for: .milliseconds(20))
            }
            #expect(!ProcessTree.anyAlive(Array(children)), "killed after \(delay) ms: \(children) still alive")
        }
    }

    /// Lines of jobs that finished before an interruption are already out.
    @Test func anInterruptedJSONLinesRunHasFlushedItsFinishedJobs() async throws {
        let server = try TestHTTPServer(routes: ["/done": .respond(body: "<title>done</title>"), "/hang": .hang])
        defer { server.stop() }
        let config = try writeConfig(
            """
            {"concurrency": 1, "jobs": [
              {"name": "done", "url": "\(server.url("/done"))", "script": "document.title"},
              {"name": "hang", "url": "\(server.url("/hang"))", "script": "document.title", "timeout": 60}
            ]}
            """)
        let running = try webparse.start(["run", "--jsonl", config], environment: headless)
        while server.requests(for: "/hang").isEmpty { try await Task.sleep(for: .milliseconds(20)) }
        running.send(SIGTERM)
        let outcome = await running.finish()
        #expect(outcome.status == 143)
        #expect(outcome.stdoutText.hasPrefix(#"{"job":"done""#))
        #expect(outcome.stdoutText.split(separator: "\n").count == 1)
    }

    /// A run that ends by itself, in success or failure, leaves no process of its own behind either.
    @Test(arguments: [true, false])
    func aFinishedRunLeavesNothingBehind(succeeds: Bool) async throws {
        let page = "<div id=app></div><script>setTimeout(() => document.getElementById('app').textContent = 'late', 600)</script>"
        let server = try TestHTTPServer(routes: ["/": .respond(body: page)])
        let script = succeeds ? "document.getElementById('app').textContent" : "(() => { throw new Error('no') })()"
        let config = try writeConfig(#"{"url": "\#(server.url("/"))", "script": "\#(script)", "waitFor": "document.getElementById('app').textContent"}"#)
        let running = try webparse.start(["run", config], environment: headless)
        var children = Set<pid_t>()
        while server.requests.isEmpty { try await Task.sleep(for: .milliseconds(10)) }
        for _ in 0..<20 {
            children.formUnion(running.descendants().map(\.pid))
            try await Task.sleep(for: .milliseconds(10))
        }
        let outcome = await running.finish()
        #expect(outcome.status == (succeeds ? 0 : 1), "\(outcome.stderr)")
        #expect(children.count >= 3, "Xvfb and WebKit's processes were seen: \(children)")
        let settle = ContinuousClock.now + .seconds(2)
        while ProcessTree.anyAlive(Array(children)) && ContinuousClock.now < settle {
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(!ProcessTree.anyAlive(Array(children)))
    }
}

extension CLITests {
    /// Web processes start with webparse's EGL vendor, which has no device: no Mesa driver or LLVM in them, and no
    /// WebGL for their pages, as in a browser without a GPU. A job with `webgl` gets WebGL, in a web process of
    /// its own that loads Mesa. The page detects WebGL as map and chart libraries do, and falls back without it.
    @Test func onlyTheWebGLJobsProcessLoadsTheGPUDriver() async throws {
        let page = """
            <title>map</title><canvas id=map></canvas><script>
            const gl = document.getElementById('map').getContext('webgl');
            window.renderer = gl ? gl.getParameter(gl.VERSION) : 'fallback: no WebGL';
            </script>
            """
        let server = try TestHTTPServer(routes: ["/": .respond(body: page), "/map": .respond(body: page)])
        defer { server.stop() }
        // Each page answers after 3 s, so that both web processes are up while they are read.
        let script = "new Promise(done => setTimeout(() => done(window.renderer), 3000))"
        let config = try writeConfig(
            """
            {"concurrency": 2, "jobs": [
              {"name": "plain", "url": "\(server.url("/"))", "script": "\(script)"},
              {"name": "map", "url": "\(server.url("/map"))", "script": "\(script)", "webgl": true}
            ]}
            """)
        let running = try webparse.start(["run", config], environment: headless)
        let deadline = ContinuousClock.now + .seconds(20)
        while server.requests.count < 2 && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
        try await Task.sleep(for: .milliseconds(1500))
        let webProcesses = running.descendants().filter { $0.name.hasPrefix("WebKitWebProces") }.map(\.pid)
        var drivers: [(environment: String?, mesa: Bool, llvm: Bool)] = []
        for pid in webProcesses {
            // Read whole by cat: Foundation reads a /proc file only as far as its size, which /proc says is 0.
            let maps = try await ProcessRunner(path: "/bin/cat").run(["/proc/\(pid)/maps"]).stdoutText
            drivers.append((try Self.environment(of: pid)["WEBPARSE_EGL"], maps.contains("libEGL_mesa"), maps.contains("libLLVM")))
        }
        let outcome = await running.finish()
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let results = try JSONSerialization.jsonObject(with: outcome.stdout) as? [String: String]
        #expect(results?["plain"] == "fallback: no WebGL")
        #expect(results?["map"]?.hasPrefix("WebGL") == true, "\(String(describing: results))")
        #expect(drivers.count == 2, "two web processes: \(drivers)")
        #expect(drivers.contains { $0.environment == "mesa" && $0.mesa }, "the WebGL job's process loads Mesa: \(drivers)")
        #expect(drivers.contains { $0.environment == "none" && !$0.mesa && !$0.llvm }, "the other loads neither Mesa nor LLVM: \(drivers)")
        #expect(outcome.stderr.isEmpty, "\(outcome.stderr)")
    }
}

extension CLITests {
    /// A program started by a process that uses WebParser inherits the description of that process's EGL vendor,
    /// private to its user and removed when it ends: webparse does not take it for the user's choice of vendor
    /// (which its web processes could not read: they would abort), and makes its own.
    @Test func anInheritedDescriptionOfTheVendorIsNotTheUsersChoice() async throws {
        let server = try TestHTTPServer(routes: ["/": .respond(body: "<title>inherited</title>")])
        defer { server.stop() }
        let config = try writeConfig(#"{"url": "\#(server.url("/"))", "script": "document.title"}"#)
        let gone = FileManager.default.temporaryDirectory.appending(path: "webparse-egl-gone\(getpid())/webparse.json").path
        let outcome = try await webparse.run(["run", config], environment: headless.merging(["__EGL_VENDOR_LIBRARY_FILENAMES": gone]) { $1 })
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stdoutText == "\"inherited\"\n")
    }
}
