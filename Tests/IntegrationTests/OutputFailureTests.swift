import Foundation
import TestSupport
import Testing

/// Results are delivered before anything is recorded: a closed or full stdout loses no new item, crashes
/// nothing, and leaves no process behind; a closed stderr costs no result.
@Suite(.serialized) struct OutputFailureTests: CommandLineTest {
    /// Runs `webparse ARGUMENTS` under bash with `redirection` after it (`| head -c 10`, `> /dev/full`), without
    /// a display, with `WEBPARSE_TEST_RUN=mark` in its environment (its processes carry it), and returns
    /// webparse's own exit status, what reached the end of the pipe, and stderr.
    func shell(_ arguments: [String], _ redirection: String, mark: String = "") throws -> (status: Int32, stdout: String, stderr: String) {
        let statusFile = try folder().appending(path: "status").path
        let quoted = ([webparse.executable.path] + arguments).map { "'\($0)'" }.joined(separator: " ")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = [
            "-c", "env -u DISPLAY -u WAYLAND_DISPLAY WEBPARSE_TEST_RUN='\(mark)' \(quoted) \(redirection); echo ${PIPESTATUS[0]} > '\(statusFile)'"
        ]
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let stdout = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let status = try String(contentsOfFile: statusFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        return (Int32(status) ?? -1, stdout, stderr)
    }

    func comicsSite() throws -> TestHTTPServer {
        let items = (1...2000).map { #"{"id": \#($0), "title": "chapter \#($0) \#(String(repeating: "x", count: 80))"}"# }
        return try TestHTTPServer(routes: ["/": .respond(body: "<title>c</title><script>window.items = [\(items.joined(separator: ","))]</script>")])
    }

    func config(_ server: TestHTTPServer, in directory: URL) throws -> String {
        try write(#"{"url": "\#(server.url("/"))", "script": "window.items", "key": "id"}"#, "comics.json", in: directory)
    }

    @Test func aClosedStdoutEndsTheRunQuietlyAndRecordsNothing() async throws {
        let server = try comicsSite()
        let directory = try folder()
        let state = directory.appending(path: "comics.state").path
        let mark = UUID().uuidString
        let closed = try shell(
            ["run", "--state", state, "--new-only", "--emit-initial", "--jsonl", try config(server, in: directory)], "| head -1", mark: mark)
        #expect(closed.status == 141, "\(closed.stderr)")
        #expect(closed.stdout.split(separator: "\n").count == 1)
        #expect(closed.stderr.isEmpty, "no backtrace, no message: \(closed.stderr)")
        #expect(!FileManager.default.fileExists(atPath: state), "the state was not advanced")
        // Nothing of that run is left (its Xvfb, WebKit's processes), whatever else runs on the machine.
        var left = ProcessTree.carrying("WEBPARSE_TEST_RUN", mark)
        let deadline = ContinuousClock.now + .seconds(15)
        while !left.isEmpty && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(100))
            left = ProcessTree.carrying("WEBPARSE_TEST_RUN", mark)
        }
        #expect(left.isEmpty, "\(left)")

        let bytes = try shell(["run", try config(server, in: directory)], "| head -c 10")
        #expect(bytes.status == 141)
        #expect(bytes.stdout.count == 10)
        #expect(bytes.stderr.isEmpty)
    }

    @Test func aFullStdoutFailsTheRunAndLeavesTheStateForTheNextRun() async throws {
        let server = try comicsSite()
        let directory = try folder()
        let state = directory.appending(path: "comics.state").path
        let config = try config(server, in: directory)
        let full = try shell(["run", "--state", state, "--new-only", "--emit-initial", config], "> /dev/full")
        #expect(full.status == 1)
        #expect(full.stderr.contains("webparse run: cannot write the results to stdout: No space left on device; the state was not updated"), "\(full.stderr)")
        #expect(!FileManager.default.fileExists(atPath: state))
        let next = try await webparse.run(["run", "--state", state, "--new-only", "--emit-initial", config], environment: headless)
        #expect(next.status == 0, "\(next.stderr)")
        let items = try #require(try JSONSerialization.jsonObject(with: next.stdout) as? [Any])
        #expect(items.count == 2000, "every item is still new")
        let again = try await webparse.run(["run", "--state", state, "--new-only", config], environment: headless)
        #expect(again.stdout.isEmpty, "delivered, then recorded")
    }

    @Test func outputToSpecialFilesIsWrittenIntoThemNotOverThem() async throws {
        let server = try comicsSite()
        let directory = try folder()
        let config = try config(server, in: directory)
        let discarded = try await webparse.run(["run", "-o", "/dev/null", config], environment: headless)
        #expect(discarded.status == 0, "\(discarded.stderr)")
        var info = stat()
        #expect(stat("/dev/null", &info) == 0 && info.st_mode & S_IFMT == S_IFCHR, "/dev/null is still the device")
        let snapshot = try await webparse.run(
            ["snapshot", server.url("/").absoluteString, "--png", "/dev/null", "--html", "/dev/null"],
            environment: headless)
        #expect(snapshot.status == 0, "\(snapshot.stderr)")
        #expect(stat("/dev/null", &info) == 0 && info.st_mode & S_IFMT == S_IFCHR, "/dev/null is still the device after snapshot")
        let link = directory.appending(path: "shot.png").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "shots/page.png")
        try FileManager.default.createDirectory(at: directory.appending(path: "shots"), withIntermediateDirectories: true)
        let linked = try await webparse.run(["snapshot", server.url("/").absoluteString, "--png", link], environment: headless)
        #expect(linked.status == 0, "\(linked.stderr)")
        #expect(FileManager.default.contents(atPath: directory.appending(path: "shots/page.png").path)?.starts(with: [0x89, 0x50, 0x4E, 0x47]) == true)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == "shots/page.png")
        let piped = try shell(["run", "-o", "/dev/stdout", config], "| cat")
        #expect(piped.status == 0, "\(piped.stderr)")
        let items = try #require(try JSONSerialization.jsonObject(with: Data(piped.stdout.utf8)) as? [Any])
        #expect(items.count == 2000)
    }

    @Test func linksAreFollowedToTheFileTheyNameAndTwoNamesShareOneLock() async throws {
        let server = try comicsSite()
        let directory = try folder()
        let config = try config(server, in: directory)
        let state = directory.appending(path: "real.state").path
        let link = directory.appending(path: "link.state").path
        let other = directory.appending(path: "other-name.state").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "real.state")
        try FileManager.default.createSymbolicLink(atPath: other, withDestinationPath: link)

        let first = try await webparse.run(["run", "--state", link, "--new-only", config], environment: headless)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == "real.state", "the link is kept")
        #expect(
            FileManager.default.contents(atPath: state).map { String(decoding: $0, as: UTF8.self).contains("k:2000") } == true,
            "the dangling link's target was created")
        let second = try await webparse.run(["run", "--state", other, "--new-only", config], environment: headless)
        #expect(second.status == 0 && second.stdout.isEmpty, "the same state, through another name: \(second.stderr)")

        let output = directory.appending(path: "out-link.json").path
        try FileManager.default.createSymbolicLink(atPath: output, withDestinationPath: "results/out.json")
        try FileManager.default.createDirectory(at: directory.appending(path: "results"), withIntermediateDirectories: true)
        let written = try await webparse.run(["run", "-o", output, config], environment: headless)
        #expect(written.status == 0, "\(written.stderr)")
        #expect(FileManager.default.contents(atPath: directory.appending(path: "results/out.json").path)?.count ?? 0 > 100_000)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: output) == "results/out.json")

        let loop = directory.appending(path: "loop.state").path
        try FileManager.default.createSymbolicLink(atPath: loop, withDestinationPath: "loop2.state")
        try FileManager.default.createSymbolicLink(atPath: directory.appending(path: "loop2.state").path, withDestinationPath: "loop.state")
        let looping = try await webparse.run(["run", "--state", loop, config], environment: headless)
        #expect(looping.status == 2)
        #expect(looping.stderr.contains("too many levels of symbolic links"), "\(looping.stderr)")

        let hanging = try TestHTTPServer(routes: ["/": .hang])
        defer { hanging.stop() }
        let slowConfig = try write(#"{"url": "\#(hanging.url("/"))", "script": "1", "timeout": 30, "retries": 0}"#, "slow.json", in: directory)
        let holder = try webparse.start(["run", "--state", link, slowConfig], environment: headless)
        while hanging.requests(for: "/").isEmpty { try await Task.sleep(for: .milliseconds(20)) }
        let refused = try await webparse.run(["run", "--state", other, config], environment: headless)
        #expect(refused.status == 4, "one file, one lock: \(refused.stderr)")
        holder.send(SIGTERM)
        _ = await holder.finish()
    }

    @Test func aClosedStderrCostsNoResult() async throws {
        let server = try comicsSite()
        let directory = try folder()
        let outcome = try shell(["run", "-v", try config(server, in: directory)], "2>&-")
        #expect(outcome.status == 0)
        let items = try #require(try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [Any])
        #expect(items.count == 2000)
    }
}
