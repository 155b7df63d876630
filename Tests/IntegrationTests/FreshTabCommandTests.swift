import Foundation
import TestSupport
import Testing

/// A config's jobs each run in a fresh tab, so their results do not depend on how many run at once.
@Suite(.serialized) struct FreshTabCommandTests: CommandLineTest {
    @Test func resultsAreTheSameWithOneOrEightPagesAtOnce() async throws {
        // Each page reports what an earlier job in its tab left, then leaves some itself.
        let page = """
            <title>tab</title><script>
            window.seen = {session: sessionStorage.getItem("mark"), name: window.name, history: history.length};
            sessionStorage.setItem("mark", location.pathname);
            window.name = "job " + location.pathname;
            history.pushState({}, "", "#pushed");
            </script>
            """
        let server = try TestHTTPServer(routes: ["*": .respond(body: page)])
        let directory = try folder()
        let jobs = (1...12).map { #"{"name": "job\#($0)", "url": "\#(server.url("/page\($0)"))"}"# }.joined(separator: ", ")
        let config = try write(#"{"defaults": {"script": "window.seen"}, "jobs": [\#(jobs)]}"#, "tabs.json", in: directory)
        let one = try await webparse.run(["run", "-j1", config], environment: headless)
        let eight = try await webparse.run(["run", "-j8", config], environment: headless)
        #expect(one.status == 0 && eight.status == 0, "\(one.stderr)\(eight.stderr)")
        #expect(one.stdout == eight.stdout)
        let results = try #require(try JSONSerialization.jsonObject(with: one.stdout) as? [String: [String: Any]])
        #expect(results.count == 12)
        for (name, seen) in results {
            #expect(seen["session"] is NSNull && seen["name"] as? String == "" && seen["history"] as? Int == 1, "\(name): \(seen)")
        }
    }
}
