import Foundation
import TestSupport
import Testing

/// Capture from the command line as users run it: many pages at once on a machine that is busy.
@Suite struct CaptureCommandTests: CommandLineTest {
    /// A page built the way a large single-page app is: a big bundle, three API calls (one slow), and a render
    /// that keeps the page's thread busy for a while after data arrives, so that WebKit reports the loads' ends
    /// long before the page's thread passes their bodies on. Twenty of them at four at once with both cores kept
    /// busy: every record has its body, every time (before, some jobs ended with the loads' records, kind "other"
    /// and without a body, or without the slow response at all).
    @Test func noBodyIsLostUnderLoad() async throws {
        let bundle = "var routes = [" + (0..<40_000).map { "function(){return \($0)}" }.joined(separator: ",") + "];"
        let page = """
            <!doctype html><div id="app"></div><script defer src="/bundle.js"></script><script defer>
            const busy = (ms) => { const end = performance.now() + ms; while (performance.now() < end) {} };
            Promise.all([fetch("/api/list").then(r => r.json()), fetch("/api/slow").then(r => r.json())]).then(([list, slow]) => {
              app.innerHTML = list.items.concat(slow.items).map(i => "<p>" + i + "</p>").join("");
              busy(800);
            });
            fetch("/api/meta").then(r => r.json()).then(() => busy(1500));
            </script>
            """
        let server = try TestHTTPServer(routes: [
            "*": .respond(body: page),
            "/bundle.js": .respond(contentType: "application/javascript", body: bundle),
            "/api/list": .respond(contentType: "application/json", body: #"{"items": ["a", "b"]}"#),
            "/api/slow": .delayed(.milliseconds(400), .respond(contentType: "application/json", body: #"{"items": ["c"]}"#)),
            "/api/meta": .respond(contentType: "application/json", body: #"{"version": 3}"#)
        ])
        let jobs = (1...20).map { #"{"name": "p\#($0)", "url": "\#(server.url("/page/\($0)"))"}"# }.joined(separator: ",")
        let config = try write(
            #"{"defaults": {"capture": {"url": "/api/", "as": "json"}, "collect": "responses", "retries": 0, "timeout": 60}, "jobs": [\#(jobs)]}"#,
            "capture.json", in: try folder())
        let load = CPULoad(threads: 2)
        let outcome = try await webparse.run(["run", config, "--jsonl", "-j", "4"], environment: headless)
        load.stop()
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let records = outcome.stdoutText.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        #expect(records.count == 20)
        for record in records {
            let responses = record["result"] as? [[String: Any]] ?? []
            let seen = responses.map {
                "\(URL(string: $0["url"] as? String ?? "")?.path ?? "?") \($0["kind"] ?? "?") \($0["body"] == nil ? "no body" : "body")"
            }
            #expect(
                seen.sorted() == ["/api/list fetch body", "/api/meta fetch body", "/api/slow fetch body"],
                "\(record["job"] ?? "?"): \(seen)")
        }
    }
}
