import Foundation
import TestSupport
import Testing

/// The command line behaves as users of other Unix tools expect: attached short values, options before the
/// command, near misses suggested, errors prefixed, scripts from stdin or a file, help that reads cleanly.
@Suite(.serialized) struct CommandLineConventionTests: CommandLineTest {
    func titleSite() throws -> TestHTTPServer {
        try TestHTTPServer(routes: ["/": .respond(body: "<title>Hello</title>")])
    }

    @Test func shortOptionsTakeAttachedValuesAndMayComeBeforeTheCommand() async throws {
        let server = try titleSite()
        let directory = try folder()
        let config = try write(#"{"url": "\#(server.url("/"))", "script": "document.title"}"#, "title.json", in: directory)
        let attached = try await webparse.run(["run", "-j1", config], environment: headless)
        #expect(attached.status == 0, "\(attached.stderr)")
        #expect(attached.stdoutText == "\"Hello\"\n")
        let output = directory.appending(path: "out.json").path
        let before = try await webparse.run(["-q", "-j4", "run", "-o\(output)", config], environment: headless)
        #expect(before.status == 0, "\(before.stderr)")
        #expect(try String(contentsOfFile: output, encoding: .utf8) == "\"Hello\"\n")
        let bad = try await webparse.run(["run", "-jx", config])
        #expect(bad.status == 2)
        #expect(bad.stderr.hasPrefix("webparse run: --concurrency: expected a number"), "\(bad.stderr)")
    }

    @Test func aMistypedOptionGetsASuggestion() async throws {
        let typo = try await webparse.run(["run", "--concurency", "2", "x.json"])
        #expect(typo.status == 2)
        #expect(typo.stderr.hasPrefix("webparse run: unknown option --concurency; did you mean --concurrency?\n"), "\(typo.stderr)")
        let far = try await webparse.run(["eval", "--zzzzzzzz", "x"])
        #expect(far.stderr.hasPrefix("webparse eval: unknown option --zzzzzzzz\n"), "\(far.stderr)")
    }

    /// Mistyped commands, help topics and the top level's own options get a suggestion too; a name far from
    /// every command gets none.
    @Test func aMistypedCommandGetsASuggestion() async throws {
        let command = try await webparse.run(["rn", "x.json"])
        #expect(command.status == 2 && command.stderr.hasPrefix("webparse: unknown command 'rn'; did you mean 'run'?\n"), "\(command.stderr)")
        let topic = try await webparse.run(["help", "rnu"])
        #expect(topic.status == 2 && topic.stderr.hasPrefix("webparse help: no command 'rnu'; did you mean 'run'? the commands are"), "\(topic.stderr)")
        let version = try await webparse.run(["--verison"])
        #expect(version.status == 2 && version.stderr.hasPrefix("webparse: unknown option '--verison'; did you mean '--version'?\n"))
        let far = try await webparse.run(["frobnicate"])
        #expect(far.stderr.hasPrefix("webparse: unknown command 'frobnicate'\n"), "\(far.stderr)")
    }

    @Test func evalReadsItsScriptFromStdinOrAFile() async throws {
        let server = try titleSite()
        let directory = try folder()
        let fromStdin = try webparse.start(
            ["eval", server.url("/").absoluteString, "-"], environment: headless,
            input: Data("document.title\n  .toUpperCase()".utf8))
        let stdinOutcome = await fromStdin.finish()
        #expect(stdinOutcome.stdoutText == "\"HELLO\"\n", "\(stdinOutcome.stderr)")
        let file = try write("document.title.length", "title.js", in: directory)
        let fromFile = try await webparse.run(["eval", server.url("/").absoluteString, "--script-file", file], environment: headless)
        #expect(fromFile.stdoutText == "5\n", "\(fromFile.stderr)")
        let both = try await webparse.run(["eval", server.url("/").absoluteString, "1", "--script-file", file])
        #expect(both.status == 2)
        #expect(both.stderr.hasPrefix("webparse eval: give SCRIPT or --script-file, not both\n"))
    }

    @Test func helpReadsCleanly() async throws {
        let run = try await webparse.run(["help", "run"])
        let fieldLines = run.stdoutText.split(separator: "\n").filter { $0.hasPrefix("  ") && !$0.hasPrefix("   ") && !$0.hasPrefix("  -") }
        #expect(!fieldLines.isEmpty)
        for line in fieldLines {
            #expect(line.dropFirst(2).contains("  "), "a field name runs into its text: \(line)")
        }
        #expect(run.stdoutText.contains("  waitForSelector  "))
        let snapshot = try await webparse.run(["snapshot", "--help"])
        #expect(!snapshot.stdoutText.lowercased().contains("the script"), "\(snapshot.stdoutText)")
    }

    @Test func aSelectorInWaitForFailsWithAHint() async throws {
        let server = try titleSite()
        let outcome = try await webparse.run(["eval", server.url("/").absoluteString, "document.title", "--wait-for", ".quote"], environment: headless)
        #expect(outcome.status == 1)
        #expect(outcome.stderr.contains(#"looks like a CSS selector: write "waitForSelector": ".quote""#), "\(outcome.stderr)")
    }
}
