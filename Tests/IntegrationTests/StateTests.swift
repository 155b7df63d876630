import Foundation
import TestSupport
import Testing

/// `--state`, `--new-only` and friends, as a cron job uses them, against a local site whose list changes.
@Suite(.serialized) struct StateTests: CommandLineTest {
    /// A comic list page the test rewrites between runs, and can make answer 503.
    struct Site {
        let chapters: Shared<[Int]>
        let failing = Shared(false)
        let server: TestHTTPServer

        init(_ chapters: [Int]) throws {
            let list = Shared(chapters)
            let failing = self.failing
            self.chapters = list
            server = try TestHTTPServer(routes: [
                "/updates": .dynamic { _ in
                    guard !failing.value else { return (503, "busy") }
                    let items = list.value.map { #"<li data-id="c\#($0)">Chapter \#($0)</li>"# }.joined()
                    return (200, "<ul>\(items)</ul>")
                }
            ])
        }

        func show(_ chapters: [Int]) { self.chapters.value = chapters }
        func fail(_ on: Bool) { failing.value = on }
    }

    func setUp(_ chapters: [Int]) throws -> (site: Site, config: String, state: String) {
        let site = try Site(chapters)
        let directory = FileManager.default.temporaryDirectory.appending(path: "webparse-state-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let config = directory.appending(path: "comics.json")
        try """
        {"url": "\(site.server.url("/updates"))", "key": "id", "retries": 0, "timeout": 10,
         "script": "Array.from(document.querySelectorAll('li'), li => ({id: li.dataset.id, title: li.textContent}))"}
        """.write(to: config, atomically: true, encoding: .utf8)
        return (site, config.path, directory.appending(path: "comics.state").path)
    }

    func run(_ config: String, _ state: String, _ extra: [String] = []) async throws -> ProcessRunner.Outcome {
        try await webparse.run(["run", "--state", state, "--new-only"] + extra + [config], environment: headless)
    }

    @Test func onlyAdditionsArePrintedAndSilenceMeansNothingNew() async throws {
        let (site, config, state) = try setUp([1, 2])
        let first = try await run(config, state)
        #expect(first.status == 0 && first.stdout.isEmpty && first.stderr.isEmpty, "\(first.stderr)")
        site.show([1, 2, 3, 4])
        let second = try await run(config, state)
        #expect(second.status == 0)
        #expect(second.stdoutText == #"[{"id":"c3","title":"Chapter 3"},{"id":"c4","title":"Chapter 4"}]"# + "\n")
        let third = try await run(config, state)
        #expect(third.status == 0 && third.stdout.isEmpty && third.stderr.isEmpty)
        site.show([5, 1, 2, 3, 4])
        let lines = try await run(config, state, ["--jsonl"])
        #expect(lines.stdoutText == #"{"job":"127.0.0.1","item":{"id":"c5","title":"Chapter 5"}}"# + "\n")
    }

    /// A config over `site` whose items carry a title cut inside an emoji (a lone surrogate) and a value nested
    /// `depth` levels deep.
    func oddItemsConfig(_ site: Site, depth: Int, key: Bool) throws -> String {
        let script =
            "Array.from(document.querySelectorAll('li'), li => { let deep = 'bottom'; "
            + "for (let i = 1; i < \(depth); i++) deep = [deep]; "
            + "return {id: li.dataset.id, title: (li.textContent + ' 😀').slice(0, -1), deep}; })"
        let fields: [String: Any] = ["url": site.server.url("/updates").absoluteString, "retries": 0, "timeout": 10, "script": script]
        let json = try JSONSerialization.data(withJSONObject: key ? fields.merging(["key": "id"]) { $1 } : fields)
        return try write(String(decoding: json, as: UTF8.self), "odd-\(depth)-\(key).json", in: try folder())
    }

    @Test(arguments: [true, false])
    func deepItemsAndLoneSurrogatesAreTracked(byKey: Bool) async throws {
        let site = try Site([1, 2])
        let config = try oddItemsConfig(site, depth: 600, key: byKey)
        let state = try folder().appending(path: "odd.state").path
        let first = try await run(config, state)
        #expect(first.status == 0 && first.stdout.isEmpty, "\(first.stderr)")
        site.show([1, 2, 3])
        let second = try await run(config, state)
        #expect(second.status == 0, "\(second.stderr)")
        let deep = String(repeating: "[", count: 599) + #""bottom""# + String(repeating: "]", count: 599)
        #expect(second.stdoutText == #"[{"id":"c3","title":"Chapter 3 \ud83d","deep":"# + deep + "}]\n")
        let third = try await run(config, state)
        #expect(third.status == 0 && third.stdout.isEmpty, "nothing new: \(third.stdoutText.prefix(100))")
    }

    @Test func aResultDeeperThanTheStateTracksFailsTheJobAndLeavesTheStateAlone() async throws {
        // JavaScriptCore's own JSON.stringify stops near 50,000 levels; a page's replacement goes deeper.
        let server = try TestHTTPServer(routes: ["/": .respond(body: "<p>deep</p>")])
        let script = #"(JSON.stringify = () => '[{\"a\":'.repeat(30000) + '1' + '}]'.repeat(30000), [1])"#
        let config = try write(#"{"url": "\#(server.url("/"))", "script": "\#(script)"}"#, "deep.json", in: try folder())
        let state = try folder().appending(path: "deep.state").path
        let plain = try await webparse.run(["run", config], environment: headless)
        #expect(plain.status == 0, "without --state the result is printed: \(plain.stderr)")
        #expect(plain.stdout.count == 30_000 * 8 + 2)
        let tracked = try await run(config, state)
        #expect(tracked.status == 1)
        #expect(tracked.stdout.isEmpty)
        #expect(tracked.stderr.contains("nesting deeper than 50000 levels"), "\(tracked.stderr)")
        #expect(tracked.stderr.contains("more than --state can track"))
        let saved = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: state))) as? [String: Any]
        let job = (saved?["jobs"] as? [String: Any])?.values.first as? [String: Any]
        #expect((job?["seen"] as? [Any])?.isEmpty == true && job?["lastResult"] == nil, "nothing of the job's items is recorded: \(job ?? [:])")
        #expect((job?["failing"] as? [String: Any])?["code"] as? String == "unsupported-result", "only its health: \(job ?? [:])")
    }

    @Test func emitInitialPrintsTheFirstRun() async throws {
        let (site, config, state) = try setUp([1, 2])
        let first = try await run(config, state, ["--emit-initial"])
        #expect(first.stdoutText == #"[{"id":"c1","title":"Chapter 1"},{"id":"c2","title":"Chapter 2"}]"# + "\n", "\(first.stderr) \(first.status)")
        let again = try await run(config, state, ["--emit-initial"])
        #expect(again.stdout.isEmpty)
        withExtendedLifetime(site) {}
    }

    @Test func aFailedRunLeavesWhatTheStateKnowsOfTheItemsAsItWas() async throws {
        let (site, config, state) = try setUp([1, 2])
        _ = try await run(config, state)
        func job() throws -> [String: Any] {
            let saved = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: state))) as? [String: Any]
            return try #require((saved?["jobs"] as? [String: Any])?["127.0.0.1"] as? [String: Any])
        }
        let before = try job()
        site.fail(true)
        site.show([1, 2, 3])
        let failed = try await run(config, state)
        #expect(failed.status == 1)
        #expect(failed.stderr.contains("HTTP status 503"))
        let after = try job()
        for field in ["seen", "contents", "lastResult", "lastSuccess", "listed"] {
            #expect(
                (after[field] as? NSObject) == (before[field] as? NSObject), "\(field) is as it was: \(after[field] ?? "nil") \(before[field] ?? "nil")")
        }
        #expect((after["failing"] as? [String: Any])?["code"] as? String == "http-status" && after["consecutiveFailures"] as? Int == 1)
        site.fail(false)
        let recovered = try await run(config, state)
        #expect(recovered.stdoutText == #"[{"id":"c3","title":"Chapter 3"}]"# + "\n")
    }

    @Test func failAfterStaysSilentUntilTheNthFailureInARow() async throws {
        let (site, config, state) = try setUp([1])
        _ = try await run(config, state)
        site.fail(true)
        for _ in 1...2 {
            let silent = try await run(config, state, ["--fail-after", "3"])
            #expect(silent.status == 0)
            #expect(silent.stdout.isEmpty && silent.stderr.isEmpty, "\(silent.stderr)")
        }
        let loud = try await run(config, state, ["--fail-after", "3"])
        #expect(loud.status == 1)
        #expect(loud.stderr.contains("webparse: 127.0.0.1: failed 3 runs in a row: HTTP status 503"))
        site.fail(false)
        let back = try await run(config, state, ["--fail-after", "3"])
        #expect(back.status == 0)
        site.fail(true)
        let afterReset = try await run(config, state, ["--fail-after", "3"])
        #expect(afterReset.status == 0 && afterReset.stderr.isEmpty, "the count starts again after a success")
    }

    @Test func aHandEditedStateOutOfRangeIsRefusedNamingTheField() async throws {
        let (site, config, state) = try setUp([1])
        site.fail(true)
        for count in ["9223372036854775807", "-5"] {
            try #"{"version": 1, "jobs": {"127.0.0.1": {"seen": [], "consecutiveFailures": \#(count)}}}"#
                .write(toFile: state, atomically: true, encoding: .utf8)
            let outcome = try await run(config, state, ["--fail-after", "3"])
            #expect(outcome.status == 2, "\(outcome.stderr)")
            #expect(
                outcome.stderr.contains(
                    "webparse run: --state: \(state): jobs.127.0.0.1.consecutiveFailures: expected a count from 0 to 100000000, got \(count)"),
                "\(outcome.stderr)")
        }
    }

    @Test func aSecondRunOnTheSameStateWaitsOrLeaves() async throws {
        let (site, config, state) = try setUp([1])
        _ = try await run(config, state)
        let slow = try TestHTTPServer(routes: ["/updates": .delayed(.seconds(3), .respond(body: "<li data-id='x'>x</li>"))])
        let slowConfig = config.replacingOccurrences(of: ".json", with: "-slow.json")
        try String(contentsOfFile: config, encoding: .utf8)
            .replacingOccurrences(of: site.server.url("/updates").absoluteString, with: slow.url("/updates").absoluteString)
            .write(toFile: slowConfig, atomically: true, encoding: .utf8)
        let holder = try webparse.start(["run", "--state", state, "--new-only", slowConfig], environment: headless)
        while slow.requests.isEmpty { try await Task.sleep(for: .milliseconds(20)) }
        let refused = try await run(config, state)
        #expect(refused.status == 4, "it leaves at once rather than waiting for the lock")
        #expect(refused.stderr == "webparse run: another webparse run is using \(state); try again later, or pass --wait-lock SECONDS\n")
        let waiting = try await run(config, state, ["--wait-lock", "20"])
        #expect(waiting.status == 0, "\(waiting.stderr)")
        #expect(await holder.finish().status == 0)
    }

    @Test func killingARunAtAnyMomentLeavesOldOrNewState() async throws {
        let page = Shared(0)
        let server = try TestHTTPServer(routes: ["/many": .dynamic { _ in (200, "<script>window.run = \(page.value)</script>") }])
        let directory = FileManager.default.temporaryDirectory.appending(path: "webparse-kill-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let config = directory.appending(path: "many.json").path
        try #"{"url": "\#(server.url("/many"))", "remember": 200000, "script": "Array.from({length: 20000}, (_, i) => `run${window.run}-item${i}`)"}"#
            .write(toFile: config, atomically: true, encoding: .utf8)
        let state = directory.appending(path: "many.state").path
        _ = try await run(config, state)
        var previous = try Data(contentsOf: URL(fileURLWithPath: state))
        var generator = SystemRandomNumberGenerator()
        for round in 1...12 {
            page.value = round
            let running = try webparse.start(["run", "--state", state, "--new-only", config], environment: headless)
            try await Task.sleep(for: .milliseconds(Int.random(in: 150...900, using: &generator)))
            running.send(SIGKILL)
            _ = await running.finish()
            let current = try Data(contentsOf: URL(fileURLWithPath: state))
            let parsed = try JSONSerialization.jsonObject(with: current) as? [String: Any]
            #expect(parsed?["version"] as? Int == 3, "round \(round): the state file parses")
            if current != previous {
                #expect(String(decoding: current, as: UTF8.self).contains("\"lastSuccess\""), "round \(round)")
                previous = current
            }
            let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasPrefix(".many.state") }
            for leftover in leftovers { try? FileManager.default.removeItem(at: directory.appending(path: leftover)) }
        }
    }
}

/// The cron example works as the README shows it.
@Suite struct CronExampleTests {
    @Test func theMailOneLinerTurnsNewChaptersIntoText() async throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let state = FileManager.default.temporaryDirectory.appending(path: "webparse-cron-\(UUID().uuidString).state").path
        let webparse = ProcessRunner(product: "webparse").executable.path
        let shell = Process()
        shell.executableURL = URL(fileURLWithPath: "/bin/bash")
        shell.currentDirectoryURL = root
        shell.arguments = ["-c", "'\(webparse)' run --state '\(state)' --new-only --emit-initial Examples/cron/comics.json | jq -r -f Examples/cron/mail.jq"]
        var environment = ProcessInfo.processInfo.environment
        environment["DISPLAY"] = nil
        shell.environment = environment
        let output = Pipe()
        shell.standardOutput = output
        try shell.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        shell.waitUntilExit()
        #expect(text.hasPrefix("New chapters:\n- The Lighthouse Keeper, chapter 112: file://"))
        #expect(text.split(separator: "\n").count == 6)
    }
}
