import Foundation
import Glibc
import Synchronization
import TestSupport
import Testing

/// `webparse work`: workers, as separate processes, sharing a queue on a real Redis (Debian's redis-server on a free
/// port) and pages rendered by their scripts from a local server.
@Suite(.serialized) struct WorkCommandTests: CommandLineTest {
    /// A comic site of `count` series, each page an empty `#app` whose script fetches the series and renders it.
    static func comics(_ count: Int, delay: Duration? = nil) throws -> TestHTTPServer {
        var routes: [String: TestHTTPServer.Route] = [:]
        for number in 1...count {
            routes["/series/\(number)"] = .respond(
                body: """
                    <!doctype html><title>series</title><div id="app"></div><script>
                    fetch("/api/\(number)").then(r => r.json()).then(d => setTimeout(() => {
                      document.getElementById("app").innerHTML = "<h1>" + d.title + "</h1>";
                    }, 20));
                    </script>
                    """)
            let data = TestHTTPServer.Route.respond(contentType: "application/json", body: #"{"title": "Series \#(number)"}"#)
            routes["/api/\(number)"] = delay.map { .delayed($0, data) } ?? data
        }
        return try TestHTTPServer(routes: routes)
    }

    static let title = "document.querySelector('#app h1')?.textContent"

    /// The records of the Redis list `key`, as objects.
    func records(_ redis: RedisServer, _ key: String) throws -> [[String: Any]] {
        try redis.cli(["LRANGE", key, "0", "-1"]).split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
        }
    }

    /// Whoever can push to the queue is not the worker's owner: an item that names a file of the worker's to write
    /// goes to `NAME:failed` and writes nothing; with a folder for items' files in the worker's config, an item's
    /// screenshot is written there by name, private to the worker's user.
    @Test func anItemWritesNoFileOfTheWorkers() async throws {
        let site = try Self.comics(1)
        let redis = try RedisServer()
        let directory = try folder()
        let state = try write("the worker's state", "comics.state", in: directory)
        let shots = directory.appending(path: "shots")
        try FileManager.default.createDirectory(at: shots, withIntermediateDirectories: true)
        let page = site.url("/series/1").absoluteString
        let items = [
            #"{"url": "\#(page)", "screenshot": "\#(state)"}"#, #"{"url": "\#(page)", "screenshot": {"file": "\#(state)"}}"#,
            #"{"url": "\#(page)", "screenshot": "shot.png"}"#
        ]
        try redis.cli(["RPUSH", "comics"] + items)
        let refused = try await webparse.run(["work", redis.url(queue: "comics"), "--script", Self.title], environment: headless)
        #expect(refused.status == 1, "every item failed: \(refused.stderr)")
        let failed = try records(redis, "comics:failed")
        #expect(failed.count == 3 && failed.allSatisfy { $0["code"] as? String == "invalid-item" }, "\(failed)")
        #expect(failed.allSatisfy { ($0["error"] as? String)?.contains("an item writes no file of the worker's") == true }, "\(failed)")
        #expect(try String(contentsOfFile: state, encoding: .utf8) == "the worker's state")
        try redis.cli(["DEL", "comics:failed"])
        let config = try write(#"{"itemFiles": "shots"}"#, "worker.json", in: directory)
        try redis.cli(["RPUSH", "comics"] + items)
        let worker = try await webparse.run(["work", redis.url(queue: "comics"), config, "--script", Self.title], environment: headless)
        #expect(worker.status == 1, "two of the items failed: \(worker.stderr)")
        #expect(try records(redis, "comics:failed").count == 2)
        #expect(try records(redis, "comics:results").count == 1)
        let written = try FileManager.default.attributesOfItem(atPath: shots.appending(path: "shot.png").path)
        #expect((written[.posixPermissions] as? Int) == 0o600)
        #expect(try Data(contentsOf: shots.appending(path: "shot.png")).starts(with: [0x89, 0x50, 0x4E, 0x47]), "a PNG")
        #expect(try String(contentsOfFile: state, encoding: .utf8) == "the worker's state")
    }

    @Test func twoHundredPagesByThreeWorkersAreEachDoneOnce() async throws {
        let site = try Self.comics(200)
        let redis = try RedisServer()
        let pages = (1...200).map { site.url("/series/\($0)").absoluteString }
        try redis.cli(["RPUSH", "comics"] + pages + ["chapter 12", #"{"url": "\#(pages[0])", "timout": 5}"#, #"{"url": "file:///etc/passwd"}"#])
        let workers = try (1...3).map { _ in
            try webparse.start(["work", redis.url(queue: "comics"), "--script", Self.title, "-j", "2", "--jsonl"], environment: headless)
        }
        var printed: [Substring] = []
        var ends: [Int32] = []
        for worker in workers {
            let outcome = await worker.finish()
            // The worker that took the three invalid items exits 1; the others 0.
            expectDrained(outcome)
            ends.append(outcome.status)
            printed += outcome.stdoutText.split(separator: "\n")
        }
        #expect(ends.contains(1), "a worker whose items failed says so in its exit code: \(ends)")
        let results = try records(redis, "comics:results")
        #expect(results.count == 200)
        #expect(Set(results.compactMap { $0["url"] as? String }) == Set(pages), "each page once")
        for record in results {
            let number = (record["url"] as? String)?.split(separator: "/").last.map(String.init) ?? "?"
            #expect(record["result"] as? String == "Series \(number)" && record["status"] as? String == "ok", "\(record)")
        }
        let failed = try records(redis, "comics:failed").compactMap { $0["error"] as? String }
        #expect(failed.count == 3)
        for expected in ["is neither an http(s) URL nor a job object: chapter 12", "timout: unknown key", "an item loads web pages only"] {
            #expect(failed.contains { $0.contains(expected) }, "\(failed)")
        }
        #expect(printed.count == 203, "--jsonl prints every record once")
        #expect(try redis.cli(["EXISTS", "comics", "comics:workers"]) == "0")
        #expect(try redis.cli(["KEYS", "comics:processing:*"]).isEmpty && redis.cli(["KEYS", "comics:worker:*"]).isEmpty)
    }

    /// A worker killed mid-job (SIGKILL, as a pod evicted) keeps its item in its processing list; another worker
    /// puts it back once the lease ends and does it: one record.
    @Test func theItemOfAKilledWorkerIsDoneByAnotherOnceItsLeaseEnds() async throws {
        // The page hangs for the first worker, and answers the next.
        let site = try TestHTTPServer(routes: ["/page": .sequence([.hang, .respond(body: #"<div id="app"><h1>done</h1></div>"#)])])
        let redis = try RedisServer()
        try redis.cli(["RPUSH", "jobs", #"{"url": "\#(site.url("/page"))", "timeout": 120}"#])
        let killed = try webparse.start(["work", redis.url(queue: "jobs"), "--script", Self.title, "-j", "1", "--lease", "2"], environment: headless)
        try await waitUntil("the first worker's load") { !site.requests(for: "/page").isEmpty }
        let children = killed.descendants().map(\.pid)
        killed.send(SIGKILL)
        for child in children { kill(child, SIGKILL) }
        _ = await killed.finish()
        // The item is the other worker's once the killed one's heartbeat expires.
        let other = try await webparse.run(["work", redis.url(queue: "jobs"), "--script", Self.title, "--lease", "2"], environment: headless)
        #expect(other.status == 0, "\(other.stderr)")
        let results = try records(redis, "jobs:results")
        #expect(results.count == 1 && results.first?["result"] as? String == "done", "\(results)")
        #expect(try redis.cli(["KEYS", "jobs:*"]).split(separator: "\n").sorted() == ["jobs:results"])
    }

    /// Redis stopped and started again while two workers run: they reconnect, and every page has one record.
    @Test func aRestartedRedisLosesAndRepeatsNothing() async throws {
        let site = try Self.comics(40, delay: .milliseconds(150))
        let redis = try RedisServer()
        let pages = (1...40).map { site.url("/series/\($0)").absoluteString }
        try redis.cli(["RPUSH", "comics"] + pages)
        let workers = try (1...2).map { _ in
            try webparse.start(["work", redis.url(queue: "comics"), "--script", Self.title, "-j", "2"], environment: headless)
        }
        try await waitUntil("the first results") { Int(try redis.cli(["LLEN", "comics:results"])) ?? 0 >= 6 }
        redis.stop()
        try await Task.sleep(for: .seconds(1))
        try redis.start()
        for worker in workers {
            let outcome = await worker.finish()
            #expect(outcome.status == 0, "\(outcome.stderr)")
        }
        let urls = try records(redis, "comics:results").compactMap { $0["url"] as? String }
        #expect(urls.count == 40 && Set(urls) == Set(pages), "\(urls.count) records")
    }

    /// A crawl shared by three workers loads exactly the pages `run` crawls, each once: its links become items.
    @Test func aCrawlSharedByThreeWorkersGivesRunsPagesEachOnce() async throws {
        let site = try CrawlCommandTests.site()
        let directory = try folder()
        let job = #"{"name": "site", "url": "\#(site.url("/"))", "script": "document.title", "timeout": 10, "retries": 0, "crawl": {}}"#
        let run = try await webparse.run(["run", try write(job, "crawl.json", in: directory)], environment: headless)
        let crawled = try #require(try JSONSerialization.jsonObject(with: run.stdout) as? [String: Any], "\(run.stderr)")
        let redis = try RedisServer()
        try redis.cli(["RPUSH", "site", job])
        try await work(3, redis.url(queue: "site"), ["-j", "2"])
        let results = try records(redis, "site:results")
        let failed = try records(redis, "site:failed")
        let urls = (results + failed).compactMap { $0["url"] as? String }
        #expect(urls.count == crawled.count && Set(urls) == Set(crawled.keys), "\(urls.sorted()) against \(crawled.keys.sorted())")
        for record in results {
            #expect(record["job"] as? String == "site")
            #expect(record["result"] as? String == crawled[record["url"] as? String ?? ""] as? String, "\(record)")
        }
        #expect(!urls.contains(site.url("/private/secret").absoluteString), "robots.txt is obeyed")
        #expect(try redis.cli(["GET", "site:pages:site"]) == String(crawled.count))
    }

    /// A list's detail pages (and their own lists' pages) become items that three workers share, each URL once; a
    /// second round of the list queues none of the pages seen.
    @Test func followedDetailPagesBecomeItemsEachOnce() async throws {
        let archive = try FollowCommandTests.Archive(chapters: 3)
        let redis = try RedisServer()
        let job = #"{"name": "archive", "url": "\#(archive.server.url("/archive"))", \#(FollowCommandTests.extract), \#(FollowCommandTests.follow)}"#
        func round() async throws -> [[String: Any]] {
            try redis.cli(["DEL", "comics:results"])
            try redis.cli(["RPUSH", "comics", job.replacingOccurrences(of: "\n", with: " ")])
            try await work(3, redis.url(queue: "comics"), ["-j", "2"])
            #expect(try redis.cli(["LLEN", "comics:failed"]) == "0")
            return try records(redis, "comics:results")
        }
        let first = try await round()
        let urls = first.compactMap { $0["url"] as? String }
        #expect(urls.count == 10 && Set(urls).count == 10, "the list, 3 chapters (one listed twice), 6 pages: \(urls.sorted())")
        let list = try #require(first.first { $0["url"] as? String == archive.server.url("/archive").absoluteString })
        #expect((list["result"] as? [Any])?.count == 4 && list["detailsQueued"] as? Int == 3, "\(list)")
        let chapter = try #require(first.first { $0["url"] as? String == archive.server.url("/ch/2").absoluteString })
        #expect((chapter["item"] as? [String: String])?["title"] == "Chapter 2" && chapter["job"] as? String == "archive", "\(chapter)")
        #expect((chapter["result"] as? [String: Any])?["date"] as? String == "2026-12-02" && chapter["detailsQueued"] as? Int == 2)
        let scan = try #require(first.first { $0["url"] as? String == archive.server.url("/page/2-1").absoluteString })
        #expect((scan["result"] as? [String: String])?["image"] == archive.server.url("/scans/2-1.png").absoluteString, "\(scan)")
        #expect(archive.loads("/ch/2") == 1 && archive.loads("/page/3-2") == 1)
        let second = try await round()
        #expect(second.count == 1 && second.first?["detailsQueued"] as? Int == 0, "pages seen are not queued again: \(second)")
        #expect(archive.loads("/ch/1") == 1)
    }

    /// With --state, a job done by several workers at once records its state once per result, and an item new
    /// since the last round is reported in one record only.
    @Test func stateAcrossWorkersReportsEachNewItemOnce() async throws {
        let items = Mutex(#"["Chapter 1", "Chapter 2"]"#)
        let site = try TestHTTPServer(routes: [
            "/list": .respond(
                body:
                    #"<ul></ul><script>fetch("/items").then(r => r.json()).then(i => document.querySelector("ul").innerHTML = i.map(t => "<li>" + t + "</li>").join(""))</script>"#
            ),
            "/items": .handle { _ in .init(headers: ["Content-Type": "application/json", "Cache-Control": "no-store"], body: items.withLock { $0 }) }
        ])
        let redis = try RedisServer()
        let job = #"{"name": "chapters", "url": "\#(site.url("/list"))", "extract": {"items": "li", "fields": {"title": "."}}, "key": "title"}"#
        func round() async throws -> [[String: Any]] {
            try redis.cli(["DEL", "comics:results"])
            try redis.cli(["RPUSH", "comics", job, job, job, job])
            try await work(2, redis.url(queue: "comics"), ["--state", "-j", "2"])
            return try records(redis, "comics:results")
        }
        let first = try await round()
        #expect(first.count == 4 && first.allSatisfy { ($0["new"] as? [Any])?.isEmpty == true }, "a first sight reports nothing: \(first)")
        items.withLock { $0 = #"["Chapter 1", "Chapter 2", "Chapter 3"]"# }
        let second = try await round()
        #expect(second.count == 4)
        let reported = second.flatMap { $0["new"] as? [[String: String]] ?? [] }
        #expect(reported == [["title": "Chapter 3"]], "\(second)")
        #expect(try redis.cli(["HKEYS", "comics:state"]) == "chapters")
    }

    /// SIGTERM (a pod stopped) puts the item in hand back at the head of the queue and ends the worker.
    @Test func sigtermPutsTheItemInHandBack() async throws {
        let site = try TestHTTPServer(routes: ["/hang": .hang])
        let redis = try RedisServer()
        let item = site.url("/hang").absoluteString
        try redis.cli(["RPUSH", "comics", item, "https://later.invalid/"])
        let worker = try webparse.start(["work", redis.url(queue: "comics"), "--script", Self.title, "-j", "1"], environment: headless)
        try await waitUntil("the worker's lease") { !(try redis.cli(["KEYS", "comics:processing:*"]).isEmpty) }
        worker.send(SIGTERM)
        let outcome = await worker.finish()
        #expect(outcome.status == 143, "\(outcome.stderr)")
        #expect(try redis.cli(["LRANGE", "comics", "0", "-1"]) == item + "\nhttps://later.invalid/")
        #expect(try redis.cli(["KEYS", "comics:*"]).isEmpty, "no processing list, heartbeat or record is left")
    }

    /// A worker's CONFIG gives every item its defaults; what is wrong is said before any page loads.
    @Test func aWorkersConfigAndWhatIsWrong() async throws {
        let site = try Self.comics(3)
        let redis = try RedisServer()
        let directory = try folder()
        let config = try write(##"{"defaults": {"extract": {"fields": {"title": "#app h1"}}, "timeout": 10}, "concurrency": 1}"##, "worker.json", in: directory)
        try redis.cli(["RPUSH", "comics"] + (1...3).map { site.url("/series/\($0)").absoluteString })
        let worked = try await webparse.run(["work", redis.url(queue: "comics"), config, "--jsonl"], environment: headless)
        #expect(worked.status == 0, "\(worked.stderr)")
        #expect(worked.stdoutText.components(separatedBy: #""result":{"title":"Series "#).count == 4, "\(worked.stdoutText)")

        let withJobs = try write(#"{"jobs": [{"url": "https://x.test/", "script": "1"}]}"#, "jobs.json", in: directory)
        let refused = try await webparse.run(["work", redis.url(queue: "comics"), withJobs], environment: headless)
        #expect(
            refused.status == 2 && refused.stderr.contains("jobs.json") && refused.stderr.contains("jobs: a worker's config has no jobs"), "\(refused.stderr)")
        let noQueue = try await webparse.run(["work", "redis://127.0.0.1:\(redis.port)"], environment: headless)
        #expect(noQueue.status == 2 && noQueue.stderr.contains("no queue: add ?queue=NAME"), "\(noQueue.stderr)")
        try redis.cli(["SET", "taken:results", "another program's"])
        let wrongType = try await webparse.run(["work", redis.url(queue: "taken")], environment: headless)
        #expect(wrongType.status == 6 && wrongType.stderr.contains("the key taken:results is a string, not a list"), "\(wrongType.stderr)")
        let guarded = try RedisServer(password: "s3cret")
        let wrongPassword = try await webparse.run(["work", guarded.url(queue: "q", password: "wrong")], environment: headless)
        #expect(wrongPassword.status == 6 && wrongPassword.stderr.contains("Redis answered"), "\(wrongPassword.stderr)")
        #expect(!wrongPassword.stderr.contains("wrong@"), "the password is not shown")
        let port = redis.port
        redis.stop()
        let down = try await webparse.run(["work", "redis://127.0.0.1:\(port)?queue=comics"], environment: headless)
        #expect(down.status == 6 && down.stderr.contains("the connection to Redis failed"), "\(down.stderr)")
    }

    /// A record larger than Redis takes fails its item with Redis' reason; the worker goes on, and exits 1 at the
    /// end, as a run whose job failed does.
    @Test func aRecordRedisRefusesFailsItsItem() async throws {
        let site = try Self.comics(2)
        let redis = try RedisServer()
        try redis.cli(["CONFIG", "SET", "proto-max-bulk-len", "1mb"])
        try redis.cli(["RPUSH", "comics", site.url("/series/1").absoluteString, site.url("/series/2").absoluteString])
        let script = "location.pathname.endsWith('/1') ? 'x'.repeat(2000000) : 'small'"
        let worked = try await webparse.run(["work", redis.url(queue: "comics"), "--script", script, "-j", "1"], environment: headless)
        #expect(worked.status == 1 && worked.stderr.contains("1 of 2 items failed; their records are in comics:failed"), "\(worked.stderr)")
        let failed = try records(redis, "comics:failed")
        #expect(failed.count == 1 && (failed.first?["error"] as? String)?.contains("Redis refused the job's record") == true, "\(failed)")
        #expect(try records(redis, "comics:results").compactMap { $0["result"] as? String } == ["small"])
    }

    /// The README's work-queue commands, as a user pastes them (the site and Redis on free ports): two workers
    /// share the recipes' archive, 36 pages, each once.
    @Test func theREADMEsCommandsShareTheArchive() async throws {
        let directory = try folder()
        let site = try RecipeTests.Site(configsIn: directory)
        defer { site.stop() }
        let readme = try String(contentsOf: CLITests.packageRoot.appending(path: "README.md"), encoding: .utf8)
        let section = try #require(readme.components(separatedBy: "## Many machines: shards or a work queue").dropFirst().first)
        let block = try #require(section.components(separatedBy: "```").dropFirst().first)
        let port = try TestHTTPServer.refusingURL().port!
        let commands = block.replacingOccurrences(of: "6390", with: String(port)).replacingOccurrences(of: "8731", with: String(site.port))
            .replacingOccurrences(of: "webparse work", with: "'\(webparse.executable.path)' work")
        defer { _ = try? ProcessRunner(path: "/usr/bin/redis-cli").output(["-p", String(port), "shutdown", "nosave"]) }
        // Through Python, which gives bash no descriptor but stdin, stdout and stderr: the daemonized Redis keeps every
        // descriptor it is given, and Foundation's Process learns that its child ended when one of them closes.
        let shell = Process()
        shell.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        shell.currentDirectoryURL = CLITests.packageRoot
        shell.arguments = ["-c", "import subprocess, sys; sys.exit(subprocess.call(['bash', '-c', sys.argv[1]]))", commands]
        var environment = ProcessInfo.processInfo.environment
        environment["DISPLAY"] = nil
        shell.environment = environment
        let output = Pipe()
        shell.standardOutput = output
        shell.standardError = FileHandle.nullDevice
        try shell.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        shell.waitUntilExit()
        #expect(shell.terminationStatus == 0)
        // The first line is RPUSH's answer: the queue's length.
        let lines = text.split(separator: "\n").dropFirst()
        let base = "http://127.0.0.1:\(site.port)"
        #expect(lines.count == 36 && Set(lines.map { $0.split(separator: " ").first ?? "" }).count == 36, "\(text)")
        #expect(lines.first == #"\#(base)/archive/1  ["Chapter 30","Chapter 29","Chapter 28","Chapter 27","Chapter 26"]"#)
        #expect(lines.last == "\(base)/chapter/30  The keeper climbs the stairs for the 30th time.")
    }
}
