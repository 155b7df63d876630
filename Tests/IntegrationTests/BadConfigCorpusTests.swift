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

    /// The message about a bad config is written while WebKit and its own display start and add to the
    /// environment; reading the environment then once crashed webparse (signal 11 in `getenv`'s caller, 1 run in
    /// about 60 of the corpus). Many runs, two at a time, as the corpus runs them: every one ends with exit 2.
    @Test func aBadConfigIsReportedWhileWebKitStarts() async throws {
        let config = Self.directory.appending(path: "comment.json").path
        for _ in 0..<50 {
            let outcomes = try await withThrowingTaskGroup(of: ProcessRunner.Outcome.self) { group in
                for _ in 0..<2 {
                    group.addTask {
                        try await ProcessRunner(product: "webparse").run(["run", config], environment: ["DISPLAY": ":4241", "WAYLAND_DISPLAY": nil])
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            for outcome in outcomes {
                #expect(outcome.status == 2, "\(outcome.stderr)")
                #expect(outcome.stderr.hasPrefix(config + ":"), "\(outcome.stderr)")
            }
        }
    }
}
