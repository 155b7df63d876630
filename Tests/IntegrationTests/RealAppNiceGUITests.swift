import Foundation
import TestSupport
import Testing

/// webparse on a single-page app of NiceGUI (PyPI, pinned), which draws and changes the page from the server over
/// a websocket (Vue and Quasar in the page, socket.io underneath): steps fill its field and click its buttons, and
/// the list a click makes grow one entry at a time, 80 ms apart, is read whole. The app's own list (its Python
/// objects, as its JSON endpoint gives them) is the truth, at one page at a time and at the default `-j`, three
/// times each.
@Suite(.serialized) struct RealAppNiceGUITests: CommandLineTest {
    @Test(arguments: [["-j", "1"], []]) func stepsFillAndClickAndTheGrownListIsReadWhole(concurrency: [String]) async throws {
        let script = RealApplication.fixtures.appending(path: "nicegui_todo.py").path
        let app = try RealApplication("NiceGUI 3.18.0", program: "python3") { [script, String($0)] }
        defer { app.stop() }
        let directory = try folder()
        for round in 1...3 {
            let first = "Ink the cover \(round)", second = "Letter page \(round)"
            let config = try write(
                #"""
                {"url": "\#(app.base)/", "retries": 0, "timeout": 30,
                 "steps": [{"fill": {"input[aria-label='New entry']": "\#(first)"}}, {"click": "#add"},
                           {"fill": {"input[aria-label='New entry']": "\#(second)"}}, {"click": "#add"}, {"click": "#archive"}],
                 "script": "[...document.querySelectorAll('.entry')].map((entry) => entry.textContent)"}
                """#, "todo.json", in: directory)
            let run = try await webparse.run(["run", config] + concurrency, environment: headless)
            #expect(run.status == 0, "round \(round) \(concurrency): \(run.stderr)")
            let read = try #require(try JSONSerialization.jsonObject(with: run.stdout) as? [String], "\(run.stdoutText) \(run.stderr)")
            let truth = try #require((try RealApplication.truth(["json", "\(app.base)/api/entries"]) as? [String: Any])?["entries"] as? [String])
            #expect(read == truth, "round \(round) \(concurrency): \(run.stderr)")
            #expect(read.suffix(7).prefix(2) == [first, second], "the entries the steps added, in order: \(read)")
            #expect(read.suffix(5).allSatisfy { $0.hasPrefix("Archived ") }, "the archive's five entries, all of them: \(read)")
        }
    }
}
