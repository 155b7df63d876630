import Foundation
import TestSupport
import Testing
@testable import WebParser

/// The engine and `WebParserRunner` on fake pages: results, triage, retries, time-outs, cancellation, races.
@Suite struct EngineTests {
    let url = URL(string: "http://example.test/updates")!

    func job(timeout: Duration = .seconds(5), retries: Int = 2) -> WebParserJob {
        WebParserJob(
            url: url, evaluation: Evaluation(script: "document.title", pollInterval: .milliseconds(5)), timeout: timeout,
            retry: RetryPolicy(retries: retries, delay: .milliseconds(5), maxDelay: .milliseconds(20)))
    }

    func json(_ text: String) -> JavaScriptReply { .json(Data(text.utf8)) }
    func string(_ text: String) -> JavaScriptReply { .string(Data(text.utf8)) }

    @Test func returnsTheFirstNonEmptyResultAndClosesThePage() async throws {
        let browser = FakeBrowser { _ in FakePage(.commit(status: 200), replies: [.null, .undefined, .null, self.string("[1,2]")]) }
        let log = StateLog()
        let data = try await browser.parser().run(job(), onStateChange: log.record).data
        #expect(String(decoding: data, as: UTF8.self) == "[1,2]")
        let page = try #require(await browser.pages.first)
        #expect(await page.evaluationCount == 4)
        #expect(await page.closeCount == 1)
        #expect(await page.loadedURLs == [url])
        #expect(log.states.first == .started)
        #expect(log.states.contains(.executingJavaScript))
        #expect(log.states.contains(.loading(progress: 0.5)))
        #expect(log.states.last == .completed)
    }

    @Test func aLargeScriptIsSentOncePerDocumentAndAgainWhenTheWindowLostIt() async throws {
        let notInstalled = json(#"{"kind":"notInstalled"}"#)
        let browser = FakeBrowser { _ in FakePage(.commit(status: 200), replies: [.null, .null, notInstalled, .null, self.string("[1]")]) }
        var job = job()
        job.evaluation.script = "'" + String(repeating: "x", count: 1_000_000) + "'.length > 0 ? [1] : null"
        let data = try await browser.parser().run(job).data
        #expect(String(decoding: data, as: UTF8.self) == "[1]")
        let sizes = try #require(await browser.pages.first?.bodySizes)
        #expect(sizes.count == 5)
        #expect(sizes.map { $0 > 1_000_000 } == [true, false, false, true, false], "\(sizes)")
    }

    @Test func aScriptExceptionFailsAtOnceWithoutRetrying() async throws {
        let exception = json(#"{"kind":"error","message":"TypeError: x is undefined","line":3,"column":9}"#)
        let browser = FakeBrowser { _ in FakePage(.commit(status: 200), replies: [exception]) }
        var threeLines = job(retries: 3)
        threeLines.evaluation.script = "(() => {\n  return x.y;\n})()"
        let error = await #expect(throws: WebParserError.self) { try await browser.parser().run(threeLines) }
        #expect(error?.kind == .scriptFailed(ScriptFailure(message: "TypeError: x is undefined", line: 2, column: 9)))
        #expect(error?.attempts == 1)
        #expect(await browser.pages.count == 1)
    }

    @Test func aSyntaxErrorFailsAtOnceWithItsLine() async throws {
        let syntax = JavaScriptReply.failed(
            PageError(domain: "WebKitJavascriptError", code: 699, message: "webparse-script:2: SyntaxError: Unexpected token '*'"))
        let browser = FakeBrowser { _ in FakePage(.commit(status: 200), replies: [syntax]) }
        var broken = job()
        broken.evaluation.script = "document.title * * 2"
        let error = await #expect(throws: WebParserError.self) { try await browser.parser().run(broken) }
        #expect(error?.kind == .scriptFailed(ScriptFailure(message: "SyntaxError: Unexpected token '*'", line: 1)))
        #expect(await browser.pages.count == 1)
    }

    @Test func anUnsupportedResultFailsAtOnce() async throws {
        let browser = FakeBrowser { _ in FakePage(.commit(status: 200), replies: [self.json(#"{"kind":"unsupported","text":"a DOM node (#text)"}"#)]) }
        let error = await #expect(throws: WebParserError.self) { try await browser.parser().run(job()) }
        #expect(error?.kind == .unsupportedResult("a DOM node (#text)"))
        #expect(await browser.pages.count == 1)
    }

    @Test func anInterruptedEvaluationIsTriedAgain() async throws {
        let gone = JavaScriptReply.failed(PageError(domain: "WebKitJavascriptError", code: 699, message: "the page was replaced"))
        let browser = FakeBrowser { _ in FakePage(.commit(status: 200), replies: [gone, self.string("true")]) }
        let data = try await browser.parser().run(job()).data
        #expect(String(decoding: data, as: UTF8.self) == "true")
    }

    @Test(arguments: [404, 410, 401, 403])
    func aClientErrorStatusIsFatal(status: Int) async throws {
        let browser = FakeBrowser { _ in FakePage(.commit(status: status), replies: [self.string("1")]) }
        let error = await #expect(throws: WebParserError.self) { try await browser.parser().run(job()) }
        #expect(error?.kind == .httpStatus(status))
        #expect(error?.isTransient == false)
        #expect(await browser.pages.count == 1)
    }

    /// A 403 page that is bot protection's fails as blocked, not retried unless the job's policy says so.
    @Test func aBlockedPageFailsAtOnceUnlessRetriesBlocked() async throws {
        let browser = FakeBrowser { _ in
            let page = FakePage(.commit(status: 403), replies: [self.string("1")])
            page.blockedBy = "DataDome"
            return page
        }
        let error = await #expect(throws: WebParserError.self) { try await browser.parser().run(job()) }
        #expect(error?.kind == .blocked(by: "DataDome", status: 403) && error?.code == .blocked)
        #expect(await browser.pages.count == 1)
        var retrying = job(retries: 1)
        retrying.retry.retriesBlocked = true
        _ = await #expect(throws: WebParserError.self) { try await browser.parser().run(retrying) }
        #expect(await browser.pages.count == 3, "tried again on a fresh page")
    }

    @Test func aServerErrorIsRetriedOnAFreshPage() async throws {
        let browser = FakeBrowser { attempt in
            FakePage(.commit(status: attempt == 1 ? 500 : 200), replies: [self.string("\"ok\"")])
        }
        let log = StateLog()
        let data = try await browser.parser().run(job(), onStateChange: log.record).data
        #expect(String(decoding: data, as: UTF8.self) == "\"ok\"")
        #expect(await browser.pages.count == 2)
        for page in await browser.pages { #expect(await page.closeCount == 1) }
        #expect(log.states.filter { $0 == .started }.count == 1)
        #expect(log.states.contains(.retrying(attempt: 2, error: WebParserError(.httpStatus(500), url: url.absoluteString))))
    }

    @Test func aTransientFailureIsRetriedUpToTheLimitThenReported() async throws {
        let refused = PageLoadFailure(url: url.absoluteString, error: PageError(domain: "g-io-error-quark", code: 39, message: "Connection refused"))
        let browser = FakeBrowser { _ in FakePage(.fail(refused)) }
        let log = StateLog()
        let error = await #expect(throws: WebParserError.self) {
            try await browser.parser().run(job(retries: 3), onStateChange: log.record)
        }
        #expect(error?.kind == .connectionRefused)
        #expect(error?.cause == WebParserError.Cause(domain: "g-io-error-quark", code: 39, message: "Connection refused"))
        #expect(error?.attempts == 4)
        #expect(error?.description.contains("gave up after 4 attempts") == true)
        #expect(await browser.pages.count == 4)
        #expect(log.states.filter { $0 == .started }.count == 1)
        let retries = log.states.compactMap { state -> Int? in
            guard case .retrying(let attempt, _) = state else { return nil }
            return attempt
        }
        #expect(retries == [2, 3, 4])
        #expect(log.states.last == .failed(try #require(error)))
    }

    @Test func aCrashedWebProcessIsRetriedAndAMemoryKillIsNot() async throws {
        let crashing = FakeBrowser { attempt in
            attempt == 1 ? FakePage(.terminate(.crashed), replies: [nil]) : FakePage(.commit(status: 200), replies: [self.string("1")])
        }
        #expect(try await crashing.parser().run(job()).data == Data("1".utf8))
        #expect(await crashing.pages.count == 2)

        let hungry = FakeBrowser { _ in FakePage(.terminate(.exceededMemoryLimit)) }
        let error = await #expect(throws: WebParserError.self) { try await hungry.parser().run(job()) }
        #expect(error?.kind == .memoryLimitExceeded)
        #expect(await hungry.pages.count == 1)
    }

    /// A shared web process that ended, or a time-out beside another job's page, may be the other job's doing:
    /// the job runs again once, at once, in a process of its own (even with no retries left), and that attempt
    /// does not count; a second such failure is the job's own.
    @Test func aFailureBesideAnotherJobRunsTheJobAgainOnceWithoutCountingIt() async throws {
        let ended = FakeBrowser { attempt in
            attempt == 1 ? FakePage(.terminate(.endedWithAnotherJob), replies: [nil]) : FakePage(.commit(status: 200), replies: [self.string("1")])
        }
        let log = StateLog()
        let result = try await ended.parser().run(job(retries: 0), onStateChange: log.record)
        #expect(result.data == Data("1".utf8))
        #expect(result.attempts == 1)
        #expect(
            log.states.contains { state in
                if case .rerunningAlone(let error) = state { error.kind == .sharedWebProcessEnded && error.attempts == 1 } else { false }
            })

        // A shared process that leaves pings unanswered for 3 s: the job runs again alone, in what is left of
        // its attempt's time.
        let stuckBeside = FakeBrowser { attempt in
            let page = FakePage(.commit(status: 200), replies: attempt == 1 ? [nil] : [self.string("2")])
            page.sharesProcessWithAnotherJob = attempt == 1
            page.answersPings = attempt != 1
            return page
        }
        let rerunLog = StateLog()
        let rerun = try await stuckBeside.parser().run(job(timeout: .seconds(6), retries: 0), onStateChange: rerunLog.record)
        #expect(rerun.data == Data("2".utf8))
        #expect(rerun.attempts == 1)
        #expect(
            rerunLog.states.contains { state in
                if case .rerunningAlone(let error) = state { error.kind == .sharedWebProcessUnresponsive(after: .seconds(3)) } else { false }
            })

        // A page whose process answers pings times out on its own, beside another job or not: whether its calls
        // answer with no data or never answer (a promise of the page's that never settles).
        for reply in [JavaScriptReply.null, nil] {
            let answering = FakeBrowser { _ in
                let page = FakePage(.commit(status: 200), replies: [reply])
                page.sharesProcessWithAnotherJob = true
                return page
            }
            let missing = await #expect(throws: WebParserError.self) { try await answering.parser().run(job(timeout: .milliseconds(1600), retries: 0)) }
            guard case .timedOut? = missing?.kind else { Issue.record("expected a time-out, got \(String(describing: missing))"); return }
            #expect(await answering.pages.count == 1, "not run again")
            #expect(await answering.pages.first?.pingCount ?? 0 >= 1, "its process was pinged")
        }

        let twice = FakeBrowser { _ in FakePage(.terminate(.endedWithAnotherJob), replies: [nil]) }
        let error = await #expect(throws: WebParserError.self) { try await twice.parser().run(job(retries: 0)) }
        #expect(error?.kind == .sharedWebProcessEnded)
        #expect(await twice.pages.count == 2, "one free run, alone; the second failure counts")
    }

    /// A page that times out beside another job's page comes back once its process is known to be stuck or not, by a
    /// ping sent then: answered, the process goes on serving the page beside it (`.failed`); unanswered for 3 s, the
    /// process ends (`.unresponsive`). A ping answered before the page got stuck is no evidence: under load, the last
    /// one answered could have come just before the page's own script took the process's thread.
    @Test func aTimedOutPageBesideAnotherJobComesBackAsItsProcessAnswersNow() async throws {
        for answers in [true, false] {
            let returned = OneShot<PageReturn>()
            let started = ContinuousClock.now
            await #expect(throws: WebParserError.self) {
                try await Task { @WebKitActor in
                    let page = FakePage(.commit(status: 200), replies: [nil])
                    page.sharesProcessWithAnotherJob = true
                    page.answersPings = answers
                    let engine = WebParserEngine(
                        job: job(timeout: .milliseconds(300), retries: 0), page: page, report: { _ in },
                        release: { _, how in returned.resolve(.success(how)) })
                    return try await engine.run()
                }.value
            }
            let how = try await returned.wait()
            #expect(how == (answers ? .failed : .unresponsive), "answers pings: \(answers)")
            if !answers { #expect(ContinuousClock.now - started >= .seconds(3), "waited for the ping") }
        }
    }

    /// How a page comes back decides whether its web process may serve again or must end, neighbours or not.
    @Test func aPageThatMayBeStuckComesBackUnresponsive() {
        let result = AttemptResult(data: Data("1".utf8), url: url.absoluteString, httpStatus: 200)
        var partial = result
        partial.endedAtTimeOut = true
        #expect(PageReturn(.success(result)) == .succeeded)
        #expect(PageReturn(.success(partial)) == .unresponsive, "cut short at the timeout: the page may be stuck")
        #expect(PageReturn(.failure(WebParserError(.httpStatus(404)))) == .failed)
        #expect(PageReturn(.failure(WebParserError(.timedOut(phase: .waitingForResult, after: .seconds(1))))) == .unresponsive)
        #expect(PageReturn(nil) == .unresponsive, "cancelled")
    }

    @Test func theWatchdogNamesThePhase() async throws {
        let silent = FakeBrowser { _ in FakePage(.silent) }
        let error = await #expect(throws: WebParserError.self) {
            try await silent.parser().run(job(timeout: .milliseconds(100), retries: 0))
        }
        #expect(error?.kind == .timedOut(phase: .waitingForServer, after: .milliseconds(100)))
        #expect(await silent.pages.first?.closeCount == 1)

        let stalled = FakeBrowser { _ in FakePage(.commitWithoutFinishing, replies: [.null]) }
        let loading = await #expect(throws: WebParserError.self) {
            try await stalled.parser().run(job(timeout: .milliseconds(100), retries: 0))
        }
        #expect(loading?.kind == .timedOut(phase: .loading, after: .milliseconds(100)))

        let empty = FakeBrowser { _ in FakePage(.commit(status: 200), replies: [.null]) }
        let waiting = await #expect(throws: WebParserError.self) {
            try await empty.parser().run(job(timeout: .milliseconds(100), retries: 0))
        }
        #expect(waiting?.kind == .timedOut(phase: .waitingForResult, after: .milliseconds(100)))
    }

    /// A time-out of a second: the page must have committed by then, also on a busy machine (a first attempt that
    /// times out while loading is retried, whatever the default).
    @Test func aScriptThatNeverAnswersEndsAtTheTimeout() async throws {
        let browser = FakeBrowser { _ in FakePage(.commit(status: 200), replies: [nil]) }
        let error = await #expect(throws: WebParserError.self) {
            try await browser.parser().run(job(timeout: .seconds(1), retries: 1))
        }
        #expect(error?.kind == .timedOut(phase: .waitingForResult, after: .seconds(1)))
        #expect(error?.attempts == 1, "a loaded page without the script's data is not retried by default")
        var retrying = job(timeout: .seconds(1), retries: 1)
        retrying.retry.retriesMissingData = true
        let retried = await #expect(throws: WebParserError.self) { try await browser.parser().run(retrying) }
        #expect(retried?.attempts == 2)
        for page in await browser.pages { #expect(await page.closeCount == 1) }
    }

    /// An attempt's time counts what came before its page (the script made ready, a wait for a place beside
    /// another page, a WebKit thread kept busy): a page that answers at once, but came only after the job's
    /// timeout, is too late.
    @Test func anAttemptsTimeCountsTheWaitForItsPage() async throws {
        let late = FakeBrowser { _ in
            usleep(700_000)
            return FakePage(.commit(status: 200), replies: [self.string("1")])
        }
        let error = await #expect(throws: WebParserError.self) { try await late.parser().run(job(timeout: .milliseconds(500), retries: 0)) }
        #expect(error?.kind == .timedOut(phase: .waitingForServer, after: .milliseconds(500)))
        let inTime = FakeBrowser { _ in FakePage(.commit(status: 200), replies: [self.string("1")]) }
        #expect(try await inTime.parser().run(job(timeout: .milliseconds(500), retries: 0)).data == Data("1".utf8))
    }

    @Test func cancellationReturnsAtOnceAndClosesThePage() async throws {
        let browser = FakeBrowser { _ in FakePage(.silent) }
        let log = StateLog()
        let parser = browser.parser()
        let job = job(timeout: .seconds(60))
        let task = Task { try await parser.run(job, onStateChange: log.record) }
        while await browser.pages.isEmpty { await Task.yield() }
        task.cancel()
        await #expect(throws: CancellationError.self, "cancelled, not timed out") { try await task.value }
        while await browser.pages[0].closeCount == 0 { await Task.yield() }
        #expect(await browser.pages[0].closeCount == 1)
        #expect(log.states.last == .cancelled)
    }

    @Test func cancellationDuringTheBackoffStopsRetrying() async throws {
        let refused = PageLoadFailure(url: url.absoluteString, error: PageError(domain: "g-io-error-quark", code: 39, message: "refused"))
        let browser = FakeBrowser { _ in FakePage(.fail(refused)) }
        var slowRetry = job(retries: 5)
        slowRetry.retry.delay = .seconds(60)
        slowRetry.retry.maxDelay = .seconds(60)
        let parser = browser.parser()
        let task = Task { [slowRetry] in try await parser.run(slowRetry) }
        while await browser.pages.first?.closeCount != 1 { await Task.yield() }
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(await browser.pages.count == 1)
    }

    /// Success, load failure, crash, time-out and cancellation all arrive together, in every order: the
    /// attempt ends once, with one of them, and the page is closed once. A second resume would trap.
    @Test func racingEndingsResumeExactlyOnce() async throws {
        for round in 0..<200 {
            // An end without a document runs the job again on a second page, which the cancellation closes.
            let browser = FakeBrowser { _ in FakePage(.silent, replies: [self.string("1")]) }
            let parser = browser.parser()
            let job = job(timeout: .milliseconds(Int64(round % 3)), retries: 0)
            let task = Task { try await parser.run(job) }
            while await browser.pages.isEmpty { await Task.yield() }
            let page = await browser.pages[0]
            // A deadline of a millisecond or two may pass before the page loads: the attempt then ends unloaded.
            while await page.loadedURLs.isEmpty, await page.closeCount == 0 { await Task.yield() }
            let failure = PageLoadFailure(url: url.absoluteString, error: PageError(domain: "g-io-error-quark", code: 1, message: "gone"))
            var events: [PageEvent] = [
                .committed(url: url.absoluteString, httpStatus: 200), .failed(failure),
                .processTerminated(.crashed), .finished(url: url.absoluteString)
            ]
            events.shuffle()
            if round.isMultiple(of: 2) { task.cancel() }
            await page.emitAll(events)
            if !round.isMultiple(of: 2) { task.cancel() }
            let outcome = await task.result
            if case .failure(let error) = outcome {
                #expect(error is WebParserError || error is CancellationError)
            }
            for page in await browser.pages {
                while await page.closeCount == 0 { await Task.yield() }
                #expect(await page.closeCount == 1)
            }
        }
    }

    @Test func anUnsupportedSchemeFailsWithoutLoading() async throws {
        let browser = FakeBrowser { _ in FakePage(.commit(status: 200)) }
        var ftp = job()
        ftp.url = URL(string: "ftp://example.test/file")!
        let error = await #expect(throws: WebParserError.self) { try await browser.parser().run(ftp) }
        guard case .unsupportedURL = error?.kind else { Issue.record("expected unsupportedURL, got \(String(describing: error))"); return }
        #expect(await browser.pages.first?.loadedURLs.isEmpty == true)
    }

    @Test func aLoadReplacedByANewerOneIsNotAFailure() async throws {
        let page = await FakePage(.silent, replies: [string("\"second\"")])
        let parser = WebParserRunner(makePage: { _ in page }, startRuntime: { try await WebKitRuntime.start() })
        let task = Task { try await parser.run(job(retries: 0)) }
        while await page.loadedURLs.isEmpty { await Task.yield() }
        let first = url.absoluteString, second = "http://example.test/second"
        let superseded = PageLoadFailure(url: first, error: PageError(domain: "WebKitNetworkError", code: 302, message: "Load request cancelled"))
        await page.emitAll([
            .failed(superseded), .started(url: second), .finished(url: first),
            .committed(url: second, httpStatus: 200), .finished(url: second)
        ])
        #expect(try await task.value.data == Data("\"second\"".utf8))
    }

    /// A load WebKit ends with no document, no failure and no download to say why runs again once, at once, in a fresh
    /// tab, even with no retries, and that does not count; a second such end fails, saying what WebKit was seen doing.
    @Test func aLoadThatEndsWithoutADocumentRunsAgainOnceThenFailsSayingWhatWasSeen() async throws {
        let once = FakeBrowser { attempt in
            attempt == 1 ? FakePage(.endWithoutDocument) : FakePage(.commit(status: 200), replies: [self.string("1")])
        }
        let log = StateLog()
        let result = try await once.parser().run(job(retries: 0), onStateChange: log.record)
        #expect(result.data == Data("1".utf8) && result.attempts == 1)
        #expect(log.states.contains { if case .rerunningAlone(let error) = $0 { error.loadEndedWithoutDocument } else { false } })

        let always = FakeBrowser { _ in FakePage(.endWithoutDocument) }
        let error = await #expect(throws: WebParserError.self) { try await always.parser().run(job(retries: 0)) }
        let seen = "its load started (\(url.absoluteString)), no request for its document was made"
        #expect(error?.kind == .loadFailed("WebKit ended the load without a document: \(seen)"))
        #expect(await always.pages.count == 2)
    }

    /// A load that ends without a document says what WebKit was seen doing: the tab's earlier page ending first, the
    /// load's start, its redirect, its document's request with no response.
    @Test func aLoadWithoutADocumentSaysWhatWebKitWasSeenDoing() async throws {
        let browser = FakeBrowser { _ in FakePage(.silent) }
        let parser = browser.parser()
        let task = Task { try await parser.run(job(retries: 0)) }
        let moved = "http://example.test/moved/"
        for attempt in 0..<2 {
            while await browser.pages.count <= attempt { await Task.yield() }
            let page = await browser.pages[attempt]
            while await page.loadedURLs.isEmpty { await Task.yield() }
            await page.emitAll([
                .earlierLoadEnded, .redirected(url: moved), .traffic(.resource(id: 7, .started(accept: "text/html", mainDocument: true))),
                .finished(url: moved)
            ])
        }
        let error = await #expect(throws: WebParserError.self) { try await task.value }
        let seen =
            "the tab's earlier page was still loading, and WebKit ended that load first; its load started (\(url.absoluteString)), "
            + "was redirected to \(moved), its document's request was sent and no response came"
        #expect(error?.kind == .loadFailed("WebKit ended the load without a document: \(seen)"))
    }

    @Test func aBlankPageInsteadOfTheURLFails() async throws {
        let page = await FakePage(.silent)
        let parser = WebParserRunner(makePage: { _ in page }, startRuntime: { try await WebKitRuntime.start() })
        let task = Task { try await parser.run(job()) }
        while await page.loadedURLs.isEmpty { await Task.yield() }
        await page.emitAll([.committed(url: "about:blank", httpStatus: 0), .finished(url: "about:blank")])
        let error = await #expect(throws: WebParserError.self) { try await task.value }
        guard case .unsupportedURL? = error?.kind else { Issue.record("expected unsupportedURL, got \(String(describing: error))"); return }
        #expect(error?.url == url.absoluteString)
        #expect(error?.attempts == 1)
    }

    @Test func mappersDecodeTheResult() async throws {
        struct Comic: Decodable, Equatable { var title: String; var chapter: Int }
        let browser = FakeBrowser { _ in
            FakePage(.commit(status: 200), replies: [self.string(#"[{"title":"Paper Knights","chapter":203}]"#)])
        }
        let parser = browser.parser()
        #expect(try await parser.parse(job(), mapper: JSONMapper([Comic].self)) == [Comic(title: "Paper Knights", chapter: 203)])
        let count = try await parser.parse(job(), mapper: ClosureMapper { data in data.count })
        #expect(count == 41)
        #expect(try await parser.parse(job(), mapper: RawJSONMapper()) == Data(#"[{"title":"Paper Knights","chapter":203}]"#.utf8))
        await #expect(throws: DecodingError.self) { try await parser.parse(job(), mapper: JSONMapper(Int.self)) }
    }
}

extension FakePage {
    func emitAll(_ events: [PageEvent]) {
        for event in events { emit(event) }
    }
}
