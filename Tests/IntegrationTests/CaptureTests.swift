import Foundation
import TestSupport
import Testing
@testable import WebParser

/// Capture on real WebKitGTK pages: the responses a page's scripts read through fetch and XMLHttpRequest, written
/// the way sites write them (jQuery, each `responseType`, POST, a 404, gzip, an iframe), recorded by webparse's
/// web process extension with their bodies; and pages that try to forge records or flood them.
@Suite(.serialized) struct CaptureTests {
    static let runner = WebParserRunner(session: WebParserSession(configuration: .init(capturesResponses: true)))

    func job(_ url: URL, _ capture: WebParserJob.Capture, script: String = "", timeout: Duration = .seconds(20)) -> WebParserJob {
        var evaluation = Evaluation(script: script, pollInterval: .milliseconds(20), collect: .responses)
        evaluation.settle = .milliseconds(200)
        var job = WebParserJob(url: url, evaluation: evaluation, timeout: timeout, retry: RetryPolicy(retries: 0))
        job.capture = capture
        return job
    }

    /// The records of a `collect: responses` result, by URL path.
    func records(_ data: Data) throws -> [String: [String: Any]] {
        let list = try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
        return Dictionary(list.map { (URL(string: $0["url"] as! String)!.path, $0) }, uniquingKeysWith: { first, _ in first })
    }

    static func gzip(_ text: String) async throws -> [UInt8] {
        [UInt8](try await ProcessRunner(path: "/bin/gzip").start(["-c"], input: Data(text.utf8)).finish().stdout)
    }

    /// A catalogue page that reads its data every way a site does; the job's script waits until the page says
    /// it has all of it, and the records are the result.
    @Test func everyWayAPageReadsDataIsRecordedWithItsBody() async throws {
        let page = """
            <!doctype html><html><head><script src="/jquery.js"></script></head><body><p id="out"></p>
            <iframe src="/frame"></iframe>
            <script>
            const done = [];
            window.mark = (what) => { done.push(what); if (done.length === 13) document.title = "done"; };
            $.get("/api/jquery.json", () => mark("jquery"));
            $.post("/api/post", { chapter: 12 }, () => mark("post"));
            fetch("/api/missing").then(r => r.text()).then(() => mark("404"));
            fetch("/api/gzip").then(r => r.json()).then(() => mark("gzip"));
            fetch("/api/bytes").then(r => r.arrayBuffer()).then(() => mark("fetch bytes"));
            for (const type of ["", "text", "json", "arraybuffer", "blob", "document"]) {
              const xhr = new XMLHttpRequest();
              xhr.open("GET", "/api/type-" + (type || "default"));
              xhr.responseType = type;
              xhr.onload = () => mark(type);
              xhr.send();
            }
            new Worker("/worker.js");
            window.chapters = (list) => mark("jsonp " + list.length);
            </script><script src="/api/jsonp.js"></script></body></html>
            """
        let server = try TestHTTPServer(routes: [
            "/": .respond(body: page),
            "/jquery.js": .respond(contentType: "application/javascript", body: StepTests.jQuery),
            "/frame": .respond(body: "<script>fetch('/api/frame.json').then(r => r.json()).then(d => parent.mark(d.in));</script>"),
            "/worker.js": .respond(contentType: "application/javascript", body: "fetch('/api/worker.json');"),
            "/api/jquery.json": .respond(contentType: "application/json", body: #"{"from": "jquery", "list": [1, 2]}"#),
            "/api/post": .handle { request in .init(headers: ["Content-Type": "application/json"], body: #"{"posted": "\#(request.body)"}"#) },
            "/api/gzip": .bytes(contentType: "application/json", headers: ["Content-Encoding": "gzip"], body: try await Self.gzip(#"{"zipped": "é"}"#)),
            "/api/bytes": .bytes(contentType: "application/octet-stream", headers: [:], body: [0, 1, 2, 0xFF, 0xFE]),
            "/api/type-default": .respond(contentType: "text/plain", body: "plain"),
            "/api/type-text": .respond(contentType: "text/plain", body: "text é"),
            "/api/type-json": .respond(contentType: "application/json", body: #"{"type": "json"}"#),
            "/api/type-arraybuffer": .bytes(contentType: "application/octet-stream", headers: [:], body: [9, 8, 7, 0xFF]),
            "/api/type-blob": .bytes(contentType: "image/x-test", headers: [:], body: [0xFF, 0xD8, 0xFF]),
            "/api/type-document": .respond(contentType: "text/html", body: "<p>document</p>"),
            "/api/frame.json": .respond(contentType: "application/json", body: #"{"in": "frame"}"#),
            "/api/worker.json": .respond(contentType: "application/json", body: #"{"in": "worker"}"#),
            "/api/jsonp.js": .respond(contentType: "application/javascript", body: "chapters([12, 13]);")
        ])
        let capture = WebParserJob.Capture(rules: [
            .init(url: "/api/(jquery|gzip|frame|type-json)", body: .json),
            .init(url: "/api/(bytes|type-arraybuffer|type-blob)", body: .base64),
            .init(url: "/api/")
        ])
        let result = try await Self.runner.run(job(server.url("/"), capture, script: "document.title === 'done' || null"))
        #expect(result.isComplete, "\(result.cutShort ?? "")")
        let records = try self.records(result.data)

        let jquery = try #require(records["/api/jquery.json"])
        #expect(jquery["kind"] as? String == "xhr" && jquery["method"] as? String == "GET" && jquery["status"] as? Int == 200)
        #expect((jquery["body"] as? [String: Any])?["from"] as? String == "jquery")
        #expect(jquery["mimeType"] as? String == "application/json" && jquery["frame"] as? String == "main")
        #expect(records["/api/post"]?["method"] as? String == "POST")
        #expect(records["/api/post"]?["body"] as? String == #"{"posted": "chapter=12"}"#)
        #expect(records["/api/missing"]?["status"] as? Int == 404 && records["/api/missing"]?["kind"] as? String == "fetch")
        #expect((records["/api/gzip"]?["body"] as? [String: Any])?["zipped"] as? String == "é")
        #expect(records["/api/gzip"]?["exact"] as? Bool == true)
        // Bytes are exact where the page has them as bytes (XHR arraybuffer and blob); fetch gives text.
        #expect(records["/api/type-arraybuffer"]?["body"] as? String == Data([9, 8, 7, 0xFF]).base64EncodedString())
        #expect(records["/api/type-arraybuffer"]?["exact"] as? Bool == true)
        #expect(records["/api/type-blob"]?["body"] as? String == Data([0xFF, 0xD8, 0xFF]).base64EncodedString())
        #expect(records["/api/bytes"]?["exact"] as? Bool == false, "a fetch body that is not UTF-8 is not exact")
        #expect(records["/api/type-default"]?["body"] as? String == "plain")
        #expect(records["/api/type-text"]?["body"] as? String == "text é")
        #expect(records["/api/type-text"]?["exact"] as? Bool == false)
        #expect(records["/api/type-json"]?["body"] as? [String: String] == ["type": "json"])
        #expect((records["/api/type-document"]?["body"] as? String)?.contains("<p>document</p>") == true)
        let frame = try #require(records["/api/frame.json"])
        #expect(frame["frame"] as? String == "iframe")
        // JSONP, a <script>, comes as WebKit loaded it; a worker's request is recorded without its body, saying why.
        #expect(records["/api/jsonp.js"]?["kind"] as? String == "script" && records["/api/jsonp.js"]?["body"] as? String == "chapters([12, 13]);")
        #expect(records["/api/jsonp.js"]?["exact"] as? Bool == true)
        let worker = try #require(records["/api/worker.json"])
        #expect(worker["kind"] as? String == "other" && worker["body"] == nil)
        #expect((worker["omitted"] as? String)?.contains("worker") == true)
        #expect(records.count == 14, "each script's read once, though WebKit reports its load too")
    }

    /// A page with a dedicated and a shared worker, each of which fetches its data and hands it to the page, and
    /// which would register a service worker if it could (pages have none).
    static func workerSite() throws -> TestHTTPServer {
        try TestHTTPServer(routes: [
            "/": .respond(
                body: """
                    <!doctype html><p id="out"></p><script>
                    const say = (what) => { out.textContent += what + ";"; };
                    new Worker("/dedicated.js").onmessage = (event) => say(event.data);
                    const shared = new SharedWorker("/shared.js");
                    shared.port.onmessage = (event) => say(event.data);
                    shared.port.start();
                    say("service workers: " + ("serviceWorker" in navigator));
                    if ("serviceWorker" in navigator) navigator.serviceWorker.register("/service.js");
                    </script>
                    """),
            "/dedicated.js": .respond(
                contentType: "application/javascript", body: "fetch('/api/dedicated.json').then(r => r.json()).then(d => postMessage(d.from));"),
            "/shared.js": .respond(
                contentType: "application/javascript",
                body: "onconnect = (e) => { const port = e.ports[0]; fetch('/api/shared.json').then(r => r.json()).then(d => port.postMessage(d.from)); };"),
            "/service.js": .respond(
                contentType: "application/javascript",
                body: "onmessage = (e) => fetch('/api/service.json').then(r => r.json()).then(d => e.source.postMessage(d.from));"),
            "/api/dedicated.json": .respond(contentType: "application/json", body: #"{"from": "dedicated"}"#),
            "/api/shared.json": .respond(contentType: "application/json", body: #"{"from": "shared"}"#),
            "/api/service.json": .respond(contentType: "application/json", body: #"{"from": "service"}"#)
        ])
    }

    /// The script that waits for the two workers of `workerSite` to answer.
    static let allWorkersAnswered = "out.textContent.split(';').length > 3 ? out.textContent : null"

    /// A dedicated worker's request is recorded without its body (WebKit keeps none); a shared worker's are not
    /// recorded at all (WebKit reports them to no page), and the record of its script says so. No service worker is
    /// registered.
    @Test func workersRequestsAreRecordedOrTheirScriptsSaySo() async throws {
        let server = try Self.workerSite()
        var job = job(server.url("/"), WebParserJob.Capture(rules: [.init(url: "/")]), script: Self.allWorkersAnswered)
        job.evaluation.settle = .milliseconds(200)
        let records = try self.records(try await Self.runner.run(job).data)
        #expect(records["/api/dedicated.json"]?["kind"] as? String == "other", "\(records.keys.sorted())")
        #expect(records["/api/shared.json"] == nil && records["/service.js"] == nil)
        #expect((records["/shared.js"]?["unrecordedRequests"] as? String)?.contains("shared worker") == true, "\(records["/shared.js"] ?? [:])")
        #expect(records["/dedicated.js"]?["unrecordedRequests"] == nil)
    }

    /// A page that replaces every built-in the hook could use after it started and calls the functions it can
    /// reach with forged arguments; one that answers fetch's own promise with a Response it made; one whose
    /// promises never settle once its requests are out: no record is forged, and the real responses are recorded
    /// as they were.
    @Test func aHostilePageForgesNoRecord() async throws {
        let hostile = """
            <!doctype html><p id="out"></p><script>
            const pageFetch = window.fetch;
            Function.prototype.call = Function.prototype.apply = Function.prototype.bind = function () { return "forged"; };
            Reflect.apply = () => "forged";
            Object.defineProperty(Response.prototype, "url", { get: () => "http://forged.example/" });
            Object.defineProperty(Response.prototype, "status", { get: () => 299 });
            Object.defineProperty(Response.prototype, "type", { get: () => "basic" });
            Object.defineProperty(XMLHttpRequest.prototype, "responseText", { get: () => "forged" });
            Object.defineProperty(XMLHttpRequest.prototype, "readyState", { get: () => 4 });
            Response.prototype.text = Response.prototype.clone = async () => "forged";
            String.prototype.toUpperCase = () => "FORGED";
            pageFetch("/api/real").then(r => r.arrayBuffer()).then(b => { out.textContent = new TextDecoder().decode(b); });
            const xhr = new XMLHttpRequest(); xhr.open("get", "/api/xhr"); xhr.send();
            window.fetch(Symbol("forged"));
            const fake = new XMLHttpRequest(); fake.open("GET", "/api/never"); fake.dispatchEvent(new Event("loadend"));
            </script>
            """
        let thenable = """
            <!doctype html><p id="out"></p><script>
            Response.prototype.then = function (resolve) { delete Response.prototype.then; resolve(new Response("forged", { status: 299 })); };
            fetch("/api/real").then(r => r.text()).then(t => { out.textContent = t; });
            const xhr = new XMLHttpRequest(); xhr.open("GET", "/api/xhr"); xhr.send();
            </script>
            """
        let promises = """
            <!doctype html><p id="out"></p><script>
            fetch("/api/real").then(r => r.text()).then(t => { Promise.prototype.then = function () { return this; }; });
            </script>
            """
        let server = try TestHTTPServer(routes: [
            "/": .respond(body: hostile), "/thenable": .respond(body: thenable), "/promises": .respond(body: promises),
            "/api/real": .respond(contentType: "text/plain", body: "real body"),
            "/api/xhr": .respond(contentType: "text/plain", body: "xhr body"),
            "/api/never": .hang
        ])
        let capture = WebParserJob.Capture(rules: [.init(url: ".", kinds: [.fetch, .xhr])])
        let result = try await Self.runner.run(job(server.url("/"), capture, script: "out.textContent || null"))
        let list = try #require(try JSONSerialization.jsonObject(with: result.data) as? [[String: Any]])
        #expect(list.count == 2, "\(String(decoding: result.data, as: UTF8.self))")
        let records = try self.records(result.data)
        #expect(records["/api/real"]?["body"] as? String == "real body" && records["/api/real"]?["status"] as? Int == 200)
        #expect(records["/api/xhr"]?["body"] as? String == "xhr body" && records["/api/xhr"]?["method"] as? String == "GET")
        #expect(!String(decoding: result.data, as: UTF8.self).contains("orged"))

        let answered = try await Self.runner.run(job(server.url("/thenable"), capture, script: "out.textContent || null", timeout: .seconds(5)))
        #expect(!String(decoding: answered.data, as: UTF8.self).contains("299"))
        #expect(!String(decoding: answered.data, as: UTF8.self).contains("forged"))

        // A page that breaks every promise's `then` once its request is out: webparse's own code awaits no thenable,
        // so the page still settles, and the record is the real one.
        let stalled = try await Self.runner.run(job(server.url("/promises"), capture, timeout: .seconds(5)))
        let stalledRecords = try self.records(stalled.data)
        #expect(stalledRecords["/api/real"]?["body"] as? String == "real body")
    }

    /// Bodies over the body limit, and any after the total limit, are recorded without them, with their size
    /// and why; a page that floods requests keeps the records within the total.
    @Test func theLimitsHoldAgainstLargeBodiesAndFloods() async throws {
        let big = String(repeating: "x", count: 300_000)
        let server = try TestHTTPServer(routes: [
            "/": .respond(
                body: """
                    <p id="out"></p><script>
                    fetch("/api/big").then(r => r.text()).then(() =>
                      Promise.all(Array.from({ length: 60 }, (_, i) => fetch("/api/item/" + i).then(r => r.text()))))
                      .then(() => { out.textContent = "done"; });
                    </script>
                    """),
            "/api/big": .respond(contentType: "text/plain", body: big + "more"),
            "*": .respond(contentType: "text/plain", body: String(repeating: "y", count: 100_000))
        ])
        let capture = WebParserJob.Capture(rules: [.init(url: "/api/")], bodyLimit: 300_000, totalLimit: 1_000_000)
        let result = try await Self.runner.run(job(server.url("/"), capture, script: "out.textContent || null"))
        let list = try #require(try JSONSerialization.jsonObject(with: result.data) as? [[String: Any]])
        #expect(list.count == 61)
        let large = try #require(list.first { ($0["url"] as? String)?.hasSuffix("/api/big") == true })
        #expect(large["body"] == nil && large["size"] as? Int == 300_004)
        #expect((large["omitted"] as? String)?.contains("larger than the limit of 300000 bytes") == true)
        let kept = list.compactMap { $0["body"] as? String }
        #expect(kept.count == 10, "a million bytes hold ten bodies of 100,000")
        #expect(list.filter { ($0["omitted"] as? String)?.contains("total limit") == true }.count == 50)
    }

    /// A page WebKit moves to a new web process (a navigation to another site: 127.0.0.1 to localhost) still
    /// captures, with or without `Cross-Origin-Opener-Policy`. A job without `capture` in the same session gets
    /// its own result; a session without `capturesResponses` refuses a capturing job at once.
    @Test func pagesMovedToANewProcessStillCapture() async throws {
        let coop = ["Cross-Origin-Opener-Policy": "same-origin"]
        let app = "<p id=out></p><script>fetch('/api/data').then(r => r.text()).then(t => out.textContent = t)</script>"
        let server = try TestHTTPServer(routes: [
            "/": .respond(headers: coop, body: app),
            "/hop": .respond(body: "<script>location.href = location.href.replace('127.0.0.1', 'localhost').replace('/hop', '/')</script>"),
            "/api/data": .respond(contentType: "application/json", headers: coop, body: #"{"chapter": 12}"#)
        ])
        for path in ["/", "/hop", "/hop"] {
            let result = try await Self.runner.run(job(server.url(path), .init(rules: [.init(url: "/api/", body: .json)]), timeout: .seconds(10)))
            #expect(result.isComplete)
            #expect(try self.records(result.data)["/api/data"]?["body"] as? [String: Int] == ["chapter": 12], "\(path)")
        }
        var plain = WebParserJob(url: server.url("/"), script: "out.textContent || null")
        plain.retry = RetryPolicy(retries: 0)
        #expect(try await Self.runner.run(plain).data == Data(#""{\"chapter\": 12}""#.utf8))

        let refused = await #expect(throws: WebParserError.self) {
            try await WebParserRunner().run(self.job(server.url("/"), .init(rules: [.init(url: "/api/")])))
        }
        #expect(refused?.code == .invalidJob)
    }

    /// A script that is a function of the responses gets them as they are recorded, and its value is the result;
    /// it runs in webparse's own script world (the page's DOM, not its scripts' objects), so the page never sees
    /// the records, even a cross-origin iframe's. A script without a parameter still runs in the page's world.
    @Test func aScriptOfTheResponsesGetsThemAndThePageDoesNot() async throws {
        let server = try TestHTTPServer(routes: [
            "/": .respond(
                body: """
                    <p id=out></p><script>
                    window.appState = "from the page";
                    fetch("/api/a").then(r => r.json()).then(() => fetch("/api/b")).then(r => r.json()).then(() => { out.textContent = "done"; });
                    setInterval(() => {
                      const names = Object.getOwnPropertyNames(window).filter(n => n.startsWith("webparse"));
                      if (names.length) document.title = "seen " + names.join();
                    }, 20);
                    </script>
                    """),
            "/api/a": .respond(contentType: "application/json", body: #"{"chapter": 1}"#),
            "/api/b": .respond(contentType: "application/json", body: #"{"chapter": 2}"#)
        ])
        var job = job(server.url("/"), .init(rules: [.init(url: "/api/", body: .json)]))
        job.evaluation.collect = .result
        job.evaluation.script = """
            (responses) => out.textContent === "done" && responses.length === 2
              ? { chapters: responses.map(r => r.body.chapter), title: document.title, appState: typeof window.appState } : null
            """
        let result = try await Self.runner.run(job)
        #expect(result.data == Data(#"{"chapters":[1,2],"title":"","appState":"undefined"}"#.utf8))

        job.evaluation.script = "window.appState"
        #expect(try await Self.runner.run(job).data == Data(#""from the page""#.utf8))
    }

    /// What has no body is recorded without one, saying why: an opaque (`no-cors`) response of another origin,
    /// `navigator.sendBeacon`, a websocket and an event stream as they open; a body that is not JSON under `"as": "json"` is kept as text with a note.
    @Test func whatHasNoBodyIsRecordedSayingWhy() async throws {
        let other = try TestHTTPServer(routes: ["/opaque": .respond(contentType: "text/plain", body: "hidden")])
        let server = try TestHTTPServer(routes: [
            "/": .respond(
                body: """
                    <p id=out></p><script>
                    navigator.sendBeacon("/api/beacon", "ping");
                    new WebSocket("ws://127.0.0.1:1/socket");
                    new EventSource("/api/events");
                    fetch("\(other.url("/opaque"))", { mode: "no-cors" })
                      .then(() => fetch("/api/html")).then(r => r.text()).then(() => { out.textContent = "done"; });
                    </script>
                    """),
            "/api/beacon": .respond(contentType: "text/plain", body: "beacon answer"),
            "/api/html": .respond(contentType: "text/html", body: "<p>not json</p>"),
            "/api/events": .hang
        ])
        let capture = WebParserJob.Capture(rules: [
            .init(url: "/opaque", kinds: [.fetch]), .init(url: "^ws:|/api/events", kinds: [.other]), .init(url: "/api/", body: .json)
        ])
        let result = try await Self.runner.run(job(server.url("/"), capture, script: "out.textContent || null"))
        let records = try self.records(result.data)
        let opaque = try #require(records["/opaque"])
        #expect(opaque["body"] == nil && (opaque["omitted"] as? String)?.contains("opaque") == true)
        let beacon = try #require(records["/api/beacon"])
        #expect(beacon["body"] == nil && beacon["kind"] as? String == "other" && beacon["omitted"] != nil)
        #expect(records["/api/html"]?["body"] as? String == "<p>not json</p>")
        #expect(records["/api/html"]?["note"] as? String == "the body is not JSON; it is kept as text")
        #expect((records["/socket"]?["omitted"] as? String)?.contains("websocket") == true, "\(records.keys)")
        #expect((records["/api/events"]?["omitted"] as? String)?.contains("event stream") == true)
    }

    /// A job that captures nothing its rules take ends at its timeout saying so; a URL that is not a regular
    /// expression fails at once.
    @Test func nothingCapturedIsATimeOutThatSaysSo() async throws {
        let server = try TestHTTPServer(routes: ["/": .respond(body: "<script>fetch('/other')</script>"), "/other": .respond(body: "x")])
        let error = await #expect(throws: WebParserError.self) {
            try await Self.runner.run(self.job(server.url("/"), .init(rules: [.init(url: "/api/")]), timeout: .seconds(2)))
        }
        #expect(error?.lastAnswer == "no response matched capture yet")
        let invalid = await #expect(throws: WebParserError.self) {
            try await Self.runner.run(self.job(server.url("/"), .init(rules: [.init(url: "(")])))
        }
        #expect(invalid?.code == .invalidJob)
    }
}
