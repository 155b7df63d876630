import Foundation
import TestSupport
import Testing

/// Steps from a config, from `--step` and from `--steps FILE`, and what a user sees when one is wrong.
@Suite struct StepCommandTests: CommandLineTest {
    /// A list whose second item appears only after a trusted click on "more", and a field the steps fill.
    func site() throws -> TestHTTPServer {
        try TestHTTPServer(routes: [
            "/": .respond(
                body: """
                    <button id="more">more</button><ul><li>a</li></ul><input id="q">
                    <script>
                    document.getElementById("more").addEventListener("click", (e) => {
                      if (e.isTrusted) document.querySelector("ul").insertAdjacentHTML("beforeend", "<li>" + document.getElementById("q").value + "</li>");
                    });
                    </script>
                    """)
        ])
    }

    static let script = #"document.querySelectorAll("li").length > 1 ? [...document.querySelectorAll("li")].map((li) => li.textContent) : null"#

    @Test func stepsComeFromTheConfigTheOptionsOrAFile() async throws {
        let server = try site()
        let directory = try folder()
        let config = try write(
            #"""
            {"url": "\#(server.url("/"))", "retries": 0, "script": \#(String(decoding: try JSONEncoder().encode(Self.script), as: UTF8.self)),
             "steps": [{"fill": {"#q": {"env": "WEBPARSE_TEST_QUERY"}}}, {"click": "#more"}]}
            """#, "steps.json", in: directory)
        var environment = headless
        environment["WEBPARSE_TEST_QUERY"] = "from the environment"
        let run = try await webparse.run(["run", config], environment: environment)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdoutText == #"["a","from the environment"]"# + "\n")
        #expect(!run.stderr.contains("from the environment"))

        let options = try await webparse.run(
            [
                "eval", server.url("/").absoluteString, Self.script, "--step", "fill=#q=typed",
                "--step", "click=#more"
            ], environment: headless)
        #expect(options.status == 0, "\(options.stderr)")
        #expect(options.stdoutText == #"["a","typed"]"# + "\n")

        let file = try write(##"[{"fill": {"#q": "a=b"}}, {"click": "#more"}]"##, "steps-only.json", in: directory)
        let fromFile = try await webparse.run(["eval", server.url("/").absoluteString, Self.script, "--steps", file], environment: headless)
        #expect(fromFile.status == 0, "\(fromFile.stderr)")
        #expect(fromFile.stdoutText == #"["a","a=b"]"# + "\n")
    }

    /// With `-v`, a step that waited for what the page scheduled says so, on stderr; stdout holds the result alone.
    @Test func aStepSaysWhatItWaitedFor() async throws {
        let server = try TestHTTPServer(routes: [
            "/": .respond(
                body: """
                    <button id="more">more</button><ul><li>a</li></ul>
                    <script>
                    setTimeout(() => document.getElementById("more").addEventListener("click", () => document.querySelector("ul").insertAdjacentHTML("beforeend", "<li>b</li>")), 400);
                    </script>
                    """)
        ])
        let run = try await webparse.run(["eval", server.url("/").absoluteString, Self.script, "--step", "click=#more", "-v"], environment: headless)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdoutText == #"["a","b"]"# + "\n")
        #expect(run.stderr.contains(##"step 1 (click "#more"): waited "##), "\(run.stderr)")
        #expect(run.stderr.contains("a timer due in"), "\(run.stderr)")
    }

    @Test func wrongStepsAreExplained() async throws {
        let server = try site()
        let directory = try folder()
        let config = try write(
            ##"{"url": "\##(server.url("/"))", "script": "1", "steps": [{"clik": "#more"}, {"click": "#more", "fill": {}}]}"##,
            "bad.json", in: directory)
        let bad = try await webparse.run(["run", config], environment: headless)
        #expect(bad.status == 2)
        #expect(bad.stderr.contains(##"steps[0].clik: unknown action "clik"; did you mean "click"?"##), "\(bad.stderr)")
        #expect(bad.stderr.contains("steps[1]: expected an object with one action"), "\(bad.stderr)")
        #expect(bad.stderr.contains(#"it has 2 keys ("click", "fill"): write each action as a step of its own"#), "\(bad.stderr)")

        let options = try await webparse.run(["eval", server.url("/").absoluteString, "1", "--step", "fill=nothing"], environment: headless)
        #expect(options.status == 2)
        #expect(options.stderr.hasPrefix(#"webparse eval: --step fill: expected SELECTOR=VALUE, got "nothing""#), "\(options.stderr)")

        let missing = try await webparse.run(
            [
                "eval", server.url("/").absoluteString, "1", "--step", "click=#absent", "--timeout", "1",
                "--retries", "0"
            ], environment: headless)
        #expect(missing.status == 1)
        #expect(missing.stderr.contains(##"timed out after 1 s while running step 1 (click "#absent") (\##(server.url("/")))"##), "\(missing.stderr)")
    }
}
