import Foundation
import TestSupport
import Testing

/// `--har FILE` on `run` and `eval`: a HAR 1.2 file of every page's requests, checked against the format's
/// structure by Debian's python3-jsonschema and read back the way HAR readers read it.
@Suite struct HARCommandTests: CommandLineTest {
    /// HAR 1.2's required structure (http://www.softwareishard.com/blog/har-12-spec/), as a JSON Schema.
    static let harSchema = #"""
        {"type": "object", "required": ["log"], "properties": {"log": {
          "type": "object", "required": ["version", "creator", "entries"],
          "properties": {
            "version": {"const": "1.2"},
            "creator": {"type": "object", "required": ["name", "version"]},
            "pages": {"type": "array", "items": {"type": "object", "required": ["startedDateTime", "id", "title", "pageTimings"]}},
            "entries": {"type": "array", "items": {"type": "object",
              "required": ["startedDateTime", "time", "request", "response", "cache", "timings"],
              "properties": {
                "startedDateTime": {"type": "string", "pattern": "^\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d(\\.\\d+)?(Z|[+-]\\d\\d:\\d\\d)$"},
                "time": {"type": "number", "minimum": 0},
                "request": {"type": "object", "required": ["method", "url", "httpVersion", "cookies", "headers", "queryString", "headersSize", "bodySize"],
                  "properties": {"headers": {"type": "array", "items": {"type": "object", "required": ["name", "value"]}},
                                 "queryString": {"type": "array", "items": {"type": "object", "required": ["name", "value"]}}}},
                "response": {"type": "object", "required": ["status", "statusText", "httpVersion", "cookies", "headers", "content", "redirectURL", "headersSize", "bodySize"],
                  "properties": {"status": {"type": "integer"},
                                 "content": {"type": "object", "required": ["size", "mimeType"],
                                             "properties": {"size": {"type": "integer"}, "text": {"type": "string"}, "encoding": {"type": "string"}}}}},
                "cache": {"type": "object"},
                "timings": {"type": "object", "required": ["send", "wait", "receive"],
                  "properties": {"send": {"type": "number", "minimum": -1}, "wait": {"type": "number", "minimum": -1}, "receive": {"type": "number", "minimum": -1}}}
              }}}
          }}}}
        """#

    /// The HAR file at `path`, checked against `harSchema`, as (pageref, method, URL, status, text or nil) rows.
    func readHAR(_ path: String) async throws -> [[String]] {
        let check = """
            import json, sys, base64, jsonschema
            schema = json.loads(sys.argv[1])
            har = json.load(open(sys.argv[2]))
            jsonschema.Draft202012Validator(schema).validate(har)
            pages = {page["id"] for page in har["log"]["pages"]}
            rows = []
            for entry in har["log"]["entries"]:
                assert entry["pageref"] in pages, entry["pageref"]
                content = entry["response"]["content"]
                text = content.get("text")
                if text is not None and content.get("encoding") == "base64":
                    text = "base64:" + base64.b64decode(text).hex()
                rows.append([entry["pageref"], entry["request"]["method"], entry["request"]["url"], str(entry["response"]["status"]), text or ""])
            print(json.dumps(rows))
            """
        let python = try await ProcessRunner(path: "/usr/bin/python3").run(["-c", check, Self.harSchema, path])
        #expect(python.status == 0, "the HAR file does not hold HAR 1.2's structure: \(python.stderr)")
        return try JSONDecoder().decode([[String]].self, from: python.stdout)
    }

    func site() throws -> TestHTTPServer {
        try TestHTTPServer(routes: [
            "/": .respond(
                body: """
                    <p id="out"></p><script>
                    fetch("/api/chapters?page=1").then(r => r.text()).then(t => { out.textContent = t; });
                    const xhr = new XMLHttpRequest(); xhr.open("POST", "/api/bytes"); xhr.responseType = "arraybuffer"; xhr.send("x");
                    </script>
                    """),
            "/api/chapters?page=1": .respond(contentType: "application/json", body: #"[{"chapter": 12}]"#),
            "/api/bytes": .bytes(contentType: "application/octet-stream", headers: [:], body: [0, 0xFF, 7]),
            "/missing": .respond(status: 404, body: "gone")
        ])
    }

    /// A run of two jobs, one capturing and one failing, writes one HAR file with a page per job and an entry per
    /// request; the captured bodies are in it (bytes as base64), the failing job's page too (a page that fails at
    /// its HTTP status ends before WebKit reports its document's load: it has no entry).
    @Test func aRunWritesEveryPagesRequestsAsHAR() async throws {
        let server = try site()
        let directory = try folder()
        let config = try write(
            #"""
            {"jobs": [
              {"name": "chapters", "url": "\#(server.url("/"))", "capture": {"url": "/api/"}, "script": "out.textContent || null", "retries": 0},
              {"name": "gone", "url": "\#(server.url("/missing"))", "script": "1", "retries": 0}
            ]}
            """#, "config.json", in: directory)
        let har = directory.appending(path: "run.har").path
        let run = try await webparse.run(["run", config, "--har", har], environment: headless)
        #expect(run.status == 1, "one job fails: \(run.stderr)")
        #expect(run.stdoutText.contains("chapters"))
        let rows = try await readHAR(har)
        let base = server.url("/").absoluteString
        #expect(rows.contains { $0[0] == "chapters" && $0[2] == base && $0[4].contains("fetch(\"/api/chapters?page=1\")") }, "the document's body")
        #expect(rows.contains(["chapters", "GET", base + "api/chapters?page=1", "200", #"[{"chapter": 12}]"#]))
        #expect(rows.contains(["chapters", "POST", base + "api/bytes", "200", "base64:00ff07"]))
        let data = try Data(contentsOf: URL(fileURLWithPath: har))
        let log = try #require((try JSONSerialization.jsonObject(with: data) as? [String: Any])?["log"] as? [String: Any])
        let pages = try #require(log["pages"] as? [[String: Any]])
        #expect(pages.map { $0["id"] as? String } == ["chapters", "gone"], "a failed job's page is in the file too")
        let entries = try #require(log["entries"] as? [[String: Any]])
        let fetch = try #require(entries.first { ($0["request"] as? [String: Any])?["url"] as? String == base + "api/chapters?page=1" })
        let query = (fetch["request"] as? [String: Any])?["queryString"] as? [[String: String]]
        #expect(query == [["name": "page", "value": "1"]])
        #expect((fetch["_kind"] as? String) == "fetch")
        let mode = try FileManager.default.attributesOfItem(atPath: har)[.posixPermissions] as? Int
        #expect(mode == 0o600, "readable by the user only: it holds cookies and what steps typed")
    }

    /// A page with a dedicated and a shared worker that each fetch their data: the dedicated worker's request is the
    /// page's and is in the file; WebKit runs a shared worker apart from any page and reports its requests to none, so
    /// the entry of its script says that its requests are not there.
    @Test func theScriptsOfWorkersWhoseRequestsAreNotRecordedSaySo() async throws {
        let server = try CaptureTests.workerSite()
        let har = try folder().appending(path: "workers.har").path
        let eval = try await webparse.run(
            ["eval", server.url("/").absoluteString, CaptureTests.allWorkersAnswered, "--har", har, "--timeout", "20"], environment: headless)
        #expect(eval.status == 0, "\(eval.stderr)")
        #expect(eval.stdoutText.contains("dedicated") && eval.stdoutText.contains("shared"), "\(eval.stdoutText)")
        let rows = try await readHAR(har)
        #expect(rows.contains { $0[2] == server.url("/api/dedicated.json").absoluteString }, "\(rows)")
        let data = try Data(contentsOf: URL(fileURLWithPath: har))
        let entries = try #require(((try JSONSerialization.jsonObject(with: data) as? [String: Any])?["log"] as? [String: Any])?["entries"] as? [[String: Any]])
        let comments = Dictionary(
            entries.map { (URL(string: ($0["request"] as? [String: Any])?["url"] as? String ?? "")?.path ?? "", $0["comment"] as? String) },
            uniquingKeysWith: { first, _ in first })
        #expect(comments["/shared.js"]??.contains("the script of a shared worker") == true, "\(comments)")
        #expect(comments["/shared.js"]??.contains("not recorded") == true)
        #expect(comments["/service.js"] == nil, "no service worker")
        #expect(comments["/dedicated.js"] == .some(nil), "a dedicated worker's requests are recorded")
    }

    /// webparse runs without its extension; a capturing job then fails (exit 1) saying where it looked, and a job
    /// that does not capture runs as always.
    @Test func withoutTheExtensionOnlyACapturingJobFails() async throws {
        let server = try site()
        let directory = try folder()
        let alone = directory.appending(path: "webparse")
        try FileManager.default.copyItem(at: webparse.executable, to: alone)
        let binary = ProcessRunner(path: alone.path)
        let capturing = try await binary.run(
            ["eval", server.url("/").absoluteString, "--capture", "api", "--collect", "responses", "--retries", "0"], environment: headless)
        #expect(capturing.status == 1)
        #expect(capturing.stderr.contains("libwebparse-extension.so") && capturing.stderr.contains(directory.path), "\(capturing.stderr)")
        let plain = try await binary.run(["eval", server.url("/").absoluteString, "out.textContent || null"], environment: headless)
        #expect(plain.status == 0 && plain.stdoutText == #""[{\"chapter\": 12}]""# + "\n", "\(plain.stderr)")
    }

    /// `eval --har` writes its page's requests whether the job succeeds or times out; a HAR file in a folder that
    /// does not exist is refused before any page loads.
    @Test func evalWritesHARAndRefusesABadPlace() async throws {
        let server = try site()
        let directory = try folder()
        let har = directory.appending(path: "eval.har").path
        let timedOut = try await webparse.run(
            ["eval", server.url("/").absoluteString, "document.querySelector('#never')", "--timeout", "1", "--retries", "0", "--har", har],
            environment: headless)
        #expect(timedOut.status == 1)
        let rows = try await readHAR(har)
        #expect(rows.contains { $0[0] == "eval" && $0[2] == server.url("/").absoluteString && $0[3] == "200" })
        #expect(rows.contains { $0[2].hasSuffix("/api/chapters?page=1") && $0[4] == #"[{"chapter": 12}]"# }, "bodies by default: \(rows)")
        let refused = try await webparse.run(["eval", server.url("/").absoluteString, "--har", "/nonexistent/x.har"], environment: headless)
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("--har"))
    }
}
