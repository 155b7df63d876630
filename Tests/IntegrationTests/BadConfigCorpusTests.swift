import Foundation
import TestSupport
import Testing

/// Every config under `BadConfigs/` is rejected by `webparse run` with exit code 2, before any page loads,
/// with exactly the messages in its `.expected` file (where `$DIR` stands for the corpus folder).
@Suite struct BadConfigCorpusTests {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appending(path: "WebParserCoreTests/BadConfigs")

    static var configs: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? [])
            .filter { $0.hasSuffix(".json") }.sorted()
    }

    @Test func theCorpusIsThere() {
        #expect(Self.configs.count >= 30)
    }

    @Test(arguments: configs)
    func isRejectedWithItsExactMessages(_ name: String) async throws {
        let config = Self.directory.appending(path: name)
        let expectedFile = Self.directory.appending(path: name.replacingOccurrences(of: ".json", with: ".expected"))
        let expected = try String(contentsOf: expectedFile, encoding: .utf8)
            .replacingOccurrences(of: "$DIR", with: Self.directory.path)
        // A display that cannot exist: if the config were not rejected first, WebKit would fail with 3, not 2.
        let outcome = try await ProcessRunner(product: "webparse").run(
            ["run", config.path],
            environment: ["DISPLAY": ":4241", "WAYLAND_DISPLAY": nil])
        #expect(outcome.status == 2)
        #expect(outcome.stdout.isEmpty)
        #expect(outcome.stderr == expected)
        for line in outcome.stderr.split(separator: "\n") {
            #expect(line.hasPrefix(config.path + ":"), "every message names the file: \(line)")
        }
    }
}
