import Foundation
import TestSupport
import Testing

/// `extract` from the command line: `eval --items --field`, and a config's `extract` in `run`.
@Suite struct ExtractCommandTests: CommandLineTest {
    func site() throws -> TestHTTPServer {
        try TestHTTPServer(routes: [
            "/": .respond(
                body: """
                    <div id="app"></div><script>
                    fetch("/api").then(r => r.json()).then(list => {
                      app.innerHTML = list.map(c => `<p class="chapter"><a href="/c/${c}">Chapter ${c}</a></p>`).join("");
                    });
                    </script>
                    """),
            "/api": .respond(contentType: "application/json", body: "[7, 8]")
        ])
    }

    /// `eval URL --items SELECTOR --field NAME=SELECTOR` prints the items; a bad selector or a field without a
    /// selector is refused (exit 2) before any page loads, as is SCRIPT beside them.
    @Test func evalReadsItemsAndFieldsFromOptions() async throws {
        let server = try site()
        let url = server.url("/").absoluteString
        let items = try await webparse.run(["eval", url, "--items", ".chapter", "--field", "title=a", "--field", "url=a@href"], environment: headless)
        #expect(items.status == 0, "\(items.stderr)")
        #expect(items.stdoutText == #"[{"title":"Chapter 7","url":"\#(url)c/7"},{"title":"Chapter 8","url":"\#(url)c/8"}]"# + "\n")
        let bad = try await webparse.run(["eval", "http://127.0.0.1:9/", "--items", "p[", "--field", "title"], environment: headless)
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("--items: not a valid CSS selector") && bad.stderr.contains("--field: expected NAME=SELECTOR"), "\(bad.stderr)")
        let both = try await webparse.run(["eval", url, "document.title", "--field", "t=h1"], environment: headless)
        #expect(both.status == 2 && both.stderr.contains("not both"))
        let json = try await webparse.run(["eval", url, "--extract", #"{"items": ".chapter", "fields": {"title": "a"}}"#], environment: headless)
        #expect(json.status == 0 && json.stdoutText == #"[{"title":"Chapter 7"},{"title":"Chapter 8"}]"# + "\n", "\(json.stderr)")
        let broken = try await webparse.run(["eval", url, "--extract", #"{"items": ".chapter""#], environment: headless)
        #expect(broken.status == 2 && broken.stderr.contains("--extract: expected a JSON object"), "\(broken.stderr)")
    }

    /// Items that lack a required field are left out; how many is told with -v and in --jsonl records.
    @Test func itemsLeftOutAreCounted() async throws {
        let server = try TestHTTPServer(routes: [
            "/": .respond(body: #"<p class="c"><a href="/1">One</a></p><p class="c">no link</p><p class="c"><a href="/3">Three</a></p>"#)
        ])
        let directory = try folder()
        let config = try write(
            #"{"url": "\#(server.url("/"))", "extract": {"items": ".c", "fields": {"url": {"selector": "a@href", "required": true}}}, "retries": 0}"#,
            "c.json", in: directory)
        let verbose = try await webparse.run(["run", config, "-v"], environment: headless)
        #expect(verbose.status == 0)
        #expect(verbose.stdoutText == #"[{"url":"\#(server.url("/1"))"},{"url":"\#(server.url("/3"))"}]"# + "\n")
        #expect(verbose.stderr.contains("1 item left out: a required field was missing or empty"), "\(verbose.stderr)")
        let jsonl = try await webparse.run(["run", config, "--jsonl"], environment: headless)
        #expect(jsonl.stdoutText.contains(#""leftOut":1"#), "\(jsonl.stdoutText)")
    }

    /// A config's `extract` runs like a script: with `--state` and a `key`, a second run reports nothing new.
    @Test func aConfigsExtractWorksWithState() async throws {
        let server = try site()
        let directory = try folder()
        let config = try write(
            #"{"url": "\#(server.url("/"))", "extract": {"items": ".chapter", "fields": {"title": "a", "url": "a@href"}}, "key": "url", "retries": 0}"#,
            "chapters.json", in: directory)
        let state = directory.appending(path: "state.json").path
        let first = try await webparse.run(["run", config, "--state", state, "--new-only", "--emit-initial"], environment: headless)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdoutText.contains("Chapter 7") && first.stdoutText.contains("Chapter 8"))
        let second = try await webparse.run(["run", config, "--state", state, "--new-only"], environment: headless)
        #expect(second.status == 0 && second.stdoutText == "", "\(second.stdoutText)")
    }
}
