import Foundation
import TestSupport
import Testing

/// The commands and options of the built binary, beyond a plain `run`.
@Suite(.serialized) struct CommandTests: CommandLineTest {
    /// Three jobs on one server: two that work and one that fails.
    func threeJobs(_ server: TestHTTPServer, in directory: URL) throws -> String {
        try write(
            """
            {"defaults": {"timeout": 10, "retries": 0},
             "jobs": [
              {"name": "first", "url": "\(server.url("/first"))", "script": "document.title"},
              {"name": "broken", "url": "\(server.url("/missing"))", "script": "document.title"},
              {"name": "second", "url": "\(server.url("/second"))", "scriptFile": "second.js"}
            ]}
            """, "jobs.json", in: directory)
    }

    func pages() throws -> TestHTTPServer {
        try TestHTTPServer(routes: [
            "/first": .respond(body: "<title>one</title>"),
            "/second": .respond(body: "<title>two</title>")
        ])
    }

    @Test func onlyRunsTheNamedJobsAndRejectsUnknownNames() async throws {
        let server = try pages()
        let directory = try folder()
        _ = try write("document.title.toUpperCase()", "second.js", in: directory)
        let config = try threeJobs(server, in: directory)
        let outcome = try await webparse.run(["run", config, "--only", "second,first"], environment: headless)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stdoutText == "{\"first\":\"one\",\"second\":\"TWO\"}\n")
        #expect(server.requests(for: "/missing").isEmpty)

        let unknown = try await webparse.run(["run", config, "--only", "third"], environment: headless)
        #expect(unknown.status == 2)
        #expect(unknown.stderr == "webparse run: --only: no job named \"third\"; the jobs are \"first\", \"broken\", \"second\"\n")
    }

    /// A config is checked without its secrets: validate, --list and the jobs that do not use a variable that is
    /// not set work; a run of a job that uses it stops before any page loads. A reference that is not well
    /// formed is a problem everywhere.
    @Test func aSecretIsNeededOnlyByTheJobsThatUseIt() async throws {
        let server = try TestHTTPServer(routes: [
            "/login": .respond(body: "<input id=password><title>login</title>"),
            "/news": .respond(body: "<title>news</title>")
        ])
        let directory = try folder()
        let config = try write(
            """
            {"jobs": [
              {"name": "login", "url": "\(server.url("/login"))", "steps": [{"fill": {"#password": {"env": "SITE_SECRET"}}}], "script": "document.title"},
              {"name": "news", "url": "\(server.url("/news"))", "script": "document.title", "auth": {"user": "me", "passwordEnv": "NEWS_SECRET"}}
            ]}
            """, "secrets.json", in: directory)
        let unset = headless.merging(["SITE_SECRET": nil, "NEWS_SECRET": nil]) { $1 }

        let validated = try await webparse.run(["validate", config], environment: unset)
        #expect(validated.status == 0 && validated.stdoutText == "ok\n", "\(validated.stderr)")
        #expect(validated.stderr.contains("note: \(config):3:") && validated.stderr.contains("the environment variable SITE_SECRET is not set"))
        #expect(validated.stderr.contains("jobs[1].auth.passwordEnv: the environment variable NEWS_SECRET is not set"))
        let listed = try await webparse.run(["run", "--list", config], environment: unset)
        #expect(listed.stdoutText == "login\nnews\n", "\(listed.stderr)")

        let news = try await webparse.run(["run", config, "--only", "news"], environment: unset.merging(["NEWS_SECRET": "x"]) { $1 })
        #expect(news.stdoutText == "{\"news\":\"news\"}\n", "\(news.stderr)")
        let all = try await webparse.run(["run", config], environment: unset.merging(["NEWS_SECRET": "x"]) { $1 })
        #expect(all.status == 2)
        #expect(all.stderr.contains("jobs[0].steps[0].fill.#password.env: the environment variable SITE_SECRET is not set"), "\(all.stderr)")
        #expect(server.requests(for: "/login").isEmpty, "no page loads before the secret is there")

        let malformed = try write(
            ##"{"url": "\##(server.url("/login"))", "script": "1", "steps": [{"fill": {"#password": {"env": 5}}}]}"##, "bad.json", in: directory)
        let refused = try await webparse.run(["validate", malformed], environment: unset)
        #expect(refused.status == 2)
    }

    @Test func jsonLinesGiveOneRecordPerJob() async throws {
        let server = try pages()
        let directory = try folder()
        _ = try write("document.title", "second.js", in: directory)
        let outcome = try await webparse.run(["run", "--jsonl", try threeJobs(server, in: directory)], environment: headless)
        #expect(outcome.status == 1)
        let lines = outcome.stdoutText.split(separator: "\n").map(String.init)
        #expect(lines.count == 3)
        // Lines come as jobs finish: put them in config order.
        let order = ["first", "broken", "second"]
        let records = try lines.map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
            .sorted { order.firstIndex(of: $0["job"] as? String ?? "")! < order.firstIndex(of: $1["job"] as? String ?? "")! }
        #expect(records.map { $0["status"] as? String } == ["ok", "failed", "ok"])
        #expect(records[0]["result"] as? String == "one")
        #expect(records[0]["httpStatus"] as? Int == 200)
        #expect(records[0]["attempts"] as? Int == 1)
        #expect(records[0]["url"] as? String == server.url("/first").absoluteString)
        #expect(records[0]["finalURL"] as? String == server.url("/first").absoluteString)
        #expect((records[0]["elapsedMs"] as? Int ?? -1) >= 0)
        #expect(records[1]["httpStatus"] as? Int == 404)
        #expect((records[1]["error"] as? String)?.hasPrefix("HTTP status 404") == true)
        #expect(records[1]["code"] as? String == "http-status")
        #expect(records[0]["code"] == nil)
        #expect(records[1]["result"] == nil)
    }

    @Test func passwordsInURLsAreNeverPrinted() async throws {
        let server = try pages()
        let directory = try folder()
        let url = "http://reader:s3cret-pass@127.0.0.1:\(server.port)/missing"
        let config = try write(#"{"url": "\#(url)", "script": "1", "retries": 0}"#, "secret.json", in: directory)
        let outcome = try await webparse.run(["run", "--jsonl", "-v", config], environment: headless)
        #expect(outcome.status == 1)
        #expect(!outcome.stdoutText.contains("s3cret") && !outcome.stderr.contains("s3cret"))
        #expect(outcome.stdoutText.contains("reader:***@"))
    }

    @Test func outputIsWrittenAtomicallyAndNotWhenEverythingFailed() async throws {
        let server = try pages()
        let directory = try folder()
        let output = directory.appending(path: "out.json").path
        let good = try write(#"{"url": "\#(server.url("/first"))", "script": "document.title"}"#, "good.json", in: directory)
        let outcome = try await webparse.run(["run", good, "-o", output], environment: headless)
        #expect(outcome.status == 0)
        #expect(outcome.stdout.isEmpty)
        #expect(try String(contentsOfFile: output, encoding: .utf8) == "\"one\"\n")

        let bad = try write(#"{"url": "\#(server.url("/missing"))", "script": "document.title", "retries": 0}"#, "bad.json", in: directory)
        let failed = try await webparse.run(["run", bad, "--output=\(output)"], environment: headless)
        #expect(failed.status == 1)
        #expect(try String(contentsOfFile: output, encoding: .utf8) == "\"one\"\n", "a failed run keeps the last output")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasPrefix(".") }
        #expect(leftovers.isEmpty)
    }

    @Test func aConfigCanComeFromStdin() async throws {
        let server = try pages()
        let running = try webparse.start(
            ["run", "-"], environment: headless, input: Data(#"{"url": "\#(server.url("/second"))", "script": "document.title"}"#.utf8))
        let outcome = await running.finish()
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stdoutText == "\"two\"\n")

        let invalid = try webparse.start(["validate", "-"], input: Data("{\"url\": 1}".utf8))
        let result = await invalid.finish()
        #expect(result.status == 2)
        #expect(result.stderr.contains("<stdin>:1:9: url: expected a non-empty string, got 1\n"))
    }

    @Test func evalPrintsOneResult() async throws {
        let server = try TestHTTPServer(routes: [
            "/": .respond(body: "<title>Hello</title><p>x</p><script>setTimeout(() => document.body.dataset.ready = 'yes', 200)</script>")
        ])
        let url = server.url("/").absoluteString
        let title = try await webparse.run(["eval", url, "document.title"], environment: headless)
        #expect(title.status == 0)
        #expect(title.stdoutText == "\"Hello\"\n")
        let raw = try await webparse.run(
            [
                "eval", "--raw", url, "--wait-for", "document.body.dataset.ready", "--user-agent", "Probe/1",
                "document.body.dataset.ready + ' ' + navigator.userAgent"
            ], environment: headless)
        #expect(raw.stdoutText == "yes Probe/1\n")
        let html = try await webparse.run(["eval", url, "--raw"], environment: headless)
        #expect(html.stdoutText.hasPrefix("<html><head><title>Hello</title></head><body><p>x</p>"))
        #expect(server.requests.allSatisfy { $0.headers["user-agent"] != nil })
    }

    @Test func evalChecksItsOptionsLikeConfigFields() async throws {
        let outcome = try await webparse.run([
            "eval", "https://example.com", "--timeout", "abc", "--retries", "99",
            "--header", "no colon"
        ])
        #expect(outcome.status == 2)
        // Every option's problem is listed, a header without a colon among them.
        #expect(
            outcome.stderr.hasPrefix(
                """
                webparse eval: --timeout: expected a number of seconds from 0.1 to 86400, got "abc"
                webparse eval: --retries: expected a number of retries from 0 to 10, got 99
                webparse eval: --header: expected 'Name: value', got 'no colon'
                Usage: webparse eval URL [SCRIPT|-] [options]
                """))
        let fields = try await webparse.run(["eval", "https://example.com", "--timeout", "abc", "--retries", "99"])
        #expect(
            fields.stderr.hasPrefix(
                """
                webparse eval: --timeout: expected a number of seconds from 0.1 to 86400, got "abc"
                webparse eval: --retries: expected a number of retries from 0 to 10, got 99
                """))
        let scheme = try await webparse.run(["eval", "ftp://example.com"])
        #expect(scheme.stderr.hasPrefix("webparse eval: URL: unsupported scheme \"ftp:\"; use http, https or file\n"))
        // Seconds are written one way everywhere: a hexadecimal or infinite --wait-lock is refused as --timeout is.
        for seconds in ["0x10", "inf", "nan", "1e400"] {
            let lock = try await webparse.run(["run", "--state", "/nonexistent/state.json", "--wait-lock", seconds, "config.json"])
            #expect(lock.status == 2)
            #expect(lock.stderr.hasPrefix("webparse run: --wait-lock: expected a number of seconds from 0 to 86400, got \"\(seconds)\""), "\(lock.stderr)")
        }
    }

    @Test func validateSaysOkOrEveryProblem() async throws {
        let directory = try folder()
        let good = try write(#"{"url": "https://example.com", "script": "1"}"#, "good.json", in: directory)
        let ok = try await webparse.run(["validate", good])
        #expect(ok.status == 0)
        #expect(ok.stdoutText == "ok\n")
        #expect(ok.stderr.isEmpty)
        let bad = try write(#"{"url": "https://example.com", "timeout": 0}"#, "bad.json", in: directory)
        let problems = try await webparse.run(["validate", bad])
        #expect(problems.status == 2)
        #expect(problems.stdout.isEmpty)
        #expect(
            problems.stderr == """
                \(bad):1:1: script: required (or scriptFile); the JavaScript that returns the data
                \(bad):1:43: timeout: expected a number of seconds from 0.1 to 86400, got 0

                """)
    }

    @Test func unreadableAndWrongKindsOfFileAreNamed() async throws {
        let directory = try folder()
        let folderOutcome = try await webparse.run(["validate", directory.path])
        #expect(folderOutcome.status == 2)
        #expect(folderOutcome.stderr == "webparse validate: \(directory.path): is a directory, not a config file\n")
        let missing = try await webparse.run(["validate", directory.appending(path: "none.json").path])
        #expect(missing.stderr == "webparse validate: \(directory.appending(path: "none.json").path): no such file\n")
        // Root reads any file, so an unreadable one is a file whose reads fail.
        let unreadable: String
        if getuid() == 0 {
            unreadable = "/proc/self/mem"
        } else {
            unreadable = try write("{}", "locked.json", in: directory)
            chmod(unreadable, 0)
        }
        let locked = try await webparse.run(["validate", unreadable])
        #expect(locked.status == 2)
        #expect(locked.stderr.hasPrefix("webparse validate: \(unreadable): cannot be read: "))
    }

    @Test func everyCommandHasHelpAndRejectsUnknownOptionsWithItsUsage() async throws {
        for command in ["run", "eval", "validate", "completions", "help"] {
            let help = try await webparse.run([command, "--help"])
            #expect(help.status == 0, "\(command)")
            #expect(help.stdoutText.hasPrefix("Usage: webparse \(command) "), "\(command)")
            let same = try await webparse.run(["help", command])
            #expect(same.stdoutText == help.stdoutText, "\(command)")
            let unknown = try await webparse.run([command, "--frobnicate"])
            #expect(unknown.status == 2, "\(command)")
            #expect(unknown.stdout.isEmpty)
            #expect(
                unknown.stderr
                    == "webparse \(command): unknown option --frobnicate\n\(help.stdoutText.prefix { $0 != "\n" })\nSee 'webparse help \(command)'.\n")
        }
        let missing = try await webparse.run(["eval"])
        #expect(missing.status == 2)
        #expect(missing.stderr.hasPrefix("webparse eval: missing URL\nUsage: webparse eval URL [SCRIPT|-] [options]"))
        let none = try await webparse.run([])
        #expect(none.status == 2)
        #expect(none.stderr.hasPrefix("Usage: webparse COMMAND [options]"))
    }

    @Test func bashCompletionCompletesCommandsAndOptions() async throws {
        let script = try await webparse.run(["completions", "bash"])
        #expect(script.status == 0)
        let directory = try folder()
        let file = try write(script.stdoutText, "webparse.bash", in: directory)
        func complete(_ words: [String]) throws -> [String] {
            let shell = Process()
            shell.executableURL = URL(fileURLWithPath: "/bin/bash")
            let line = words.map { "'\($0)'" }.joined(separator: " ")
            shell.arguments = [
                "-c",
                """
                source '\(file)'
                COMP_WORDS=(\(line)); COMP_CWORD=\(words.count - 1)
                _webparse
                printf '%s\\n' "${COMPREPLY[@]}"
                """
            ]
            let output = Pipe()
            shell.standardOutput = output
            shell.environment = ["PATH": webparse.executable.deletingLastPathComponent().path + ":/usr/bin:/bin"]
            try shell.run()
            let data = output.fileHandleForReading.readDataToEndOfFile()
            shell.waitUntilExit()
            return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
        }
        let config = try write(
            #"{"jobs": [{"name": "comics", "url": "https://a.example", "script": "1"}, {"name": "news", "url": "https://b.example", "script": "1"}]}"#,
            "sites.json", in: directory)
        #expect(try complete(["webparse", "run", config, "--only", ""]) == ["comics", "news"], "job names from 'webparse run --list'")
        #expect(try complete(["webparse", "run", config, "--only", "n"]) == ["news"])
        #expect(try complete(["webparse", "v"]) == ["validate"])
        #expect(try complete(["webparse", "run", "--j"]) == ["--jsonl"])
        #expect(try Set(complete(["webparse", "eval", "--re"])) == ["--retries", "--retry-blocked", "--retry-delay", "--retry-missing-data"])
        #expect(try complete(["webparse", "completions", "z"]) == ["zsh"])
        for shell in ["zsh", "fish"] {
            let other = try await webparse.run(["completions", shell])
            #expect(other.status == 0)
            #expect(other.stdoutText.contains("jsonl") && other.stdoutText.contains("wait-for"), "\(shell)")
        }
    }

    @Test func colourOnlyOnATerminalAndNeverWithNoColor() async throws {
        let config = "/nonexistent/config.json"
        func stderrOnTerminal(_ environment: String) throws -> String {
            try PseudoTerminal.output(of: "env -u NO_COLOR \(environment) '\(webparse.executable.path)' validate \(config)")
        }
        #expect(try stderrOnTerminal("TERM=xterm").contains("\u{1B}[31m"))
        #expect(try !stderrOnTerminal("TERM=xterm NO_COLOR=1").contains("\u{1B}["))
        let piped = try await webparse.run(["validate", config])
        #expect(!piped.stderr.contains("\u{1B}["))
    }

    @Test func stdinThatCannotBeReadIsAnErrorNotACrash() throws {
        let shell = Process()
        shell.executableURL = URL(fileURLWithPath: "/bin/bash")
        shell.arguments = ["-c", "'\(webparse.executable.path)' validate - < /tmp"]
        let errors = Pipe()
        shell.standardError = errors
        try shell.run()
        let data = errors.fileHandleForReading.readDataToEndOfFile()
        shell.waitUntilExit()
        #expect(shell.terminationStatus == 2)
        #expect(String(decoding: data, as: UTF8.self) == "webparse validate: <stdin>: cannot be read: Is a directory\n")
    }

    @Test func outputFileKeepsItsPermissionsAndLinkAndIsCheckedFirst() async throws {
        let server = try pages()
        let directory = try folder()
        let config = try write(#"{"url": "\#(server.url("/first"))", "script": "document.title"}"#, "c.json", in: directory)
        let target = try write("old", "secret.json", in: directory)
        chmod(target, 0o600)
        let link = directory.appending(path: "latest.json").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        let outcome = try await webparse.run(["run", config, "-o", link], environment: headless)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "\"one\"\n")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == target)
        #expect((try FileManager.default.attributesOfItem(atPath: target)[.posixPermissions] as? Int) == 0o600)

        let nowhere = try await webparse.run(["run", config, "-o", "/nonexistent/out.json"], environment: headless)
        #expect(nowhere.status == 2)
        #expect(nowhere.stderr == "webparse run: --output: no folder /nonexistent\n")
        #expect(server.requests(for: "/first").count == 1, "nothing is loaded when the output cannot be written")
    }

    @Test func jsonLinesToAFileKeepFailureRecords() async throws {
        let server = try pages()
        let directory = try folder()
        let config = try write(#"{"url": "\#(server.url("/missing"))", "script": "document.title", "retries": 0}"#, "c.json", in: directory)
        let output = directory.appending(path: "records.jsonl").path
        let outcome = try await webparse.run(["run", config, "--jsonl", "-o", output], environment: headless)
        #expect(outcome.status == 1)
        let record = try String(contentsOfFile: output, encoding: .utf8)
        #expect(record.hasPrefix("{\"job\":\"127.0.0.1\""))
        #expect(record.contains("\"status\":\"failed\""))
    }

    @Test func onlyTakesExactNamesThenCommaLists() async throws {
        let directory = try folder()
        let config = try write(
            #"{"jobs": [{"name": "a,b", "url": "https://example.com", "script": "1"}, {"name": "c", "url": "https://example.org", "script": "1"}]}"#,
            "c.json", in: directory)
        let blank = try await webparse.run(["run", config, "--only", " "])
        #expect(blank.status == 2)
        #expect(blank.stderr.hasPrefix("webparse run: --only needs a job name\n"))
        let wrong = try await webparse.run(["run", config, "--only", "a,d"])
        #expect(wrong.stderr == "webparse run: --only: no job named \"a\", \"d\"; the jobs are \"a,b\", \"c\"\n")
    }

    @Test func evalRejectsDuplicateHeadersAndNonJSONNumbers() async throws {
        let headers = try await webparse.run(["eval", "https://example.com", "--header", "X-A: one", "--header", "x-a: two"])
        #expect(headers.status == 2)
        #expect(headers.stderr.hasPrefix("webparse eval: --header.x-a: header given twice\n"))
        let hex = try await webparse.run(["eval", "https://example.com", "--retries", "0x3"])
        #expect(hex.stderr.hasPrefix("webparse eval: --retries: expected a number of retries from 0 to 10, got \"0x3\"\n"))
    }
}
