import Foundation
import TestSupport
import Testing

/// Pages stuck in an endless loop beside good jobs, on a busy machine: the run ends, and no process it started is
/// left, not even a web process still spinning (it never notices that webparse went away).
@Suite(.serialized) struct SpinningPageTests: CommandLineTest {
    @Test func noWebProcessOutlivesARunWithPagesSpinningForever() async throws {
        // Static files, as a plain web server gives them (cacheable), the spinning page under eight query strings.
        let site = try folder()
        for page in 1...10 { try "<title>good \(page)</title>".write(to: site.appending(path: "good\(page).html"), atomically: true, encoding: .utf8) }
        try "<title>spin</title><script>setTimeout(() => { while (true) {} }, 50)</script>".write(
            to: site.appending(path: "spin.html"), atomically: true, encoding: .utf8)
        let server = try StaticFileServer(serving: site)
        defer { server.stop() }
        let jobs =
            (1...10).map { #"{"name": "good \#($0)", "url": "\#(server.base)/good\#($0).html", "script": "document.title"}"# }
            + (1...8).map { #"{"name": "spin \#($0)", "url": "\#(server.base)/spin.html?\#($0)", "script": "window.never"}"# }
        let config = try write(
            #"{"defaults": {"timeout": 3, "retries": 0}, "jobs": [\#(jobs.joined(separator: ","))]}"#, "spin.json", in: try folder())
        let load = CPULoad()
        defer { load.stop() }
        for round in 1...5 {
            let mark = UUID().uuidString
            let running = try webparse.start(["run", config, "-j", "4"], environment: headless.merging(["WEBPARSE_TEST_RUN": mark]) { $1 })
            // The moment webparse ends (it is a zombie then): a web process left behind would also hold its output open,
            // so that waiting for the process as Foundation does would wait for that process too.
            while ProcessTree.anyAlive([running.pid]) { try await Task.sleep(for: .milliseconds(10)) }
            // webparse ended its web processes, and waited for them, before it exited; its network process ends by itself
            // once webparse has.
            let webProcesses = ProcessTree.carrying("WEBPARSE_TEST_RUN", mark).filter { $0.name.hasPrefix("WebKitWebProces") }
            #expect(webProcesses.isEmpty, "round \(round): web processes alive after the run: \(webProcesses.map(\.pid))")
            let run = await running.finish()
            #expect(run.status == 1, "round \(round): the spinning jobs failed: \(run.stderr)")
            let results = try #require(try JSONSerialization.jsonObject(with: run.stdout) as? [String: String], "\(run.stdoutText)")
            #expect(!results.isEmpty && results.keys.allSatisfy { $0.hasPrefix("good") }, "round \(round): the good jobs' results")
            let deadline = ContinuousClock.now + .seconds(5)
            while !ProcessTree.carrying("WEBPARSE_TEST_RUN", mark).isEmpty && ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(50))
            }
            let left = ProcessTree.carrying("WEBPARSE_TEST_RUN", mark)
            #expect(left.isEmpty, "round \(round) left behind: \(left.map { "\($0.pid) \($0.name)" })")
        }
    }
}

/// Python's `http.server` serving a folder on a free port of 127.0.0.1, as a plain static site is served.
final class StaticFileServer: @unchecked Sendable {
    let base: String
    private let process = Process()

    /// Serves `folder`, once the server listens.
    init(serving folder: URL) throws {
        let port = try TestHTTPServer.refusingURL().port!
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["-m", "http.server", String(port), "--bind", "127.0.0.1", "--directory", folder.path]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        base = "http://127.0.0.1:\(port)"
        let deadline = Date().addingTimeInterval(10)
        while (try? Data(contentsOf: URL(string: base + "/good1.html")!)) == nil && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
    }

    /// Stops the server (SIGKILL: it inherits the test process's blocked signals).
    func stop() {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }
}
