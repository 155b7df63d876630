import Foundation
import TestSupport
import Testing

/// With `--state`: items whose content changed under a key seen before, values that changed shown as a diff, and
/// state files of the first version read and carried on.
@Suite struct ChangeReportTests: CommandLineTest {
    /// A page listing `titles` by id, or showing `status` as one object.
    func site(_ titles: Shared<[(String, String)]>, _ status: Shared<Int>) throws -> TestHTTPServer {
        try TestHTTPServer(routes: [
            "/list": .handle { _ in
                TestHTTPServer.Response(body: "<ul>" + titles.value.map { "<li data-id='\($0.0)'>\($0.1)</li>" }.joined() + "</ul>")
            },
            "/status": .handle { _ in TestHTTPServer.Response(body: "<p id='open'>\(status.value)</p><p id='name'>queue</p>") }
        ])
    }

    /// A config of the list page's items, keyed by their id.
    func listConfig(_ server: TestHTTPServer, in directory: URL) throws -> String {
        try write(
            #"""
            {"name": "list", "url": "\#(server.url("/list"))", "retries": 0, "key": "id",
             "script": "[...document.querySelectorAll('li')].map(li => ({id: li.dataset.id, title: li.textContent}))"}
            """#, "list.json", in: directory)
    }

    @Test func changedItemsAreReportedWithWhatTheyWere() async throws {
        let titles = Shared([("c1", "One"), ("c2", "Two")])
        let server = try site(titles, Shared(0))
        let directory = try folder()
        let config = try listConfig(server, in: directory)
        let state = directory.appending(path: "list.state").path
        _ = try await webparse.run(["run", "--state", state, "--new-only", config], environment: headless)
        titles.value = [("c1", "One"), ("c2", "Two, revised"), ("c3", "Three")]
        let all = try await webparse.run(["run", "--state", state, "--new-only", "--report", "all", "--jsonl", config], environment: headless)
        #expect(all.status == 0, "\(all.stderr)")
        #expect(
            all.stdoutText.split(separator: "\n").map(String.init) == [
                #"{"job":"list","item":{"id":"c3","title":"Three"},"change":"added"}"#,
                #"{"job":"list","item":{"id":"c2","title":"Two, revised"},"change":"changed","before":{"id":"c2","title":"Two"}}"#
            ])
        titles.value = [("c1", "One, again"), ("c2", "Two, revised"), ("c3", "Three"), ("c4", "Four")]
        let changed = try await webparse.run(["run", "--state", state, "--new-only", "--report", "changed", config], environment: headless)
        #expect(changed.stdoutText == #"[{"item":{"id":"c1","title":"One, again"},"change":"changed","before":{"id":"c1","title":"One"}}]"# + "\n")
        titles.value = [("c1", "One, again"), ("c2", "Two, revised"), ("c3", "Three"), ("c4", "Four"), ("c5", "Five")]
        let plain = try await webparse.run(["run", "--state", state, "--new-only", config], environment: headless)
        #expect(plain.stdoutText == #"[{"id":"c5","title":"Five"}]"# + "\n", "the default reports additions as before")
        let bad = try await webparse.run(["run", "--report", "all", config])
        #expect(bad.status == 2 && bad.stderr.contains("--report goes with --new-only"), "\(bad.stderr)")
    }

    @Test func aChangedValueIsShownAsADiff() async throws {
        let status = Shared(1)
        let server = try site(Shared([]), status)
        let directory = try folder()
        let config = try write(
            #"""
            {"name": "queue", "url": "\#(server.url("/status"))", "retries": 0,
             "script": "({name: document.querySelector('#name').textContent, open: Number(document.querySelector('#open').textContent)})"}
            """#, "status.json", in: directory)
        let state = directory.appending(path: "status.state").path
        _ = try await webparse.run(["run", "--state", state, "--new-only", config], environment: headless)
        status.value = 2
        let diff = try await webparse.run(["run", "--state", state, "--new-only", "--diff", config], environment: headless)
        #expect(diff.status == 0, "\(diff.stderr)")
        let text = try JSONSerialization.jsonObject(with: diff.stdout, options: .fragmentsAllowed) as? String
        #expect(text == "--- before\n+++ now\n@@ -1,4 +1,4 @@\n {\n   \"name\": \"queue\",\n-  \"open\": 1\n+  \"open\": 2\n }\n")
        status.value = 3
        let changed = try await webparse.run(["run", "--state", state, "--new-only", "--report", "changed", config], environment: headless)
        #expect(
            changed.stdoutText == #"[{"item":{"name":"queue","open":3},"change":"changed","before":{"name":"queue","open":2}}]"# + "\n",
            "\(changed.stderr)")
    }

    @Test func aFirstVersionStateIsReadAndCarriedOn() async throws {
        let titles = Shared([("c1", "One"), ("c2", "Two")])
        let server = try site(titles, Shared(0))
        let directory = try folder()
        let config = try listConfig(server, in: directory)
        let state = try write(
            #"""
            {"version": 1, "jobs": {"list": {"seen": ["k:\"c1\"", "k:\"c2\""], "lastResult": "x", "lastSuccess": "2026-11-01T00:00:00Z", "consecutiveFailures": 0}}}
            """#, "old.state", in: directory)
        let carried = try await webparse.run(["run", "--state", state, "--new-only", "--report", "all", config], environment: headless)
        #expect(carried.status == 0 && carried.stdout.isEmpty, "nothing new, nothing known to have changed: \(carried.stderr)")
        let upgraded = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: state))) as? [String: Any]
        #expect(upgraded?["version"] as? Int == 3)
        titles.value = [("c1", "One"), ("c2", "Deux")]
        let changed = try await webparse.run(["run", "--state", state, "--new-only", "--report", "changed", config], environment: headless)
        #expect(changed.stdoutText.contains(#""before":{"id":"c2","title":"Two"}"#), "\(changed.stderr)")
    }
}
