import Foundation
import Testing
@testable import WebParserCore

/// Config files: what they may say, and what webparse says about mistakes in them.
@Suite struct ConfigLoaderTests {
    /// A folder with a config file holding `text`, and a page next to it at `site/index.html`.
    func load(_ text: String) throws -> Result<Config, ConfigError> {
        let directory = FileManager.default.temporaryDirectory.appending(path: "webparse-config-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory.appending(path: "site"), withIntermediateDirectories: true)
        try "<p>hi</p>".write(to: directory.appending(path: "site/index.html"), atomically: true, encoding: .utf8)
        let file = directory.appending(path: "config.json")
        try text.write(to: file, atomically: true, encoding: .utf8)
        return Result { () throws(ConfigError) in try ConfigLoader.load(path: file.path) }
    }

    func url(_ text: String) throws -> URL? {
        try load(#"{"url": "\#(text)", "script": "1"}"#).get().jobs.first?.job.url
    }

    func problems(_ text: String) throws -> [String] {
        guard case .failure(let error) = try load(text) else { return [] }
        return error.problems.map { ($0.path.isEmpty ? "" : $0.path + ": ") + $0.message }
    }

    @Test func urlsResolveToWhatAUserMeans() throws {
        #expect(try url("https://example.com/a?b=1")?.absoluteString == "https://example.com/a?b=1")
        #expect(try url("example.com/updates")?.absoluteString == "https://example.com/updates")
        #expect(try url("localhost:8080/updates")?.absoluteString == "http://localhost:8080/updates")
        #expect(try url("127.0.0.1:9000")?.absoluteString == "http://127.0.0.1:9000")
        #expect(try url("site/index.html")?.isFileURL == true)
        #expect(try url("./site/index.html")?.path().hasSuffix("/site/index.html") == true)
        #expect(try url("file:site/index.html")?.path().hasSuffix("/site/index.html") == true)
    }

    /// A config's `passwordEnv` and `{"env": NAME}` are looked up in the environment it is read with: webparse
    /// reads the config while WebKit starts and adds to the process's environment, so it gives the environment it
    /// was started with.
    @Test func variablesAreLookedUpInTheEnvironmentGiven() throws {
        let text =
            #"{"url": "https://example.com/", "script": "1", "auth": {"user": "me", "passwordEnv": "COMIC_PASSWORD"},"#
            + ##" "steps": [{"fill": {"#q": {"env": "COMIC_QUERY"}}}]}"##
        let environment = ["COMIC_PASSWORD": "correct horse", "COMIC_QUERY": "chapter 12"]
        let job = try #require(
            try ConfigLoader.parse(
                Array(text.utf8), name: "c.json", directory: URL(fileURLWithPath: "/"),
                environment: environment
            ).jobs.first?.job)
        #expect(job.load.credentials?.password == "correct horse")
        #expect(job.evaluation.steps == [.fill(selector: "#q", value: "chapter 12")])
        let unset = Result { () throws(ConfigError) in
            try ConfigLoader.parse(Array(text.utf8), name: "c.json", directory: URL(fileURLWithPath: "/"), environment: [:])
        }
        guard case .failure(let error) = unset else { Issue.record("read without its variables"); return }
        #expect(
            error.problems.map(\.message) == [
                "the environment variable COMIC_PASSWORD is not set",
                "the environment variable COMIC_QUERY is not set"
            ])
    }

    @Test func badURLsAreConfigErrors() throws {
        #expect(try problems(#"{"url": "javascript:alert(1)", "script": "1"}"#) == [#"url: unsupported scheme "javascript:"; use http, https or file"#])
        #expect(try problems(#"{"url": "ftp://example.com/x", "script": "1"}"#) == [#"url: unsupported scheme "ftp:"; use http, https or file"#])
        #expect(try problems(#"{"url": "missing.html", "script": "1"}"#).first?.hasPrefix("url: no such file: /") == true)
        #expect(try problems(#"{"url": "file:///nonexistent/page.html", "script": "1"}"#) == ["url: no such file: /nonexistent/page.html"])
        #expect(try problems(#"{"url": "site", "script": "1"}"#).first?.hasPrefix("url: is a folder, not a page") == true)
        #expect(try problems(#"{"url": "nodots", "script": "1"}"#) == [#"url: neither a URL, nor a host name, nor a file next to the config: "nodots""#])
    }

    @Test func numbersAreCheckedAgainstTheirRanges() throws {
        let config =
            #"{"url": "example.com", "script": "1", "timeout": 0.0004, "pollInterval": -1, "retryDelay": "2", "retries": 11, "viewport": {"width": 0, "height": 2.5}}"#
        #expect(
            try problems(config) == [
                "timeout: expected a number of seconds from 0.1 to 86400, got 0.0004",
                "pollInterval: expected a number of seconds from 0.01 to 3600, got -1",
                #"retryDelay: expected a number of seconds from 0 to 3600, got "2""#,
                "retries: expected a number of retries from 0 to 10, got 11",
                "viewport.width: expected a number of pixels from 1 to 16384, got 0",
                "viewport.height: expected a number of pixels from 1 to 16384, got 2.5"
            ])
        let job = try load(#"{"url": "example.com", "script": "1", "timeout": 2.5, "retries": 0, "viewport": {"width": 800, "height": 600}}"#).get().jobs[0].job
        #expect(job.timeout == .milliseconds(2500))
        #expect(job.retry.retries == 0)
        #expect(job.page.viewport == .init(width: 800, height: 600))
    }

    /// A field's option is read by the field's own reader: the same checks and messages as its config value,
    /// numbers only as JSON writes them, and nothing turned into JSON on the way.
    @Test func optionsAreReadByTheirFieldsReaders() throws {
        let here = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        func optionProblems<Draft>(_ field: String, in table: [ConfigField<Draft>], _ values: [String], into draft: Draft) -> [String] {
            var draft = draft
            guard let field = table.first(where: { $0.key == field }) else { return ["no field \(field)"] }
            return field.readOption(values, into: &draft, directory: here).map { "\($0.path): \($0.message)" }
        }
        let job = JobDraft()
        #expect(optionProblems("timeout", in: JobFields.all, ["abc"], into: job) == [#"--timeout: expected a number of seconds from 0.1 to 86400, got "abc""#])
        #expect(
            try problems(#"{"url": "https://example.com", "script": "1", "timeout": "abc"}"#)
                == [#"timeout: expected a number of seconds from 0.1 to 86400, got "abc""#])
        for notANumber in ["0x3", "inf", " 5", "5 ", "1.", "+1", "05"] {
            #expect(optionProblems("retries", in: JobFields.all, [notANumber], into: job).count == 1, "\(notANumber)")
        }
        #expect(optionProblems("retries", in: JobFields.all, ["1e1"], into: job).isEmpty)
        #expect(optionProblems("retries", in: JobFields.all, ["11"], into: job) == ["--retries: expected a number of retries from 0 to 10, got 11"])
        #expect(optionProblems("headers", in: JobFields.all, ["A: 1", "a: 2"], into: job) == ["--header.a: header given twice"])
        #expect(
            optionProblems("concurrency", in: RunFields.all, ["0"], into: RunSettings()) == ["--concurrency: expected a number of pages from 1 to 64, got 0"])
        var run = RunSettings()
        #expect(RunFields.all[0].readOption(["3"], into: &run, directory: here).isEmpty && run.concurrency == 3)
        var session = SessionSettings()
        #expect(SessionFields.all.first { $0.key == "proxy" }!.readOption(["socks5://127.0.0.1:1080"], into: &session, directory: here).isEmpty)
        #expect(session.proxy?.url.absoluteString == "socks5://127.0.0.1:1080")
    }

    /// A job of several pages becomes one job per page, named after it; a range counts, keeping zeros.
    @Test func urlsAndRangesExpandIntoJobs() throws {
        let range = try load(#"{"name": "chapters", "url": "https://example.com/page/{08..11}/", "script": "1"}"#).get()
        #expect(range.jobs.map(\.name) == ["chapters-08", "chapters-09", "chapters-10", "chapters-11"], "named after their numbers")
        #expect(range.jobs.map(\.job.url.absoluteString) == (8...11).map { String(format: "https://example.com/page/%02d/", $0) })
        #expect(!range.isSingleJob)
        let list = try load(
            #"{"jobs": [{"urls": ["https://a.example/1", "https://a.example/2"], "script": "1"}, {"url": "https://b.example", "script": "2"}]}"#
        ).get()
        #expect(list.jobs.map(\.name) == ["a.example-1", "a.example-2", "b.example"])
        let fromDefaults = try load(
            #"{"defaults": {"urls": ["https://a.example/1", "https://a.example/2"]}, "jobs": [{"url": "https://c.example", "script": "1"}]}"#
        ).get()
        #expect(fromDefaults.jobs.map(\.name) == ["c.example"], "a job's own url replaces the urls of defaults")
        #expect(try problems(#"{"url": "https://a.example", "urls": ["https://b.example"], "script": "1"}"#) == ["urls: give url or urls, not both"])
        #expect(try problems(#"{"urls": [], "script": "1"}"#) == ["urls: expected a non-empty array of URLs, got an array"])
        #expect(try problems(#"{"url": "https://a.example/{1..5000}", "script": "1"}"#) == ["url: the range {1..5000} makes more than 1000 pages"])
        #expect(
            try problems(#"{"url": "https://a.example/{0..9223372036854775807}", "script": "1"}"#)
                == ["url: the range {0..9223372036854775807} makes more than 1000 pages"])
        #expect(
            try problems(
                #"{"jobs": [{"name": "a", "urls": ["https://a.example/1", "https://a.example/2"], "script": "1"}, {"name": "a-2", "url": "https://a.example", "script": "1"}]}"#
            )
                == [#"jobs: two jobs are named "a-2" (a job of several pages is named NAME-1, NAME-2…)"#])
    }

    @Test func everyProblemIsReportedWithItsPlace() throws {
        let text = """
            {"jobs": [
              {"name": "a", "url": "example.com", "scirpt": "1"},
              {"name": "a", "url": "example.org", "script": ""},
              "not a job"
            ], "extra": 1}
            """
        guard case .failure(let error) = try load(text) else {
            Issue.record("expected problems")
            return
        }
        let lines = error.description.split(separator: "\n").map { String($0.split(separator: "/").last ?? "") }
        #expect(
            lines.contains(
                #"config.json:5:13: extra: unknown key; expected one of jobs, defaults, $schema, concurrency, recycleAfter, memoryLimit, pagesPerProcess, harContent, session, cookies, proxy"#
            ))
        #expect(lines.contains(#"config.json:2:49: jobs[0].scirpt: unknown key; did you mean "script"?"#))
        #expect(lines.contains("config.json:2:3: jobs[0].script: required (or scriptFile); the JavaScript that returns the data"))
        #expect(lines.contains(#"config.json:3:49: jobs[1].script: expected a non-empty string, got """#))
        #expect(lines.contains(#"config.json:3:12: jobs[1].name: duplicate job name "a" (also jobs[0])"#))
        #expect(lines.contains("config.json:4:3: jobs[2]: expected a job object, got a string"))
    }

    @Test func unnamedJobsGetDistinctReadableNames() throws {
        let config = try load(
            #"{"jobs": [{"url": "example.com/a", "script": "1"}, {"url": "example.com/b", "script": "1"}, {"url": "site/index.html", "script": "1"}]}"#
        ).get()
        #expect(config.jobs.map(\.name) == ["example.com", "example.com-2", "index"])
        #expect(!config.isSingleJob)
    }

    /// Thousands of jobs of one host, some named like the generated names: every name is distinct and the
    /// generated ones count up past the taken ones. (Naming and problem reporting are linear: 20,000 unnamed or
    /// invalid jobs validate in about a second; they took 43 and 69 s when each step searched all before it.)
    @Test func manyUnnamedJobsOfOneHostGetDistinctNamesAndEveryProblemOnce() throws {
        let jobs = (1...5000).map { index in
            index == 3 ? #"{"name": "example.com-4", "url": "example.com/taken", "script": "1"}"# : #"{"url": "example.com/\#(index)", "script": "1"}"#
        }
        let config = try load(#"{"jobs": [\#(jobs.joined(separator: ","))]}"#).get()
        let names = config.jobs.map(\.name)
        #expect(Set(names).count == 5000)
        #expect(Array(names.prefix(5)) == ["example.com", "example.com-2", "example.com-4", "example.com-3", "example.com-5"])
        #expect(names.last == "example.com-5000")

        let invalid = (1...5000).map { #"{"url": "example.com/\#($0)", "script": "1", "timeout": -1}"# }
        let problems = try problems(#"{"jobs": [\#(invalid.joined(separator: ","))]}"#)
        #expect(problems.count == 5000)
        #expect(problems.last == "jobs[4999].timeout: expected a number of seconds from 0.1 to 86400, got -1")
    }

    @Test func theFileItselfMustBeAJSONObject() throws {
        #expect(try problems("") == [#"is empty; a config is a JSON object such as {"url": "…", "script": "…"}"#])
        #expect(try problems("[]") == [#"expected a JSON object (one job, or {"jobs": […]}), got an array"#])
        #expect(try problems(#""https://example.com""#) == [#"expected a JSON object (one job, or {"jobs": […]}), got a string"#])
        #expect(try problems(#"{"jobs": []}"#) == ["jobs: expected a non-empty array of jobs, got an array"])
    }

    @Test func syntaxErrorsNameLineAndColumn() throws {
        func syntax(_ text: String) throws -> String? {
            guard case .failure(let error) = try load(text), let problem = error.problems.first else { return nil }
            return "\(problem.line ?? 0):\(problem.column ?? 0) \(problem.message)"
        }
        #expect(try syntax("{\"url\": 'x'}") == "1:9 invalid JSON: unexpected single quote (JSON strings use double quotes); a value was expected")
        #expect(try syntax("{\n  \"url\": \"x\",\n}") == "3:1 invalid JSON: trailing comma before '}'")
        #expect(try syntax("{\"a\": 1, \"a\": 2}") == "1:10 invalid JSON: duplicate key \"a\"")
        #expect(try syntax("{\"a\": \"\\u+041\"}") == "1:10 invalid JSON: \\u must be followed by four hex digits")
        #expect(try syntax("// comment\n{}") == "1:1 invalid JSON: unexpected '/' (JSON has no comments); a value was expected")
        #expect(try syntax("{\"é\": [1,]}") == "1:10 invalid JSON: trailing comma before ']'")
        #expect(try syntax("{\"a\": 01}") == "1:7 invalid JSON: numbers cannot start with 0")
    }

    @Test func unreadableFilesAreNamed() throws {
        let missing = Result { () throws(ConfigError) in try ConfigLoader.load(path: "/nonexistent/c.json") }
        #expect(throws: ConfigError.self) { try missing.get() }
        let folder = Result { () throws(ConfigError) in try ConfigLoader.load(path: FileManager.default.temporaryDirectory.path) }
        guard case .failure(let error) = folder else {
            Issue.record("a folder loaded as a config")
            return
        }
        #expect(error.problems.map(\.message) == ["is a directory, not a config file"])
    }
}

/// Configs with thousands of mistakes: each is found in time linear in the config, and the report is capped.
@Suite struct ManyProblemsTests {
    func load(_ object: Any) throws -> ConfigError? {
        let file = FileManager.default.temporaryDirectory.appending(path: "webparse-many-\(UUID().uuidString).json")
        try JSONSerialization.data(withJSONObject: object).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        do throws(ConfigError) { _ = try ConfigLoader.load(path: file.path); return nil } catch { return error }
    }

    /// 20,000 jobs, each waiting for a job that does not exist, each with a mistyped key, and all in one circle
    /// of waits: every problem is found (a near miss among 20,000 names is sought for the shown ones only), the
    /// circle is said once, and the report shows 100 problems and counts the rest.
    @Test func twentyThousandBadJobsAreReportedAtOnceAndCapped() throws {
        let count = 20_000
        let jobs = (0..<count).map { index -> [String: Any] in
            [
                "name": "j\(index)", "url": "https://example.com/\(index)", "script": "1", "timout": 5,
                "after": ["j\((index + 1) % count)", "missing\(index)"]
            ]
        }
        let error = try #require(try load(["jobs": jobs]))
        #expect(error.problems.count == 2 * count + 1)
        #expect(error.problems.filter { $0.message.hasPrefix("jobs wait for each other: j0 → j1 → j2 → ") }.count == 1)
        let lines = error.description.split(separator: "\n")
        #expect(lines.count == ConfigError.shownProblems + 1)
        #expect(lines.last == "… and 39,901 more problems")
        #expect(lines.contains { $0.hasSuffix(#"jobs[0].timout: unknown key; did you mean "timeout"?"#) }, "\(lines.prefix(3))")
    }

    /// Each circle of waits is said once, at its first job, as the shortest way round; a job waiting for itself
    /// is a circle too.
    @Test func circlesOfWaitsAreSaidOnceEach() throws {
        let circles = JobCircles([[1], [2], [0], [3], [5], [4, 6], []]).circles
        #expect(circles == [[0, 1, 2], [3], [4, 5]])
        #expect(JobCircles([[1], [2], []]).circles.isEmpty)
        let chain = JobCircles((0..<100_000).map { $0 == 0 ? [] : [$0 - 1] })
        #expect(chain.circles.isEmpty, "a long chain has no circle, and does not overflow the stack")
    }

    @Test func nearMissesAreTheClosestNameWithinAThird() {
        #expect(Spelling.nearest(to: "timout", among: ["script", "timeout", "retries"]) == "timeout")
        #expect(Spelling.nearest(to: "TIMEOUT", among: ["timeout"]) == "timeout")
        #expect(Spelling.nearest(to: "waitFr", among: ["wait", "waitFor", "waitForSelector"]) == "waitFor")
        #expect(Spelling.nearest(to: "colour", among: ["block", "cookies"]) == nil)
        #expect(Spelling.nearest(to: "ab", among: ["ac", "ad"]) == "ac", "the first of equally close names")
    }
}
