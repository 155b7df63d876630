import Foundation
import TestSupport
import Testing

/// One job over many pages: a range in a config's url, a URL list on the command line, and merged output.
@Suite struct URLListCommandTests: CommandLineTest {
    /// Three pages of two chapters each; the second page's chapters can change.
    func site(_ second: Shared<[String]>) throws -> TestHTTPServer {
        @Sendable func page(_ items: [String]) -> TestHTTPServer.Response {
            TestHTTPServer.Response(body: "<ul>" + items.map { "<li>\($0)</li>" }.joined() + "</ul>")
        }
        return try TestHTTPServer(routes: [
            "/page/1": .handle { _ in page(["c1", "c2"]) },
            "/page/2": .handle { _ in page(second.value) },
            "/page/3": .handle { _ in page(["c5", "c6"]) }
        ])
    }

    static let script = "[...document.querySelectorAll('li')].map((li) => li.textContent)"

    @Test func aRangeIsOneJobPerPageWithItsOwnState() async throws {
        let second = Shared(["c3", "c4"])
        let server = try site(second)
        let directory = try folder()
        let base = server.url("/").absoluteString
        let config = try write(
            #"{"name": "chapters", "url": "\#(base)page/{1..3}", "retries": 0, "script": "\#(Self.script)"}"#,
            "range.json", in: directory)
        let whole = try await webparse.run(["run", config], environment: headless)
        #expect(whole.status == 0, "\(whole.stderr)")
        #expect(whole.stdoutText == #"{"chapters-1":["c1","c2"],"chapters-2":["c3","c4"],"chapters-3":["c5","c6"]}"# + "\n")
        let merged = try await webparse.run(["run", "--merge", config], environment: headless)
        #expect(merged.stdoutText == #"["c1","c2","c3","c4","c5","c6"]"# + "\n")

        let state = directory.appending(path: "range.state").path
        _ = try await webparse.run(["run", "--state", state, "--new-only", config], environment: headless)
        second.value = ["c3", "c4", "c4b"]
        let fresh = try await webparse.run(["run", "--state", state, "--new-only", "--merge", "--jsonl", config], environment: headless)
        #expect(fresh.status == 0, "\(fresh.stderr)")
        #expect(fresh.stdoutText == #"{"job":"chapters-2","item":"c4b"}"# + "\n")
        let saved = try String(contentsOfFile: state, encoding: .utf8)
        #expect(saved.contains("\"chapters-1\"") && saved.contains("\"chapters-3\""), "each page keeps its own state")
    }

    @Test func aURLListRunsOneScriptWithoutAConfig() async throws {
        let server = try site(Shared(["c3", "c4"]))
        let directory = try folder()
        let list = try write("# chapters\n\(server.url("/page/1"))\n\n\(server.url("/page/3"))\n", "urls.txt", in: directory)
        let run = try await webparse.run(["run", "--urls", list, "--script", Self.script, "--merge", "--jsonl"], environment: headless)
        #expect(run.status == 0, "\(run.stderr)")
        // JSON Lines come as jobs finish; each job's items in order, each job named by its URL.
        #expect(
            Set(run.stdoutText.split(separator: "\n").map(String.init))
                == Set(["c1", "c2", "c5", "c6"].map { #"{"job":"\#(server.url($0 < "c5" ? "/page/1" : "/page/3"))","item":"\#($0)"}"# }))
        let twice = try write("\(server.url("/page/1"))\n\(server.url("/page/1"))\n", "twice.txt", in: directory)
        let named = try await webparse.run(["run", "--urls", twice, "--script", Self.script], environment: headless)
        #expect(named.stdoutText == #"{"\#(server.url("/page/1"))":["c1","c2"],"\#(server.url("/page/1"))-2":["c1","c2"]}"# + "\n", "\(named.stderr)")

        let crlf = try write("\(server.url("/page/1"))\r\n\(server.url("/page/3"))\r\n", "crlf.txt", in: directory)
        let windows = try await webparse.run(["run", "--urls", crlf, "--script", Self.script, "--merge"], environment: headless)
        #expect(windows.stdoutText == #"["c1","c2","c5","c6"]"# + "\n", "a list with CRLF line ends: \(windows.stderr)")
        let local = try write("\(server.url("/page/1"))\n/etc/hostname\n", "local.txt", in: directory)
        let refused = try await webparse.run(["run", "--urls", local, "--script", "document.body.innerText"], environment: headless)
        #expect(
            refused.status == 2 && refused.stdout.isEmpty
                && refused.stderr.contains("line 2: a URL list holds web pages only (http or https)"), "\(refused.stderr)")
        let bad = try await webparse.run(["run", "--urls", list], environment: headless)
        #expect(bad.status == 2 && bad.stderr.hasPrefix("webparse run: --urls needs --script SCRIPT or --extract JSON, one of them\n"), "\(bad.stderr)")
        let extracted = try await webparse.run(
            ["run", "--urls", crlf, "--extract", #"{"items": "li", "fields": {"t": "."}}"#, "--merge"], environment: headless)
        #expect(extracted.status == 0, "\(extracted.stderr)")
        #expect(extracted.stdoutText == #"[{"t":"c1"},{"t":"c2"},{"t":"c5"},{"t":"c6"}]"# + "\n", "--extract: \(extracted.stdoutText)")
        let notURLs = try write("\(server.url("/page/1"))\nnot a page\n", "bad.txt", in: directory)
        let wrong = try await webparse.run(["run", "--urls", notURLs, "--script", "1"], environment: headless)
        #expect(
            wrong.status == 2 && wrong.stderr.contains(#"line 2: neither a URL, nor a host name, nor a file next to the config: "not a page""#),
            "\(wrong.stderr)")
    }
}
