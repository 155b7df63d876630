import Foundation
import TestSupport
import Testing

/// `run --concurrency`: pages at once, in one process.
@Suite(.serialized) struct ConcurrencyTests: CommandLineTest {
    func config(_ server: TestHTTPServer, jobs: Int) throws -> String {
        let list = (1...jobs).map { #"{"name": "job\#($0)", "url": "\#(server.url("/slow" + String($0)))", "script": "document.title"}"# }
        let file = FileManager.default.temporaryDirectory.appending(path: "webparse-concurrency-\(UUID().uuidString).json")
        try #"{"defaults": {"retries": 0}, "jobs": [\#(list.joined(separator: ","))]}"#.write(to: file, atomically: true, encoding: .utf8)
        return file.path
    }

    func slowServer(jobs: Int) throws -> TestHTTPServer {
        // The first job is the slowest, so jobs finish out of config order.
        try TestHTTPServer(
            routes: Dictionary(
                uniqueKeysWithValues: (1...jobs).map { index in
                    ("/slow\(index)", TestHTTPServer.Route.delayed(.milliseconds(1200 - 200 * index), .respond(body: "<title>t\(index)</title>")))
                }))
    }

    @Test func pagesOverlapAndTheOutputKeepsConfigOrder() async throws {
        let server = try slowServer(jobs: 4)
        let outcome = try await webparse.run(["run", "--concurrency", "4", try config(server, jobs: 4)], environment: ["DISPLAY": nil])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(server.mostConcurrentRequests == 4)
        #expect(outcome.stdoutText == #"{"job1":"t1","job2":"t2","job3":"t3","job4":"t4"}"# + "\n")

        let lines = try await webparse.run(["run", "-j", "4", "--jsonl", try config(server, jobs: 4)], environment: ["DISPLAY": nil])
        let names = lines.stdoutText.split(separator: "\n").compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["job"] as? String
        }
        #expect(names == ["job4", "job3", "job2", "job1"], "JSON Lines come as jobs finish")
    }

    @Test func concurrencyOneRunsOneAtATime() async throws {
        let server = try slowServer(jobs: 3)
        let outcome = try await webparse.run(["run", "-j", "1", try config(server, jobs: 3)], environment: ["DISPLAY": nil])
        #expect(outcome.status == 0)
        #expect(server.mostConcurrentRequests == 1)
    }

    /// Pages at once share web processes two by two by default; `--pages-per-process` and the config's
    /// `pagesPerProcess` say how many. The app's script is cached for an hour and an ephemeral session has no
    /// cache but each web process's own: its requests count the processes.
    @Test func pagesShareWebProcessesAsTheRunSays() async throws {
        let app = "setTimeout(() => document.title = 'ready', 500)"
        let server = try TestHTTPServer(routes: [
            "/": .respond(body: "<script src=/app.js></script>"),
            "/app.js": .respond(contentType: "text/javascript", headers: ["Cache-Control": "max-age=3600"], body: app)
        ])
        let jobs = (1...4).map { #"{"name": "p\#($0)", "url": "\#(server.url("/"))", "script": "document.title === 'ready' ? 1 : null"}"# }
        func config(_ top: String) throws -> String {
            let file = FileManager.default.temporaryDirectory.appending(path: "webparse-shared-\(UUID().uuidString).json")
            try #"{\#(top)"defaults": {"retries": 0}, "jobs": [\#(jobs.joined(separator: ","))]}"#.write(to: file, atomically: true, encoding: .utf8)
            return file.path
        }
        for (arguments, top, processes) in [([], "", 2), (["--pages-per-process", "1"], "", 4), ([], #""pagesPerProcess": 4, "#, 1)] {
            let before = server.requests(for: "/app.js").count
            let outcome = try await webparse.run(["run", "-j", "4"] + arguments + [try config(top)], environment: ["DISPLAY": nil])
            #expect(outcome.status == 0, "\(outcome.stderr)")
            #expect(outcome.stdoutText == #"{"p1":1,"p2":1,"p3":1,"p4":1}"# + "\n")
            #expect(server.requests(for: "/app.js").count - before == processes, "\(arguments) \(top)")
        }
        let bad = try await webparse.run(["run", "--pages-per-process", "0", try config("")], environment: ["DISPLAY": nil])
        #expect(bad.status == 2)
        #expect(bad.stderr.hasPrefix("webparse run: --pages-per-process: expected a number of pages from 1 to 64, got 0"), "\(bad.stderr)")
    }

    /// A page stuck in JavaScript beside another job's page: the stuck job fails, exit 1; the other job's result
    /// is printed. When the other page shared the stuck one's process, `-v` says it ran again in a process of its own
    /// without counting: because the stuck job's process was ended (it left the ping sent when it timed out
    /// unanswered), or because its own pings went unanswered first. (Under load the other page may not join the
    /// stuck one's process in time and runs beside it instead. And the stuck page could take the process's thread
    /// just after its last answered ping: that ping once passed for proof that the process was not stuck, and the
    /// other page waited there until its own time-out.)
    @Test func aJobBesideAStuckPageStillGivesItsResult() async throws {
        let server = try TestHTTPServer(routes: [
            "/stuck": .respond(body: "<script>setTimeout(() => { while (true) {} }, 100)</script>"),
            "/slow": .respond(body: "<p id=out></p><script>setTimeout(() => out.textContent = 'done', 1500)</script>")
        ])
        let file = FileManager.default.temporaryDirectory.appending(path: "webparse-stuck-\(UUID().uuidString).json")
        try
            #"{"defaults": {"retries": 0}, "jobs": [{"name": "stuck", "url": "\#(server.url("/stuck"))", "script": "window.never", "timeout": 1}, {"name": "slow", "url": "\#(server.url("/slow"))", "script": "out.textContent"}]}"#
            .write(to: file, atomically: true, encoding: .utf8)
        let outcome = try await webparse.run(["run", "-v", "-j", "2", file.path], environment: ["DISPLAY": nil])
        #expect(outcome.status == 1)
        #expect(outcome.stdoutText == #"{"slow":"done"}"# + "\n")
        let rerun = "it runs again in a fresh tab in a web process of its own, in the time left of the attempt, and that does not count as an attempt"
        if outcome.stderr.contains(rerun) {
            #expect(
                outcome.stderr.contains("webparse: slow: the web process this page shared with another job's page ended")
                    || outcome.stderr.contains("webparse: slow: the web process this page shared with another job's page did not answer for 3 s"),
                "\(outcome.stderr)")
        }
        #expect(outcome.stderr.contains("webparse: stuck: failed: timed out after 1 s"))
    }

    /// An endless document, a gzip bomb (1 MB that inflates to 1 GiB) and an endless response a page fetches:
    /// with `--memory-limit 300` each job ends within its timeout and webparse's whole process tree stays
    /// within 2 × (the limit + 128 MiB) + 150 MiB (what the README promises, measured as proportional set size):
    /// webparse's guard kills a web or network process past the limit + 128 MiB from outside it.
    @Test func oversizedResponsesAreStoppedWithinTheMemoryLimit() async throws {
        let server = try TestHTTPServer(routes: [
            "/endless": .endless(head: "<title>endless</title>", chunk: "<p>" + String(repeating: "x", count: 65_000) + "</p>"),
            "/bomb": .bytes(headers: ["Content-Encoding": "gzip"], body: GzipBomb.make(head: "<title>bomb</title><!--", megabytes: 1024)),
            "/fetches": .respond(body: "<title>fetches</title><script>fetch('/endless').then(r => r.text()).then(t => document.title = t.length)</script>")
        ])
        let directory = try folder()
        for path in ["/endless", "/bomb", "/fetches"] {
            let config = try write(
                #"{"url": "\#(server.url(path))", "script": "/^[0-9]+$/.test(document.title) ? document.title : null", "timeout": 15, "retries": 0}"#,
                "big.json", in: directory)
            let running = try webparse.start(["run", "--memory-limit", "300", config], environment: headless)
            let peak = try await running.peakMegabytes()
            let outcome = await running.finish()
            #expect(outcome.status == 1, "\(path): \(outcome.stderr)")
            #expect(outcome.stdout.isEmpty, "\(path)")
            #expect(outcome.stderr.contains("too much memory") || outcome.stderr.contains("timed out"), "\(path): \(outcome.stderr)")
            #expect(peak < 2 * (300 + 128) + 150, "\(path): the process tree reached \(peak) MiB")
        }
    }

    @Test func aRunawayPageIsKilledWhileTheOthersSucceed() async throws {
        let hog = "<script>const keep = []; setInterval(() => { for (let i = 0; i < 20; i++) keep.push(new Array(1 << 20).fill(i)) }, 20)</script>"
        let server = try TestHTTPServer(routes: ["/hog": .respond(body: hog), "/fine": .respond(body: "<title>fine</title>")])
        let file = FileManager.default.temporaryDirectory.appending(path: "webparse-hog-\(UUID().uuidString).json")
        try
            #"{"memoryLimit": 200, "defaults": {"retries": 0, "timeout": 30}, "jobs": [{"name": "hog", "url": "\#(server.url("/hog"))", "script": "null"}, {"name": "fine", "url": "\#(server.url("/fine"))", "script": "document.title"}]}"#
            .write(to: file, atomically: true, encoding: .utf8)
        let outcome = try await webparse.run(["run", file.path], environment: ["DISPLAY": nil])
        #expect(outcome.status == 1)
        #expect(outcome.stdoutText == #"{"fine":"fine"}"# + "\n")
        #expect(outcome.stderr.contains("webparse: hog: failed: the page used too much memory and was stopped"))
    }
}
