import Foundation
import TestSupport
import Testing

/// `run --feed`: an Atom feed of the items `--state` reports as new, parsed back with Debian's python3-feedparser.
@Suite struct FeedCommandTests: CommandLineTest {
    /// A chapter list that grows by one run to the next: the page of the request numbered `n` lists `n + 1` chapters.
    func site() throws -> TestHTTPServer {
        let titles = [#"Chapter 1 <b>&amp;</b> "quoted" 'too'"#, "Chapitre 2 : l’été", "Chapter 3", "Chapter 4", "Chapter 5"]
        return try TestHTTPServer(routes: [
            "/": .dynamic { n in
                let items = titles.prefix(min(n + 1, titles.count)).enumerated().reversed().map { index, title in
                    let escaped = title.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
                    return #"<li class="chapter"><a href="/c/\#(index + 1)">\#(escaped)</a><time datetime="2026-11-0\#(index + 1)"></time></li>"#
                }
                return (200, "<title>The Comics Archive &amp; Co</title><ul>" + items.joined() + "</ul>")
            }
        ])
    }

    /// The feed's title, then its entries as feedparser reads them: (id, title, link, updated), after checking it is
    /// well formed.
    func entries(_ path: String) async throws -> [[String]] {
        let check = """
            import json, sys, feedparser
            feed = feedparser.parse(sys.argv[1])
            assert not feed.bozo, feed.get("bozo_exception")
            assert feed.version == "atom10", feed.version
            print(json.dumps([[feed.feed.title]] + [[e.id, e.title, e.link, e.updated] for e in feed.entries]))
            """
        let python = try await ProcessRunner(path: "/usr/bin/python3").run(["-c", check, path])
        #expect(python.status == 0, "feedparser found the feed malformed: \(python.stderr)")
        return try JSONDecoder().decode([[String]].self, from: python.stdout)
    }

    /// Run after run, the feed holds the new items newest first, keeps each item's id, escapes XML's characters,
    /// keeps non-ASCII titles, and is trimmed to --feed-size.
    @Test func runAfterRunTheFeedHoldsWhatIsNewNewestFirst() async throws {
        let server = try site()
        let directory = try folder()
        let config = try write(
            #"{"name": "comics", "url": "\#(server.url("/"))", "extract": {"items": ".chapter", "fields": {"title": "a", "url": "a@href", "date": "time@datetime"}}, "key": "url", "retries": 0}"#,
            "comics.json", in: directory)
        let state = directory.appending(path: "comics.state").path
        let feed = directory.appending(path: "comics.atom").path
        let arguments = ["run", config, "--state", state, "--new-only", "--feed", feed, "--feed-size", "4"]
        let first = try await webparse.run(arguments + ["--emit-initial"], environment: headless)
        #expect(first.status == 0, "\(first.stderr)")
        let read = try await entries(feed)
        #expect(read.first == ["The Comics Archive & Co"], "the feed is titled as the page is")
        let one = Array(read.dropFirst())
        #expect(one.map { $0[1] } == ["Chapitre 2 : l’été", #"Chapter 1 <b>&amp;</b> "quoted" 'too'"#])
        #expect(one.map { $0[2] } == [server.url("/c/2").absoluteString, server.url("/c/1").absoluteString])
        #expect(one.map { $0[3] } == ["2026-11-02T00:00:00Z", "2026-11-01T00:00:00Z"])

        let second = try await webparse.run(arguments, environment: headless)
        #expect(second.status == 0, "\(second.stderr)")
        let two = try await entries(feed).dropFirst()
        #expect(two.map { $0[1] } == ["Chapter 3", "Chapitre 2 : l’été", #"Chapter 1 <b>&amp;</b> "quoted" 'too'"#])
        #expect(Array(two.dropFirst().map { $0[0] }) == one.map { $0[0] }, "an item keeps its id")

        _ = try await webparse.run(arguments, environment: headless)
        _ = try await webparse.run(arguments, environment: headless)
        let four = try await entries(feed).dropFirst()
        #expect(four.map { $0[1] } == ["Chapter 5", "Chapter 4", "Chapter 3", "Chapitre 2 : l’été"], "trimmed to 4")
        let mode = try FileManager.default.attributesOfItem(atPath: feed)[.posixPermissions] as? Int
        #expect(mode == 0o600, "readable by the user only, as the state is")
    }

    /// A job's `feed.name` titles its feed, over the page's title; a name that is not a string is a config error.
    @Test func aJobNamesItsFeed() async throws {
        let server = try site()
        let directory = try folder()
        let config = try write(
            #"{"name": "comics", "url": "\#(server.url("/"))", "extract": {"items": ".chapter", "fields": {"title": "a", "url": "a@href"}}, "key": "url", "feed": {"name": "New chapters: the Archive"}, "retries": 0}"#,
            "comics.json", in: directory)
        let feed = directory.appending(path: "comics.atom").path
        let run = try await webparse.run(
            ["run", config, "--state", directory.appending(path: "comics.state").path, "--new-only", "--emit-initial", "--feed", feed], environment: headless)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try await entries(feed).first == ["New chapters: the Archive"])
        let wrong = try write(#"{"url": "\#(server.url("/"))", "script": "[]", "feed": {"name": 3}}"#, "wrong.json", in: directory)
        let refused = try await webparse.run(["validate", wrong], environment: headless)
        #expect(refused.status == 2 && refused.stderr.contains("feed.name"), "\(refused.stderr)")
    }

    /// --feed needs --state; a file that is not a feed webparse wrote is left alone (exit 2) unless --feed-force;
    /// a run whose output cannot be delivered leaves the feed as it was; DIR/ writes DIR/JOB.atom.
    @Test func badPlacesAndFailedRunsLeaveFilesAsTheyWere() async throws {
        let server = try site()
        let directory = try folder()
        let config = try write(
            #"{"jobs": [{"name": "comics", "url": "\#(server.url("/"))", "extract": {"items": ".chapter", "fields": {"title": "a"}}, "retries": 0}]}"#,
            "comics.json", in: directory)
        let state = directory.appending(path: "state").path
        let noState = try await webparse.run(["run", config, "--feed", "x.atom"], environment: headless)
        #expect(noState.status == 2 && noState.stderr.contains("--feed needs --state"))

        let notes = try write("my notes\n", "notes.txt", in: directory)
        let refused = try await webparse.run(["run", config, "--state", state, "--feed", notes], environment: headless)
        #expect(refused.status == 2 && refused.stderr.contains("is not an Atom feed webparse wrote"), "\(refused.stderr)")
        #expect(try String(contentsOfFile: notes, encoding: .utf8) == "my notes\n")
        let forced = try await webparse.run(
            ["run", config, "--state", state, "--feed", notes, "--feed-force", "--emit-initial", "--new-only"], environment: headless)
        #expect(forced.status == 0, "\(forced.stderr)")
        #expect(try await entries(notes).dropFirst().count == 2)

        let before = try Data(contentsOf: URL(fileURLWithPath: notes))
        let undelivered = try await webparse.run(["run", config, "--state", state, "--feed", notes, "--new-only", "-o", "/dev/full"], environment: headless)
        #expect(undelivered.status == 1)
        #expect(try Data(contentsOf: URL(fileURLWithPath: notes)) == before)

        let folder = directory.appending(path: "feeds").path + "/"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let perJob = try await webparse.run(
            ["run", config, "--state", directory.appending(path: "state2").path, "--feed", folder, "--new-only", "--emit-initial"], environment: headless)
        #expect(perJob.status == 0, "\(perJob.stderr)")
        #expect(try await entries(folder + "comics.atom").dropFirst().count >= 3)
    }
}
