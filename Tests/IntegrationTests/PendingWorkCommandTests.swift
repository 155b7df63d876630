import Foundation
import TestSupport
import Testing

/// What made an answer final, from the command line: `-v` says it on stderr, `--jsonl` records carry it, and a
/// config's `lookAhead` is read and checked.
@Suite struct PendingWorkCommandTests: CommandLineTest {
    @Test func theRunSaysWhatMadeEachAnswerFinal() async throws {
        let server = try TestHTTPServer(routes: [
            "/": .respond(
                body: """
                    <!doctype html><ul id="list"><li>1</li></ul><script>
                    setTimeout(() => { for (let n = 2; n <= 8; n++) list.insertAdjacentHTML("beforeend", "<li>" + n + "</li>"); }, 600);
                    </script>
                    """)
        ])
        let directory = try folder()
        let config = try write(
            #"{"url": "\#(server.url("/"))", "script": "document.querySelectorAll('li').length", "lookAhead": 2, "retries": 0}"#,
            "later.json", in: directory)
        let verbose = try await webparse.run(["run", config, "-v"], environment: headless)
        #expect(verbose.status == 0, "\(verbose.stderr)")
        #expect(verbose.stdoutText == "8\n")
        #expect(verbose.stderr.contains("settled: nothing pending, after a timer due in"), "\(verbose.stderr)")
        let jsonl = try await webparse.run(["run", config, "--jsonl"], environment: headless)
        let record = try #require(try JSONSerialization.jsonObject(with: jsonl.stdout) as? [String: Any])
        #expect((record["settledBy"] as? String)?.hasPrefix("nothing pending, after a timer due in") == true, "\(record)")
        let bad = try write(#"{"url": "\#(server.url("/"))", "script": "1", "lookAhead": -1}"#, "bad.json", in: directory)
        let refused = try await webparse.run(["validate", bad], environment: headless)
        #expect(refused.status == 2 && refused.stderr.contains("lookAhead"), "\(refused.stderr)")
    }
}
