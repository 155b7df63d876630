import Foundation
import TestSupport
import Testing

/// The repository's habits that a test can check: a commit's subject says what changed in at most 72 characters (its
/// body says why), and `VERSION` is the one plain line people and tools read.
@Suite struct RepositoryHabitTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The subjects of the newest `count` commits (fewer in a shallow clone), by running git in the repository.
    func subjects(_ count: Int) async throws -> [String] {
        let log = try await ProcessRunner(path: "/usr/bin/git").run(
            ["-c", "safe.directory=*", "-C", Self.root.path, "log", "-n", String(count), "--format=%s"])
        try #require(log.status == 0, "git log failed in \(Self.root.path): \(log.stderr)")
        return log.stdoutText.split(separator: "\n").map(String.init)
    }

    /// Every commit since the rule (the newest 60 were all made under it) has a subject of at most 72 characters.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: root.appending(path: ".git").path), "a git checkout"))
    func commitSubjectsAreAtMost72Characters() async throws {
        let subjects = try await subjects(60)
        #expect(!subjects.isEmpty)
        for subject in subjects { #expect(subject.count <= 72, "\(subject.count) characters: \(subject)") }
    }

    @Test func versionIsOnePlainLine() throws {
        let text = try String(contentsOf: Self.root.appending(path: "VERSION"), encoding: .utf8)
        #expect(text.wholeMatch(of: /[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.]+)?\n/) != nil, "VERSION: \(text.debugDescription)")
    }
}
