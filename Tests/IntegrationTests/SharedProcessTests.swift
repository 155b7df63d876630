import Foundation
import TestSupport
import Testing
import WebParser

/// Pages at once sharing web processes (`pagesPerProcess`): how many processes run, and that a page stuck in
/// JavaScript, over the memory limit or failing costs the job beside it nothing.
@Suite struct SharedProcessTests {
    func job(_ url: URL, _ script: String, timeout: Duration = .seconds(20), retries: Int = 0) -> WebParserJob {
        WebParserJob(url: url, script: script, timeout: timeout, retry: RetryPolicy(retries: retries, delay: .milliseconds(100)))
    }

    /// Runs `jobs` at once on `parser`; each job's outcome, in order, with its states.
    func runTogether(_ jobs: [WebParserJob], on parser: WebParserRunner) async -> [(Result<WebParserResult, Error>, [WebParserState])] {
        await withTaskGroup(of: (Int, Result<WebParserResult, Error>, [WebParserState]).self) { group in
            for (index, job) in jobs.enumerated() {
                group.addTask {
                    let log = StateLog()
                    let result: Result<WebParserResult, Error>
                    do { result = .success(try await parser.run(job, onStateChange: log.record)) } catch { result = .failure(error) }
                    return (index, result, log.states)
                }
            }
            var outcomes: [(Int, Result<WebParserResult, Error>, [WebParserState])] = []
            for await outcome in group { outcomes.append(outcome) }
            return outcomes.sorted { $0.0 < $1.0 }.map { ($0.1, $0.2) }
        }
    }

    /// How many times the job's attempt ran again alone, without counting.
    func reruns(_ states: [WebParserState]) -> Int {
        states.filter { state in
            if case .rerunningAlone = state { true } else { false }
        }.count
    }

    /// The page is served by a framework-style app: its list arrives from a later request, and its script is
    /// cached for an hour, so a web process asks for it once (an ephemeral session has no other cache): the
    /// requests for it count the processes.
    static func appServer() throws -> TestHTTPServer {
        let page = """
            <div id="app"></div><script src="/app.js"></script>
            """
        let app = """
            fetch('/items').then(r => r.json()).then(items => {
              document.getElementById('app').innerHTML = items.map(i => `<li>${i}</li>`).join('')
            })
            """
        return try TestHTTPServer(routes: [
            "/": .respond(body: page),
            "/app.js": .respond(contentType: "text/javascript", headers: ["Cache-Control": "max-age=3600"], body: app),
            "/items": .delayed(.milliseconds(700), .respond(contentType: "application/json", body: #"["one","two"]"#))
        ])
    }

    @Test(arguments: [(1, 4), (2, 2), (4, 1)])
    func pagesAtOnceShareWebProcessesUpToTheLimit(pagesPerProcess: Int, processes: Int) async throws {
        let server = try Self.appServer()
        let parser = WebParserRunner(session: WebParserSession(configuration: .init(pagesPerProcess: pagesPerProcess)))
        let script = "[...document.querySelectorAll('#app li')].map(li => li.textContent)"
        let outcomes = await runTogether(Array(repeating: job(server.url("/"), script), count: 4), on: parser)
        for (result, _) in outcomes {
            #expect(try result.get().data == Data(#"["one","two"]"#.utf8))
        }
        #expect(server.requests(for: "/app.js").count == processes, "4 pages at once, \(pagesPerProcess) to a process")
    }

    /// Sessions at once, each with pages beside each other: every page gets its document. (A page that joined a
    /// process whose first load had not started yet could stall, its URL emptied, with WebKitGTK 2.50: about one
    /// round in twelve of this test before pages waited for their neighbour's process to be up.)
    @Test func sessionsAtOnceGetEveryPage() async throws {
        let script = "[...document.querySelectorAll('#app li')].map(li => li.textContent)"
        for _ in 0..<6 {
            let failures = await withTaskGroup(of: [String].self) { group in
                for pagesPerProcess in [1, 2, 4] {
                    group.addTask {
                        guard let server = try? Self.appServer() else { return ["no server"] }
                        let parser = WebParserRunner(session: WebParserSession(configuration: .init(pagesPerProcess: pagesPerProcess)))
                        let outcomes = await runTogether(Array(repeating: job(server.url("/"), script, timeout: .seconds(10)), count: 4), on: parser)
                        return outcomes.compactMap { outcome in
                            if case .failure(let error) = outcome.0 { "\(pagesPerProcess) to a process: \(error)" } else { nil }
                        }
                    }
                }
                return await group.reduce(into: []) { $0 += $1 }
            }
            #expect(failures.isEmpty)
        }
    }

    /// A page stuck in JavaScript holds the thread of the process it shares. Either the stuck job times out
    /// first (at 1 s) and its process ends with it, or the process leaves pings unanswered for 3 s: either way
    /// each job runs again alone, in the time left of its attempt, without counting. The job beside the stuck
    /// page succeeds, though it has no retries, and the stuck one fails on its own.
    @Test(arguments: [(Duration.seconds(1), 2500, Duration.seconds(20)), (Duration.seconds(9), 600, Duration.seconds(7))])
    func aPageStuckInJavaScriptCostsTheJobBesideItNothing(stuckTimeout: Duration, dataDelay: Int, timeout: Duration) async throws {
        let server = try TestHTTPServer(routes: [
            "/stuck": .respond(body: "<script>setTimeout(() => { while (true) {} }, 100)</script>"),
            "/slow": .respond(body: "<p id=out></p><script>setTimeout(() => out.textContent = 'done', \(dataDelay))</script>")
        ])
        let parser = WebParserRunner(session: WebParserSession(configuration: .init(pagesPerProcess: 2)))
        let outcomes = await runTogether(
            [
                job(server.url("/stuck"), "window.never", timeout: stuckTimeout),
                job(server.url("/slow"), "out.textContent", timeout: timeout)
            ], on: parser)
        let slow = try outcomes[1].0.get()
        #expect(slow.data == Data(#""done""#.utf8))
        #expect(slow.attempts == 1)
        #expect(reruns(outcomes[1].1) == 1, "the two pages shared a process")
        guard case .failure(let stuck as WebParserError) = outcomes[0].0, case .timedOut = stuck.kind else {
            Issue.record("the stuck page should time out on its own: \(outcomes[0].0)")
            return
        }
        #expect(reruns(outcomes[0].1) <= 1, "once at most (not at all when its page's call had waited under a second)")
    }

    /// A job that times out beside another job's page, whose process answers pings, times out on its own: it
    /// is retried as its retries say (a page whose data is missing is not), never run again without counting,
    /// so that it ends within (retries + 1) × timeout and the retry delays; and the process goes on serving the
    /// page beside it. Here: a server that accepts and never answers, and a page that makes promises never
    /// settle, so that webparse's calls for its result never answer.
    @Test func aTimeOutBesideAnAnsweringPageIsTheJobsOwn() async throws {
        let server = try TestHTTPServer(routes: [
            "/hang": .hang,
            "/thenable": .respond(body: "<script>Object.prototype.then = function () {}; Promise.prototype.then = function () {}</script>"),
            "/slow": .respond(body: "<p id=out></p><script>setTimeout(() => out.textContent = 'done', 4000)</script>")
        ])
        let parser = WebParserRunner(session: WebParserSession(configuration: .init(pagesPerProcess: 3)))
        let outcomes = await runTogether(
            [
                job(server.url("/hang"), "1", timeout: .seconds(2), retries: 1),
                job(server.url("/thenable"), "1", timeout: .seconds(2), retries: 1),
                job(server.url("/slow"), "out.textContent", timeout: .seconds(20))
            ], on: parser)
        #expect(try outcomes[2].0.get().data == Data(#""done""#.utf8))
        #expect(reruns(outcomes[2].1) == 0, "\(outcomes[2].1)")
        for (outcome, (phase, attempts)) in zip(outcomes, [(LoadPhase.waitingForServer, 2), (.waitingForResult, 1)]) {
            guard case .failure(let error as WebParserError) = outcome.0 else {
                Issue.record("expected a time-out: \(outcome.0) \(outcome.1)")
                continue
            }
            #expect(error.kind == .timedOut(phase: phase, after: .seconds(2)))
            #expect(error.attempts == attempts, "\(error) \(outcome.1)")
            #expect(reruns(outcome.1) == 0, "\(outcome.1)")
        }
        #expect(server.requests(for: "/hang").count == 2)
        #expect(server.requests(for: "/thenable").count == 1)
    }

    @Test func aSharedProcessOverTheMemoryLimitBlamesOnlyThePageThatStaysOver() async throws {
        let hog = "<script>const keep = []; setInterval(() => { for (let i = 0; i < 20; i++) keep.push(new Array(1 << 20).fill(i)) }, 20)</script>"
        let server = try TestHTTPServer(routes: [
            "/hog": .respond(body: hog),
            "/slow": .respond(body: "<p id=out></p><script>setTimeout(() => out.textContent = 'done', 2500)</script>")
        ])
        let parser = WebParserRunner(session: WebParserSession(configuration: .init(memoryLimit: 250, pagesPerProcess: 2)))
        let outcomes = await runTogether([job(server.url("/hog"), "null"), job(server.url("/slow"), "out.textContent")], on: parser)
        guard case .failure(let hungry as WebParserError) = outcomes[0].0 else {
            Issue.record("the hog should fail: \(outcomes[0].0)")
            return
        }
        #expect(hungry.kind == .memoryLimitExceeded, "alone in a process on its second run, it is to blame")
        let slow = try outcomes[1].0.get()
        #expect(slow.data == Data(#""done""#.utf8))
        #expect(slow.attempts == 1)
        #expect(reruns(outcomes[1].1) == 1, "the shared process went over the limit once; then each page had its own")
    }

    @Test func aFailingPageLeavesTheProcessToTheJobBesideIt() async throws {
        let server = try TestHTTPServer(routes: [
            "/slow": .respond(body: "<p id=out></p><script>setTimeout(() => out.textContent = 'done', 1500)</script>")
        ])
        let parser = WebParserRunner(session: WebParserSession(configuration: .init(pagesPerProcess: 2)))
        let outcomes = await runTogether([job(server.url("/missing"), "1"), job(server.url("/slow"), "out.textContent")], on: parser)
        guard case .failure(let missing as WebParserError) = outcomes[0].0 else {
            Issue.record("the missing page should fail: \(outcomes[0].0)")
            return
        }
        #expect(missing.kind == .httpStatus(404))
        #expect(try outcomes[1].0.get().data == Data(#""done""#.utf8))
        #expect(reruns(outcomes[1].1) == 0, "its process went on")
    }

    /// Pages beside each other have their own documents, scripts' globals, window names and bridges: what one
    /// job's page sets, the other's never sees, and each result goes to its own job. So with pages whose server
    /// sends Cross-Origin-Opener-Policy (and COEP), which WebKit would otherwise move to new web processes: they
    /// stay in the warm process (one load of the shared script) and apart, and read `crossOriginIsolated` false.
    @Test(arguments: [[:], ["Cross-Origin-Opener-Policy": "same-origin", "Cross-Origin-Embedder-Policy": "require-corp"]])
    func pagesBesideEachOtherStayApart(headers: [String: String]) async throws {
        let server = try TestHTTPServer(routes: [
            "/a": .respond(
                headers: headers, body: "<title>A</title><script src=/shared.js></script><script>window.name = 'secret'; window.secretValue = 'a'</script>"),
            "/b": .delayed(.milliseconds(100), .respond(headers: headers, body: "<title>B</title><script src=/shared.js></script>")),
            "/shared.js": .respond(contentType: "text/javascript", headers: ["Cache-Control": "max-age=3600"], body: "window.loaded = true")
        ])
        let parser = WebParserRunner(session: WebParserSession(configuration: .init(pagesPerProcess: 2)))
        let b = """
            new Promise(done => setTimeout(() => {
              const other = window.open('', 'secret');
              done([document.title, window.name, String(window.secretValue), other === null || other === window, crossOriginIsolated])
            }, 400))
            """
        let outcomes = await runTogether(
            [
                job(server.url("/a"), "new Promise(done => setTimeout(() => done([document.title, window.name]), 800))"),
                job(server.url("/b"), b)
            ], on: parser)
        #expect(try outcomes[0].0.get().data == Data(#"["A","secret"]"#.utf8))
        #expect(try outcomes[1].0.get().data == Data(#"["B","","undefined",true,false]"#.utf8))
        #expect(server.requests(for: "/shared.js").count == 1, "the two pages were in one process")
    }
}
