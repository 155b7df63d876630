import Foundation
import TestSupport
import Testing

/// The README's recipes, as a user runs them: `Examples/recipes/serve.py` serves the comic site they act on,
/// and each recipe's config runs against it with the exact output the README shows.
@Suite(.serialized) struct RecipeTests: CommandLineTest {
    static let recipes = CLITests.packageRoot.appending(path: "Examples/recipes")

    /// The recipes' site on a free port, and the recipes' configs with that port in their URLs.
    final class Site: @unchecked Sendable {
        let port: Int
        let configs: URL
        /// The site's process, started directly: a thread waiting for it to exit would spin (Foundation's
        /// `waitUntilExit` polls) for as long as the site runs.
        private let server = Process()

        init(configsIn folder: URL) throws {
            port = try TestHTTPServer.refusingURL().port!
            server.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
            server.arguments = [RecipeTests.recipes.appending(path: "serve.py").path, String(port)]
            let ready = Pipe()
            server.standardOutput = ready
            server.standardError = FileHandle.nullDevice
            try server.run()
            // The site says so on its first line once it listens.
            _ = ready.fileHandleForReading.availableData
            configs = folder
            for name in try FileManager.default.contentsOfDirectory(atPath: RecipeTests.recipes.path) where name.hasSuffix(".json") {
                let text = try String(contentsOf: RecipeTests.recipes.appending(path: name), encoding: .utf8)
                    .replacingOccurrences(of: "127.0.0.1:8731", with: "127.0.0.1:\(port)")
                    .replacingOccurrences(of: "../webparse.schema.json", with: "webparse.schema.json")
                try text.write(to: folder.appending(path: name), atomically: true, encoding: .utf8)
            }
        }

        func config(_ name: String) -> String { configs.appending(path: name).path }

        /// Stops the site, and waits until it has.
        func stop() {
            server.terminate()
            server.waitUntilExit()
        }
    }

    @Test func everyRecipeGivesWhatTheREADMEShows() async throws {
        let site = try Site(configsIn: try folder())
        defer { site.stop() }
        var environment = headless
        environment["COMICS_PASSWORD"] = "correct horse"
        let expected: [(String, String)] = [
            ("login.json", #"{"login":"/members/updates","updates":[{"title":"Comic 1"},{"title":"Comic 2"},{"title":"Comic 3"}]}"#),
            ("paginate.json", "[" + (1...7).map { #"{"title":"Comic \#($0)"}"# }.joined(separator: ",") + "]"),
            ("infinite-scroll.json", "[" + (1...20).map { #"{"title":"Post \#($0)"}"# }.joined(separator: ",") + "]"),
            ("postback.json", #"[{"title":"One Piece"},{"title":"Naruto"}]"#),
            (
                "capture-api.json",
                #"[{"url":"http://127.0.0.1:8731/api/comics?page=1","method":"GET","status":200,"mimeType":"application/json","kind":"xhr","#
                    + #""frame":"main","size":58,"exact":false,"body":{"items": ["Comic 1", "Comic 2", "Comic 3"], "more": true}}]"#
            )
        ]
        for (name, output) in expected {
            let run = try await webparse.run(["run", site.config(name)], environment: environment)
            #expect(run.status == 0, "\(name): \(run.stderr)")
            #expect(run.stdoutText == output.replacingOccurrences(of: "127.0.0.1:8731", with: "127.0.0.1:\(site.port)") + "\n", "\(name)")
        }
        environment["COMICS_PASSWORD"] = "wrong"
        let refused = try await webparse.run(["run", site.config("login.json")], environment: environment)
        #expect(
            refused.status == 1 && refused.stderr.contains(#"updates: failed: not run: it runs after "login", which failed"#),
            "\(refused.stderr)")
    }

    /// The login recipe with a session folder, run after run: the site sends a logged-in user from its login page
    /// on to the members' pages (as Django does), and the `if` step then fills nothing.
    @Test func theLoginRecipeWorksOnEveryRunOfASession() async throws {
        let directory = try folder()
        let site = try Site(configsIn: directory)
        defer { site.stop() }
        var environment = headless
        environment["COMICS_PASSWORD"] = "correct horse"
        let session = directory.appending(path: "session").path
        let output = #"{"login":"/members/updates","updates":[{"title":"Comic 1"},{"title":"Comic 2"},{"title":"Comic 3"}]}"# + "\n"
        let first = try await webparse.run(["run", "-v", "--session", session, site.config("login.json")], environment: environment)
        #expect(first.status == 0 && first.stdoutText == output, "\(first.stderr)")
        #expect(first.stderr.contains(#"login: step 1 (if "form[action='/login']"): true, running its then steps"#), "\(first.stderr)")
        environment["COMICS_PASSWORD"] = "wrong: the form must not be filled again"
        let second = try await webparse.run(["run", "-v", "--session", session, site.config("login.json")], environment: environment)
        #expect(second.status == 0 && second.stdoutText == output, "\(second.stderr)")
        #expect(second.stderr.contains(#"login: step 1 (if "form[action='/login']"): false, running its else steps"#), "\(second.stderr)")
    }

    @Test func theUpdateCheckReadsOnePageWhenNothingIsNew() async throws {
        let directory = try folder()
        let site = try Site(configsIn: directory)
        defer { site.stop() }
        let state = directory.appending(path: "archive.state").path
        let first = try await webparse.run(
            ["run", "--state", state, "--new-only", "--emit-initial", site.config("update-check.json")],
            environment: headless)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdoutText == "[" + (1...30).reversed().map { #"{"title":"Chapter \#($0)"}"# }.joined(separator: ",") + "]\n", "six pages of five")
        let again = try await webparse.run(["run", "--state", state, "--new-only", "-v", site.config("update-check.json")], environment: headless)
        #expect(again.status == 0 && again.stdout.isEmpty, "\(again.stderr)")
    }

    /// The cron recipe "new chapters as a feed": the archive's first page, read by selectors, into an Atom feed
    /// (with --emit-initial here, so that the first run fills it); a second run adds nothing.
    @Test func theFeedRecipeKeepsTheNewChaptersAsAtom() async throws {
        let directory = try folder()
        let site = try Site(configsIn: directory)
        defer { site.stop() }
        let state = directory.appending(path: "chapters.state").path
        let feed = directory.appending(path: "chapters.atom").path
        let arguments = ["run", site.config("chapters-feed.json"), "--state", state, "--new-only", "--feed", feed]
        let first = try await webparse.run(arguments + ["--emit-initial"], environment: headless)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdoutText == "[" + (26...30).reversed().map { #"{"title":"Chapter \#($0)"}"# }.joined(separator: ",") + "]\n")
        let xml = try String(contentsOfFile: feed, encoding: .utf8)
        #expect(xml.components(separatedBy: "<entry>").count == 6)
        #expect(xml.contains("<title>Chapter 30</title>"))
        let again = try await webparse.run(arguments, environment: headless)
        #expect(again.status == 0 && again.stdout.isEmpty, "\(again.stderr)")
        #expect(try String(contentsOfFile: feed, encoding: .utf8).components(separatedBy: "<entry>").count == 6)
    }

    /// The cron recipe "new chapters with their own pages, as a feed": each new chapter of the archive is followed to
    /// its page (its date, and its summary, which its script writes), and the feed's entries take those; a second
    /// run follows nothing and adds nothing.
    @Test func theFollowRecipeFeedsEachNewChapterWithItsPage() async throws {
        let directory = try folder()
        let site = try Site(configsIn: directory)
        defer { site.stop() }
        let state = directory.appending(path: "follow.state").path
        let feed = directory.appending(path: "follow.atom").path
        let arguments = ["run", site.config("follow-feed.json"), "--state", state, "--new-only", "--feed", feed]
        let first = try await webparse.run(arguments + ["--emit-initial"], environment: headless)
        #expect(first.status == 0, "\(first.stderr)")
        let items = try #require(try JSONSerialization.jsonObject(with: first.stdout) as? [[String: Any]], "\(first.stdoutText)")
        #expect(items.count == 5)
        let newest = try #require(items.first)
        #expect(newest["title"] as? String == "Chapter 30")
        #expect(newest["detail"] as? [String: String] == ["date": "2026-11-30", "summary": "The keeper climbs the stairs for the 30th time."])
        let xml = try String(contentsOfFile: feed, encoding: .utf8)
        #expect(xml.components(separatedBy: "<entry>").count == 6)
        #expect(xml.contains("<summary>The keeper climbs the stairs for the 30th time.</summary>"), "\(xml)")
        #expect(xml.contains("<updated>2026-11-30"), "\(xml)")
        let again = try await webparse.run(arguments, environment: headless)
        #expect(again.status == 0 && again.stdout.isEmpty, "\(again.stderr)")
    }

    /// The price watch recipe, run after run as cron would (with --all: its six hours are not waited for): a drop
    /// below 300 is reported when it happens and not while it lasts; a sold-out product is not; the shop's API down
    /// for three runs gives one notice, and its recovery another, and no change.
    @Test func thePriceWatchRecipeTellsDropsOnceAndTheShopsHealthTwice() async throws {
        let directory = try folder()
        let site = try Site(configsIn: directory)
        defer { site.stop() }
        let state = directory.appending(path: "shop.state").path
        let endpoint = try TestHTTPServer(routes: ["/": .handle { _ in TestHTTPServer.Response(body: "") }])
        let cron = ["run", site.config("price-watch.json"), "--state", state, "--new-only", "--notify", "json://127.0.0.1:\(endpoint.url("/").port!)/"]
        func admin(_ query: String) async throws {
            _ = try await ProcessRunner(path: "/usr/bin/python3").run([
                "-c", "import sys, urllib.request; urllib.request.urlopen(sys.argv[1]).read()", "http://127.0.0.1:\(site.port)/shop/admin?\(query)"
            ])
        }
        let first = try await webparse.run(cron, environment: headless)
        #expect(first.status == 0 && first.stdout.isEmpty, "\(first.stderr)")
        try await admin("sku=w-100&price=279")
        let notDue = try await webparse.run(cron + ["-v"], environment: headless)
        #expect(notDue.status == 0 && notDue.stdout.isEmpty && notDue.stderr.contains("webparse: price-drops: not due until "), "\(notDue.stderr)")
        var printed: [String] = []
        for query in ["sku=d-300&price=199", "sku=w-100&price=259", "sku=d-300&stock=In+stock", "sku=w-100&price=329", "sku=w-100&price=279"] {
            try await admin(query)
            let run = try await webparse.run(cron + ["--all"], environment: headless)
            #expect(run.status == 0, "\(run.stderr)")
            printed.append(run.stdoutText)
        }
        #expect(
            printed == [
                #"[{"sku":"w-100","name":"Widget","price":279,"stock":"In stock"}]"# + "\n", "",
                #"[{"sku":"d-300","name":"Doohickey","price":199,"stock":"In stock"}]"# + "\n", "",
                #"[{"sku":"w-100","name":"Widget","price":279,"stock":"In stock"}]"# + "\n"
            ], "the drop seen at the first run after the one that was not due; sold out is no drop; back under 300 again")
        let news = endpoint.requests.count
        try await admin("down=1")
        for _ in 1...3 {
            let down = try await webparse.run(cron + ["--all"], environment: headless)
            #expect(down.status == 1 && down.stdout.isEmpty && down.stderr.contains("Sorry, the shop answered 503"), "\(down.stderr)")
        }
        try await admin("down=0")
        let back = try await webparse.run(cron + ["--all"], environment: headless)
        #expect(back.status == 0 && back.stdout.isEmpty, "\(back.stdoutText) \(back.stderr)")
        let titles = endpoint.requests.dropFirst(news).compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0.body.utf8)) as? [String: Any])?["title"] as? String
        }
        #expect(titles == ["webparse: price-drops is failing", "webparse: price-drops recovered"])
        let status = try await webparse.run(["status", state])
        #expect(status.stdoutText.contains("price-drops  ok"), "\(status.stdoutText)")
    }
}
