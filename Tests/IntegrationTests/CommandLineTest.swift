import Foundation
import TestSupport
import Testing

/// What the tests of the built binary share: the binary, an environment without a display (so webparse
/// starts its own Xvfb, as under cron or CI), and files in a folder of their own.
protocol CommandLineTest {}

extension CommandLineTest {
    var webparse: ProcessRunner { ProcessRunner(product: "webparse") }

    var headless: [String: String?] { ["DISPLAY": nil, "WAYLAND_DISPLAY": nil] }

    /// A new, empty folder under the temporary directory.
    func folder() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appending(path: "webparse-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    /// Writes `text` to the file `name` in `directory` and returns its path.
    @discardableResult
    func write(_ text: String, _ name: String, in directory: URL) throws -> String {
        let file = directory.appending(path: name)
        try text.write(to: file, atomically: true, encoding: .utf8)
        return file.path
    }

    /// Runs `count` workers (`webparse work QUEUE ARGUMENTS`) at once until each has ended, as each must, with exit
    /// code 0; what they said on stderr, one after the other.
    @discardableResult
    func work(
        _ count: Int, _ queue: String, _ arguments: [String] = [], sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> String {
        let workers = try (1...count).map { _ in try webparse.start(["work", queue] + arguments, environment: headless) }
        var said = ""
        for worker in workers {
            let outcome = await worker.finish()
            expectDrained(outcome, sourceLocation: sourceLocation)
            said += outcome.stderr
        }
        return said
    }

    /// Expects `outcome`, a worker's, to have drained its queue: exit 0, or 1 when an item it took failed (it says how
    /// many).
    func expectDrained(_ outcome: ProcessRunner.Outcome, sourceLocation: SourceLocation = #_sourceLocation) {
        let failed = outcome.stderr.contains(" items failed; their records are in ")
        #expect(outcome.status == (failed ? 1 : 0), "\(outcome.stderr)", sourceLocation: sourceLocation)
    }

    /// Waits (`seconds` at most) until `condition` holds.
    func waitUntil(_ what: String, within seconds: Int = 20, _ condition: () throws -> Bool) async throws {
        let deadline = Date().addingTimeInterval(TimeInterval(seconds))
        while try !condition() {
            try #require(Date() < deadline, "\(what) did not happen within \(seconds) s")
            try await Task.sleep(for: .milliseconds(50))
        }
    }
}
