import Foundation
import TestSupport
import Testing
@testable import webparse
@testable import WebParserCore

/// Running webparse from cron: notifications through Apprise, listing jobs, a dry run against the state.
@Suite struct OperatingCommandTests: CommandLineTest {
    /// A page listing `chapters` as links, and a config for it.
    func setUp(_ chapters: Shared<[Int]>) throws -> (site: TestHTTPServer, config: String, state: String) {
        let site = try TestHTTPServer(routes: [
            "/updates": .handle { _ in
                TestHTTPServer.Response(body: "<ul>" + chapters.value.map { "<li><a href='/c/\($0)'>Chapter \($0)</a></li>" }.joined() + "</ul>")
            }
        ])
        let directory = try folder()
        let config = try write(
            #"""
            {"name": "comic", "url": "\#(site.url("/updates"))", "retries": 0, "key": "url",
             "script": "[...document.querySelectorAll('li a')].map(a => ({title: a.textContent, url: a.href}))"}
            """#, "comic.json", in: directory)
        return (site, config, directory.appending(path: "comic.state").path)
    }

    @Test func newItemsAreSentThroughAppriseAndAFailedSendingKeepsThemForTheNextRun() async throws {
        let chapters = Shared([1, 2])
        let (site, config, state) = try setUp(chapters)
        let answer = Shared(200)
        let endpoint = try TestHTTPServer(routes: ["/": .handle { _ in TestHTTPServer.Response(status: answer.value, body: "") }])
        let notify = ["--notify", "json://127.0.0.1:\(endpoint.url("/").port!)/"]
        let first = try await webparse.run(["run", "--state", state, "--new-only"] + notify + [config], environment: headless)
        #expect(first.status == 0 && first.stdout.isEmpty, "\(first.stderr)")
        #expect(endpoint.requests.isEmpty, "the first run records and sends nothing")

        chapters.value = [1, 2, 3]
        answer.value = 500
        let failed = try await webparse.run(["run", "--state", state, "--new-only"] + notify + [config], environment: headless)
        #expect(failed.status == 1 && failed.stderr.contains("--notify: Apprise could not send the news of comic with the URLs given: "), "\(failed.stderr)")
        #expect(!failed.stderr.contains("exit status"), "Apprise's own reason: \(failed.stderr)")

        answer.value = 200
        let sent = try await webparse.run(
            ["run", "--state", state, "--new-only"] + notify + ["--notify-format", "{title}: {url}", config],
            environment: headless)
        #expect(sent.status == 0, "\(sent.stderr)")
        #expect(sent.stdoutText.contains("Chapter 3"), "the item is reported again after the failed sending")
        let message = try #require(endpoint.requests.last.flatMap { try? JSONSerialization.jsonObject(with: Data($0.body.utf8)) as? [String: Any] })
        #expect(message["title"] as? String == "webparse: comic: 1 new")
        #expect(message["message"] as? String == "Chapter 3: \(site.url("/c/3"))")

        chapters.value = [1, 2, 3, 4]
        let byDefault = try await webparse.run(["run", "--state", state, "--new-only"] + notify + [config], environment: headless)
        #expect(byDefault.status == 0, "\(byDefault.stderr)")
        let plain = endpoint.requests.last.flatMap { try? JSONSerialization.jsonObject(with: Data($0.body.utf8)) as? [String: Any] }
        #expect(plain?["message"] as? String == "Chapter 4 \(site.url("/c/4"))", "the default line: the title, then the URL")
    }

    /// Apprise runs with the environment webparse was given, not with what webparse set for WebKit (its private
    /// display, the session bus turned off, JavaScriptCore's and the dynamic loader's settings).
    @Test func appriseGetsTheEnvironmentWebparseWasGiven() async throws {
        let chapters = Shared([1])
        let (site, config, state) = try setUp(chapters)
        defer { site.stop() }
        let bin = try folder()
        let seen = bin.appending(path: "environment").path
        _ = try write("#!/bin/sh\nenv > '\(seen)'\ncat > /dev/null\n", "apprise", in: bin)
        #expect(chmod(bin.appending(path: "apprise").path, 0o755) == 0)
        // What webparse sets for WebKit, each absent from the environment it is given (the test process may have
        // some of them from WebParser runs of its own).
        let added = [
            "LD_PRELOAD", "DISPLAY", "XAUTHORITY", "DBUS_SESSION_BUS_ADDRESS", "JSC_forceRAMSize", "GTK_THEME",
            "NO_AT_BRIDGE"
        ]
        var environment = headless
        for name in added { environment[name] = .some(nil) }
        environment["PATH"] = bin.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        environment["WEBPARSE_TEST_MARK"] = "given"
        let first = try await ProcessRunner(product: "webparse").run(
            ["run", "--state", state, "--new-only", "--notify", "json://x/", config],
            environment: environment)
        #expect(first.status == 0, "\(first.stderr)")
        chapters.value = [1, 2]
        let second = try await ProcessRunner(product: "webparse").run(
            ["run", "--state", state, "--new-only", "--notify", "json://x/", config],
            environment: environment)
        #expect(second.status == 0, "\(second.stderr)")
        let lines = try String(contentsOfFile: seen, encoding: .utf8).split(separator: "\n")
        let names = Set(lines.compactMap { $0.split(separator: "=", maxSplits: 1).first.map(String.init) })
        #expect(names.contains("WEBPARSE_TEST_MARK"), "\(names)")
        for name in added {
            #expect(!names.contains(name), "Apprise was given webparse's \(name)")
        }
    }

    /// Apprise's URLs and configuration files are checked before any page loads; a configuration file or
    /// Apprise's own variables keep tokens out of the command line; a value that is not a list is sent as a diff.
    @Test func notificationsAreCheckedFirstAndTakeConfigurationFiles() async throws {
        let count = Shared(1)
        let site = try TestHTTPServer(routes: ["/status": .handle { _ in TestHTTPServer.Response(body: "<p id=open>\(count.value)</p>") }])
        let endpoint = try TestHTTPServer(routes: ["/": .respond(body: "")])
        let directory = try folder()
        let config = try write(
            #"""
            {"name": "queue", "url": "\#(site.url("/status"))", "retries": 0,
             "script": "({name: 'queue', open: Number(document.getElementById('open').textContent)})"}
            """#, "queue.json", in: directory)
        let state = directory.appending(path: "queue.state").path
        let bogus = try await webparse.run(["run", "--state", state, "--new-only", "--notify", "bogus://x", config], environment: headless)
        #expect(bogus.status == 2 && bogus.stderr.contains("Unparseable URL bogus://x"), "\(bogus.stderr)")
        #expect(site.requests.isEmpty, "no page loads before the notification URLs are checked")
        let oneBad = try await webparse.run(
            ["run", "--state", state, "--new-only", "--notify", "json://127.0.0.1:9/", "--notify", "bogus://y", config],
            environment: headless)
        #expect(oneBad.status == 2 && oneBad.stderr.contains("bogus://y"), "one bad URL among good ones: \(oneBad.stderr)")
        let missing = try await webparse.run(
            ["run", "--state", state, "--new-only", "--notify-config", directory.appending(path: "none.yml").path, config],
            environment: headless)
        #expect(missing.status == 2 && missing.stderr.contains("--notify-config: cannot read") && site.requests.isEmpty, "\(missing.stderr)")

        let appriseConfig = try write("urls:\n  - json://127.0.0.1:\(endpoint.url("/").port!)/\n", "apprise.yml", in: directory)
        let first = try await webparse.run(["run", "--state", state, "--new-only", "--notify-config", appriseConfig, config], environment: headless)
        #expect(first.status == 0 && endpoint.requests.isEmpty, "\(first.stderr)")
        count.value = 2
        let changed = try await webparse.run(["run", "--state", state, "--new-only", "--notify-config", appriseConfig, config], environment: headless)
        #expect(changed.status == 0, "\(changed.stderr)")
        let message = try #require(endpoint.requests.last.flatMap { try? JSONSerialization.jsonObject(with: Data($0.body.utf8)) as? [String: Any] })
        #expect(message["title"] as? String == "webparse: queue: changed")
        #expect((message["message"] as? String)?.contains("-  \"open\": 1\n+  \"open\": 2") == true, "the diff: \(message)")

        count.value = 3
        var environment = headless
        environment["APPRISE_URLS"] = "json://127.0.0.1:\(endpoint.url("/").port!)/"
        let fromEnvironment = try await webparse.run(["run", "--state", state, "--new-only", "--notify-env", config], environment: environment)
        #expect(fromEnvironment.status == 0 && endpoint.requests.count == 2, "\(fromEnvironment.stderr)")
    }

    /// Without a key, an item whose content changed is a new one: `--report changed` shows it as added, and says
    /// why, rather than mark it seen silently.
    @Test func reportingChangesOfAListWithoutKeyLosesNothing() async throws {
        let title = Shared("One")
        let site = try TestHTTPServer(routes: ["/": .handle { _ in TestHTTPServer.Response(body: "<p>\(title.value)</p>") }])
        let directory = try folder()
        let config = try write(
            #"{"name": "plain", "url": "\#(site.url("/"))", "script": "[document.querySelector('p').textContent]"}"#,
            "plain.json", in: directory)
        let arguments = ["run", "--state", directory.appending(path: "s").path, "--new-only", "--report", "changed", config]
        let first = try await webparse.run(arguments, environment: headless)
        #expect(first.status == 0 && first.stdout.isEmpty, "\(first.stderr)")
        title.value = "One, revised"
        let second = try await webparse.run(arguments, environment: headless)
        #expect(second.status == 0 && second.stdoutText == #"[{"item":"One, revised","change":"added"}]"# + "\n", "\(second.stderr)")
        #expect(second.stderr.contains(#"plain: warning: --report changed: the job has no "key""#), "\(second.stderr)")
    }

    @Test func withoutAppriseNotifyNamesThePackage() async throws {
        let (_, config, state) = try setUp(Shared([1]))
        var environment = headless
        environment["PATH"] = "/nonexistent"
        let run = try await ProcessRunner(product: "webparse").run(
            ["run", "--state", state, "--notify", "json://127.0.0.1:9/", config],
            environment: environment)
        #expect(run.status == 2)
        #expect(run.stderr.contains("install the Debian package apprise (apt install apprise)"), "\(run.stderr)")
        let withoutState = try await webparse.run(["run", "--notify", "json://127.0.0.1:9/", config])
        #expect(withoutState.status == 2 && withoutState.stderr.contains("--notify needs --state FILE"), "\(withoutState.stderr)")
    }

    @Test func listNamesTheJobsAndADryRunWritesNoState() async throws {
        let chapters = Shared([1])
        let (site, config, state) = try setUp(chapters)
        defer { withExtendedLifetime(site) {} }
        let listed = try await webparse.run(["run", "--list", config])
        #expect(listed.status == 0 && listed.stdoutText == "comic\n")
        _ = try await webparse.run(["run", "--state", state, "--new-only", config], environment: headless)
        let before = try Data(contentsOf: URL(fileURLWithPath: state))
        chapters.value = [1, 2]
        let dry = try await webparse.run(["run", "--state", state, "--new-only", "--dry-run", "--only", "comic", config], environment: headless)
        #expect(
            dry.status == 0 && dry.stdoutText.contains("Chapter 2") && dry.stderr.contains("a dry run: nothing was written into the state"),
            "\(dry.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: state)) == before)
    }

    /// A template is read once: `{item}` is the item's JSON, and what the page wrote is never read as a template.
    @Test func aTemplateTakesThePagesTextAsText() throws {
        let notifier = try Notifier(urls: [], configs: [], format: "{job}: {title} ({n.count}) {item}")
        let item = Data(#"{"title":"{title}{title} Vol {2}","n":{"count":3}}"#.utf8)
        #expect(notifier.line(for: item, of: "comic") == #"comic: {title}{title} Vol {2} (3) {"title":"{title}{title} Vol {2}","n":{"count":3}}"#)
        #expect(try Notifier(urls: [], configs: [], format: "{missing}-{").line(for: Data("1".utf8), of: "j") == "-{")
    }
}
