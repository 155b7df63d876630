import Foundation
import Glibc
import Testing
import TestSupport

/// Prometheus' metrics: `webparse work --metrics HOST:PORT` serves them at /metrics with a health check at /healthz
/// (a worker, a separate process, of a queue on a real Redis), `webparse run --metrics-file FILE` writes them at the
/// end of a run; pages from a local server.
@Suite(.serialized) struct MetricsCommandTests: CommandLineTest {
    /// The status and body of `GET path` on 127.0.0.1:`port` (status 0: nothing answered).
    func get(_ port: Int, _ path: String) throws -> (status: Int, body: String) {
        let script = """
            import sys, urllib.request, urllib.error
            try:
                r = urllib.request.urlopen("http://127.0.0.1:%s%s" % (sys.argv[1], sys.argv[2]), timeout=5); print(r.status); print(r.read().decode())
            except urllib.error.HTTPError as e:
                print(e.code); print(e.read().decode())
            except Exception:
                print(0)
            """
        let output = String(decoding: try ProcessRunner(path: "/usr/bin/python3").output(["-c", script, String(port), path]).stdout, as: UTF8.self)
        let status = Int(output.prefix { $0 != "\n" }) ?? 0
        return (status, String(output.drop { $0 != "\n" }.dropFirst()))
    }

    @Test func aWorkerServesItsCountsAndItsHealth() async throws {
        let site = try TestHTTPServer(routes: [
            "/1": .respond(body: "<title>one</title>"), "/2": .respond(body: "<title>two</title>"), "/gone": .respond(status: 404, body: "gone")
        ])
        let redis = try RedisServer()
        try redis.cli(["RPUSH", "comics", site.url("/1").absoluteString, site.url("/2").absoluteString, site.url("/gone").absoluteString])
        let port = try LocalPort.free()
        let worker = try webparse.start(
            ["work", redis.url(queue: "comics"), "--script", "document.title", "--wait", "--lease", "2", "--metrics", "127.0.0.1:\(port)"],
            environment: headless)
        try await waitUntil("three records", within: 30) { try redis.cli(["LLEN", "comics:results"]) == "2" && redis.cli(["LLEN", "comics:failed"]) == "1" }
        #expect(try get(port, "/healthz").status == 200)
        let metrics = try get(port, "/metrics")
        #expect(metrics.status == 200)
        let lines = Set(metrics.body.split(separator: "\n").map(String.init))
        for expected in [
            #"webparse_pages_total{job="-",outcome="ok",code=""} 2"#, #"webparse_pages_total{job="-",outcome="failed",code="http-status"} 1"#,
            "webparse_page_seconds_count 3", "webparse_items_in_hand 0", "webparse_hosts_paused 0", "webparse_healthy 1"
        ] {
            #expect(lines.contains(expected), "\(metrics.body)")
        }
        let processes = lines.first { $0.hasPrefix("webparse_web_processes ") }.flatMap { Int($0.split(separator: " ")[1]) }
        let memory = lines.first { $0.hasPrefix("webparse_web_process_memory_bytes ") }.flatMap { Double($0.split(separator: " ")[1]) }
        #expect((processes ?? 0) >= 1 && (memory ?? 0) > 1_000_000, "\(metrics.body)")
        #expect(try get(port, "/other").status == 404)
        // Redis gone: the heartbeat fails, and within the lease the worker says it is unhealthy.
        redis.stop()
        try await waitUntil("/healthz answers 503", within: 30) { try get(port, "/healthz").status == 503 }
        worker.send(SIGTERM)
        _ = await worker.finish()
    }

    /// After `--renew-after` items a worker starts over in place: the same process, its metrics port bound again by
    /// the new image, no web process or display of an earlier image left, every item done once.
    @Test func aWorkerThatRenewsItselfKeepsItsPortAndLosesNoItem() async throws {
        let site = try TestHTTPServer(routes: ["*": .handle { request in .init(body: "<title>\(request.path)</title>") }])
        let redis = try RedisServer()
        let urls = (1...6).map { site.url("/\($0)").absoluteString }
        try redis.cli(["RPUSH", "comics"] + urls)
        let port = try LocalPort.free()
        let worker = try webparse.start(
            ["work", redis.url(queue: "comics"), "--script", "document.title", "--wait", "-j", "1", "--renew-after", "2", "--metrics", "127.0.0.1:\(port)"],
            environment: headless)
        try await waitUntil("six records", within: 60) { try redis.cli(["LLEN", "comics:results"]) == "6" }
        try await waitUntil("/healthz answers 200 from the renewed worker", within: 30) { try get(port, "/healthz").status == 200 }
        let names = worker.descendants().map(\.name)
        #expect(names.filter { $0.hasPrefix("WebKitWebProc") }.count <= 2 && names.filter { $0 == "Xvfb" }.count <= 1, "\(names)")
        worker.send(SIGTERM)
        let outcome = await worker.finish()
        #expect(outcome.status == 143, "\(outcome.stderr)")
        let renewals = outcome.stderr.split(separator: "\n").filter { $0.contains("2 items taken; starting over as a fresh process") }
        #expect(renewals.count == 3, "\(outcome.stderr)")
        let done = try redis.cli(["LRANGE", "comics:results", "0", "-1"]).split(separator: "\n").compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["url"] as? String
        }
        #expect(done.sorted() == urls.sorted(), "each item once")
    }

    @Test func aPortInUseIsAUsageErrorBeforeAnyWork() async throws {
        let (listener, port) = try LocalPort.taken()
        defer { close(listener) }
        // A queue whose Redis is not there: the port is refused first, exit 2, before any connection.
        let outcome = try await webparse.run(["work", "redis://127.0.0.1:1?queue=q", "--script", "1", "--metrics", "127.0.0.1:\(port)"])
        #expect(outcome.status == 2)
        #expect(outcome.stderr == "webparse work: --metrics: cannot listen on 127.0.0.1:\(port): Address already in use\n", "\(outcome.stderr)")
        let malformed = try await webparse.run(["work", "redis://127.0.0.1:1?queue=q", "--script", "1", "--metrics", "9464"])
        #expect(malformed.status == 2 && malformed.stderr.contains("--metrics: expected HOST:PORT (or :PORT for every interface), got '9464'"))
    }

    @Test func aRunWritesItsCountsForTheTextfileCollector() async throws {
        let site = try TestHTTPServer(routes: [
            "/": .respond(body: #"<title>home</title><a href="/a">a</a><a href="/b">b</a>"#), "/a": .respond(body: "<title>a</title>"),
            "/b": .respond(status: 500, body: "down"), "/gone": .respond(status: 404, body: "gone")
        ])
        let directory = try folder()
        let config = try write(
            #"{"jobs": [{"name": "site", "url": "\#(site.url("/"))", "crawl": {"robots": false}, "retries": 0}, {"name": "gone", "url": "\#(site.url("/gone"))"}], "defaults": {"script": "document.title"}}"#,
            "config.json", in: directory)
        let file = directory.appending(path: "webparse.prom").path
        let outcome = try await webparse.run(["run", config, "--metrics-file", file], environment: headless)
        #expect(outcome.status == 1, "\(outcome.stderr)")
        let lines = Set(try String(contentsOfFile: file, encoding: .utf8).split(separator: "\n").map(String.init))
        for expected in [
            #"webparse_pages_total{job="site",outcome="ok",code=""} 2"#, #"webparse_pages_total{job="site",outcome="failed",code="http-status"} 1"#,
            #"webparse_pages_total{job="gone",outcome="failed",code="http-status"} 1"#, "webparse_page_seconds_count 4",
            "webparse_last_run_exit_code 1", "# TYPE webparse_last_run_timestamp_seconds gauge"
        ] {
            #expect(lines.contains(expected), "\(lines.sorted())")
        }
        #expect(try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int == 0o644)
        let unwritable = try await webparse.run(["run", config, "--metrics-file", "/nonexistent/webparse.prom"], environment: headless)
        #expect(unwritable.status == 2 && unwritable.stderr.contains("--metrics-file:"), "\(unwritable.stderr)")
    }
}
