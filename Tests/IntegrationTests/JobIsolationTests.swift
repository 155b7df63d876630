import Foundation
import TestSupport
import Testing
@testable import WebParser

/// Nothing of one job reaches the next on the same runner, channel by channel: the earlier job's settings (user
/// agent, viewport, language, headers, blocking rules, console capture) and what its document left behind (a
/// broadcast channel's messages, the scroll position, a popup, a service worker). Each test runs a job that sets or leaves something,
/// then a job in the tab that replaces it, which must see a fresh tab's state.
@Suite(.serialized) struct JobIsolationTests {
    /// A page that reports what its tab is: the user agent, the viewport, the language, the scroll position,
    /// whether a fetch of `/probe` could be made, and the broadcast messages received while it waited.
    static let report = """
        <!doctype html><title>report</title><body style="height: 5000px"><script>
        const heard = [];
        new BroadcastChannel("jobs").onmessage = (event) => heard.push(event.data);
        window.reported = null;
        fetch("/probe").then(() => true, () => false).then((fetched) => setTimeout(() => {
          window.reported = JSON.stringify({agent: navigator.userAgent, width: innerWidth, language: navigator.language,
            scrolled: scrollY, fetched, heard});
        }, 300));
        </script>
        """

    /// A page that leaves what a later job could see: a broadcast channel that keeps posting, a scroll position, a
    /// console line every 20 ms and a popup.
    static let leaver = """
        <!doctype html><title>leaver</title><body style="height: 5000px"><script>
        console.log("earlier job");
        const channel = new BroadcastChannel("jobs");
        setInterval(() => { channel.postMessage("from the earlier job"); console.log("earlier job"); }, 20);
        scrollTo(0, 1200);
        window.open("/popup");
        window.done = scrollY > 0 ? "left" : null;
        </script>
        """

    let server: TestHTTPServer

    init() throws {
        server = try TestHTTPServer(routes: [
            "/report": .respond(body: Self.report), "/leaver": .respond(body: Self.leaver), "/probe": .respond(body: "{}"),
            "/popup": .respond(body: "<title>popup</title>")
        ])
    }

    func reportJob(page: PageSettings = PageSettings(), load: LoadSettings = LoadSettings()) -> WebParserJob {
        WebParserJob(
            url: server.url("/report"), evaluation: Evaluation(script: "window.reported"), timeout: .seconds(15), retry: RetryPolicy(retries: 0),
            page: page, load: load)
    }

    func report(_ result: WebParserResult) throws -> [String: Any] {
        let text = try #require(try JSONSerialization.jsonObject(with: result.data, options: .fragmentsAllowed) as? String)
        return try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    @Test func anEarlierJobsSettingsDoNotReachTheNext() async throws {
        let parser = WebParserRunner()
        let fresh = try report(try await parser.run(reportJob()))
        let own = PageSettings(userAgent: "EarlierJob/1.0", viewport: Viewport(width: 400, height: 300), languages: ["fr-FR"], blockedURLs: ["/probe"])
        let earlier = try report(try await parser.run(reportJob(page: own, load: LoadSettings(headers: ["X-Job": "earlier"]))))
        #expect(earlier["agent"] as? String == "EarlierJob/1.0" && earlier["width"] as? Int == 400, "\(earlier)")
        #expect(earlier["language"] as? String == "fr-FR" && earlier["fetched"] as? Bool == false, "\(earlier)")
        let next = try report(try await parser.run(reportJob()))
        for key in ["agent", "width", "language", "fetched"] {
            #expect("\(next[key] ?? "none")" == "\(fresh[key] ?? "none")", "\(key): \(next) after \(earlier), a fresh tab's is \(fresh)")
        }
        let reports = server.requests(for: "/report")
        #expect(reports.count == 3 && reports[1].headers["x-job"] == "earlier" && reports[2].headers["x-job"] == nil)
        #expect(server.requests(for: "/probe").allSatisfy { $0.headers["x-job"] == nil } && server.requests(for: "/probe").count == 2)
    }

    @Test func whatAnEarlierDocumentLeftDoesNotReachTheNext() async throws {
        let parser = WebParserRunner()
        var leaving = WebParserJob(
            url: server.url("/leaver"), evaluation: Evaluation(script: "window.done"), timeout: .seconds(15), retry: RetryPolicy(retries: 0),
            page: PageSettings(capturesConsole: true, popups: .ignore))
        leaving.evaluation.settle = .zero
        let earlierLines = Shared<Int>(0)
        let left = try await parser.run(leaving, onMessage: { if case .console = $0 { earlierLines.value += 1 } })
        #expect(String(decoding: left.data, as: UTF8.self) == #""left""# && earlierLines.value > 0)
        let lines = Shared<[String]>([])
        let next = try report(
            try await parser.run(
                reportJob(page: PageSettings(capturesConsole: true)), onMessage: { if case .console(let line) = $0 { lines.value.append(line.text) } }))
        #expect((next["heard"] as? [String])?.isEmpty == true, "the earlier job's channel still posts: \(next)")
        #expect(next["scrolled"] as? Int == 0, "\(next)")
        #expect(lines.value.isEmpty, "the earlier job's console lines reached the next: \(lines.value)")
    }

    /// The control of the test above: the report does hear the channel of a job that is still running beside it.
    @Test func theReportHearsTheChannelOfAJobStillRunning() async throws {
        let parser = WebParserRunner()
        var leaving = WebParserJob(
            url: server.url("/leaver"), evaluation: Evaluation(script: "performance.now() > 2000 ? window.done : null"), timeout: .seconds(15),
            retry: RetryPolicy(retries: 0), page: PageSettings(popups: .ignore))
        leaving.evaluation.settle = .zero
        async let left = parser.run(leaving)
        try await Task.sleep(for: .milliseconds(500))
        let beside = try report(try await parser.run(reportJob()))
        #expect((beside["heard"] as? [String])?.contains("from the earlier job") == true, "\(beside)")
        _ = try await left
    }

    /// A service worker an earlier job would register does not answer the next job's requests (pages have none: with
    /// them, the next job got the earlier job's worker's answer).
    @Test func anEarlierJobsServiceWorkerDoesNotAnswerTheNext() async throws {
        let worker = """
            self.addEventListener("install", () => self.skipWaiting());
            self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));
            self.addEventListener("fetch", (event) => {
              if (new URL(event.request.url).pathname === "/answer") event.respondWith(new Response("from the earlier job's worker"));
            });
            """
        let register = """
            <!doctype html><title>sw</title><script>
            window.state = "serviceWorker" in navigator ? null : "no service workers";
            if (window.state === null) navigator.serviceWorker.register("/sw.js").then(() => navigator.serviceWorker.ready)
              .then(() => fetch("/answer")).then((response) => response.text()).then((text) => { window.state = text; },
                (error) => { window.state = "no service worker: " + error; });
            </script>
            """
        let ask = """
            <!doctype html><title>ask</title><script>
            window.state = null;
            fetch("/answer").then((response) => response.text()).then((text) => { window.state = text; });
            </script>
            """
        let server = try TestHTTPServer(routes: [
            "/sw.js": .respond(contentType: "text/javascript", body: worker), "/register": .respond(body: register),
            "/ask": .respond(body: ask), "/answer": .respond(body: "from the server")
        ])
        let parser = WebParserRunner()
        func run(_ path: String) async throws -> String {
            let job = WebParserJob(url: server.url(path), evaluation: Evaluation(script: "window.state"), timeout: .seconds(15), retry: RetryPolicy(retries: 0))
            return String(decoding: try await parser.run(job).data, as: UTF8.self)
        }
        let registered = try await run("/register")
        let next = try await run("/ask")
        #expect(registered == #""no service workers""#)
        #expect(next == #""from the server""#, "after \(registered)")
    }
}
