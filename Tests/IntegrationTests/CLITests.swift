import Foundation
import TestSupport
import Testing

/// The built `webparse` binary: stdout, stderr and exit codes, as a shell or cron sees them.
@Suite(.serialized) struct CLITests: CommandLineTest {
    static var packageRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    func writeConfig(_ text: String) throws -> String {
        try write(text, "config.json", in: try folder())
    }

    @Test func helpAndVersionGoToStdout() async throws {
        let help = try await webparse.run(["--help"])
        #expect(help.status == 0)
        #expect(help.stdoutText.contains("Usage: webparse COMMAND"))
        #expect(help.stdoutText.contains("143"))
        let runHelp = try await webparse.run(["help", "run"])
        #expect(runHelp.stdoutText.contains("pollInterval"))
        let version = try await webparse.run(["--version"])
        #expect(version.status == 0)
        let released = try String(contentsOf: Self.packageRoot.appending(path: "VERSION"), encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(version.stdoutText == "webparse \(released)\n", "the version comes from the VERSION file")
    }

    @Test func usageErrorsExitTwoWithAMessage() async throws {
        for arguments in [["frobnicate"], ["run"], ["run", "a.json", "b.json"], ["run", "--nope", "a.json"]] {
            let outcome = try await webparse.run(arguments)
            #expect(outcome.status == 2, "\(arguments)")
            #expect(outcome.stdout.isEmpty)
            #expect(outcome.stderr.hasPrefix("webparse"), "\(arguments)")
            #expect(outcome.stderr.contains("Usage: webparse"), "\(arguments)")
        }
    }

    @Test func configErrorsExitTwoAndNameFileAndField() async throws {
        let missing = try await webparse.run(["run", "/nonexistent/config.json"])
        #expect(missing.status == 2)
        #expect(missing.stderr == "webparse run: /nonexistent/config.json: no such file\n")

        let syntax = try writeConfig("{\n  \"url\": \"https://example.com\",\n  \"script\": 'x'\n}")
        let syntaxOutcome = try await webparse.run(["run", syntax])
        #expect(syntaxOutcome.status == 2)
        #expect(syntaxOutcome.stderr.contains("\(syntax):3:13: invalid JSON"))

        let several = try writeConfig(#"{"jobs": [{"url": "https://example.com", "scirpt": "1"}, {"url": "ftp://x", "script": "1", "timeout": "abc"}]}"#)
        let severalOutcome = try await webparse.run(["run", several])
        #expect(severalOutcome.status == 2)
        #expect(severalOutcome.stdout.isEmpty)
        #expect(severalOutcome.stderr.contains(#"jobs[0].scirpt: unknown key; did you mean "script"?"#))
        #expect(severalOutcome.stderr.contains("jobs[0].script: required"))
        #expect(severalOutcome.stderr.contains(#"jobs[1].url: unsupported scheme "ftp:""#))
        #expect(severalOutcome.stderr.contains(#"jobs[1].timeout: expected a number of seconds from 0.1 to 86400, got "abc""#))
    }

    @Test func endlessOrHugeInputIsRefusedNotReadIntoMemory() async throws {
        let zero = try await webparse.run(["run", "/dev/zero"])
        #expect(zero.status == 2)
        #expect(zero.stderr == "webparse run: /dev/zero: is larger than 64 MiB, the most webparse reads from one file\n")
        let refused = try await ProcessRunner(path: "/bin/sh").run(["-c", "yes | exec \"$0\" validate -", webparse.executable.path])
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("<stdin>: is larger than 64 MiB"), "\(refused.stderr)")
        let script = try await webparse.run(["eval", "file:///dev/null", "--script-file", "/dev/zero"])
        #expect(script.status == 2)
        #expect(script.stderr.contains("--script-file: /dev/zero is larger than 64 MiB"), "\(script.stderr)")

        let directory = try folder()
        let state = directory.appending(path: "huge.state").path
        #expect(FileManager.default.createFile(atPath: state, contents: nil))
        #expect(truncate(state, 300 << 20) == 0, "a sparse file of 300 MiB")
        let config = try writeConfig(#"{"url": "https://example.com", "script": "1"}"#)
        let huge = try await webparse.run(["run", "--state", state, config], environment: headless)
        #expect(huge.status == 2)
        #expect(huge.stderr.contains("\(state): is larger than 256 MiB, the most webparse reads from one file"), "\(huge.stderr)")
    }

    @Test func theBundledExamplePrintsOnlyJSON() async throws {
        let config = Self.packageRoot.appending(path: "Examples/comics/config.json").path
        let outcome = try await webparse.run(["run", config], environment: headless)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let comics = try #require(try JSONSerialization.jsonObject(with: outcome.stdout) as? [[String: Any]])
        #expect(comics.map { $0["title"] as? String } == ["The Lighthouse Keeper", "Café Monsters", "Orbit of Small Things", "Paper Knights", "Night Bus 44"])
        #expect(outcome.stdoutText.hasSuffix("]\n"))
        #expect(outcome.stderr.isEmpty, "stderr is not a terminal, so no progress: \(outcome.stderr)")
    }

    @Test func aFailedJobExitsOneAndTheOthersArePrinted() async throws {
        let server = try TestHTTPServer(routes: ["/ok": .respond(body: "<title>fine</title>")])
        let config = try writeConfig(
            """
            {"jobs": [
              {"name": "good", "url": "\(server.url("/ok"))", "script": "document.title"},
              {"name": "gone", "url": "\(server.url("/gone"))", "script": "document.title"}
            ]}
            """)
        let outcome = try await webparse.run(["run", "-v", config], environment: headless)
        #expect(outcome.status == 1)
        #expect(outcome.stdoutText == "{\"good\":\"fine\"}\n")
        #expect(outcome.stderr.contains("webparse: gone: failed: HTTP status 404"))
        #expect(outcome.stderr.contains("webparse: good: done"))
    }

    @Test func withoutDisplayOrXvfbItExitsThreeAndSaysWhatToInstall() async throws {
        let config = Self.packageRoot.appending(path: "Examples/comics/config.json").path
        let noXvfb = headless.merging(["PATH": "/nonexistent"]) { $1 }
        let outcome = try await webparse.run(["run", config], environment: noXvfb)
        #expect(outcome.status == 3)
        #expect(outcome.stdout.isEmpty)
        #expect(outcome.stderr.contains("apt-get install xvfb"))

        let badDisplay = try await webparse.run(["run", config], environment: ["DISPLAY": ":4242", "WAYLAND_DISPLAY": nil])
        #expect(badDisplay.status == 3)
        #expect(badDisplay.stderr.contains("X display :4242"))
    }
}
