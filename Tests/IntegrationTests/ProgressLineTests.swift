import Foundation
import TestSupport
import Testing

/// On a terminal, a run of many pages shows one progress line that updates in place, not a line per page; `-v`
/// keeps a line per job's step; off a terminal, nothing. Driven through a pseudo-terminal (`script`).
@Suite struct ProgressLineTests: CommandLineTest {
    /// What webparse wrote on stderr, a terminal, running `arguments` (stdout goes nowhere).
    func stderrOnTerminal(_ arguments: [String]) throws -> String {
        let quoted = arguments.map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
        return try PseudoTerminal.output(of: "env -u DISPLAY -u WAYLAND_DISPLAY TERM=xterm '\(webparse.executable.path)' \(quoted) > /dev/null")
    }

    @Test func aRunOfManyPagesShowsOneLineThatUpdates() async throws {
        let server = try TestHTTPServer(routes: ["*": .respond(body: "<title>page</title><script>document.title = 'ready';</script>")])
        let directory = try folder()
        let jobs = (1...8).map { #"{"name": "p\#($0)", "url": "\#(server.url("/\($0)"))", "script": "document.title"}"# }.joined(separator: ",")
        let config = try write(#"{"jobs": [\#(jobs)]}"#, "many.json", in: directory)
        let terminal = try stderrOnTerminal(["run", config])
        #expect(terminal.contains("\r\u{1B}[K"), "the line is redrawn in place: \(terminal.debugDescription)")
        #expect(terminal.contains("webparse: 8/8 pages"), "\(terminal.debugDescription)")
        #expect(!terminal.contains("started") && !terminal.contains("page loaded"), "no line per page: \(terminal.debugDescription)")
        #expect(terminal.hasSuffix("\r\u{1B}[K"), "the line goes away at the end: \(terminal.debugDescription)")
        let verbose = try stderrOnTerminal(["run", config, "-v"])
        #expect(verbose.contains("webparse: p3: started") && !verbose.contains("\u{1B}[K"), "\(verbose.debugDescription)")
        let quiet = try stderrOnTerminal(["run", config, "-q"])
        #expect(quiet.isEmpty, "\(quiet.debugDescription)")
        let piped = try await webparse.run(["run", config], environment: headless)
        #expect(piped.status == 0 && piped.stderr.isEmpty, "\(piped.stderr)")
    }

    @Test func aCrawlCountsThePagesItFinds() throws {
        let server = try TestHTTPServer(routes: [
            "/": .respond(body: #"<title>home</title><a href="/a">a</a><a href="/b">b</a><a href="/c">c</a>"#),
            "*": .respond(body: "<title>leaf</title>")
        ])
        let directory = try folder()
        let config = try write(#"{"url": "\#(server.url("/"))", "script": "document.title", "crawl": {"robots": false}}"#, "crawl.json", in: directory)
        let terminal = try stderrOnTerminal(["run", config])
        #expect(terminal.contains("webparse: 4/4 pages"), "the start and the three pages it links to: \(terminal.debugDescription)")
        let bounded = try write(
            #"{"url": "\#(server.url("/"))", "script": "document.title", "crawl": {"robots": false, "maxPages": 2}}"#, "bounded.json", in: directory)
        let stopped = try stderrOnTerminal(["run", bounded])
        #expect(stopped.contains("webparse: 2/2 pages") && !stopped.contains("/4 pages"), "links past maxPages are not counted: \(stopped.debugDescription)")
    }
}
