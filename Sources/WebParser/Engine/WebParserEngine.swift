import Foundation

/// One attempt of a job on one fresh page: load, evaluate the script until it yields data, triage failures.
///
/// Everything the page reports, the watchdog and cancellation race to end the attempt; `OneShot` lets the
/// first of them win, and the page is closed on every path.
@WebKitActor
final class WebParserEngine {
    private let job: WebParserJob
    private let page: any WebPage
    private let report: @Sendable (WebParserState) -> Void
    private let tell: @Sendable (WebParserMessage) -> Void
    private let release: @WebKitActor (any WebPage, Bool) -> Void
    private let outcome = OneShot<Result>()
    private let script: PageScript

    private var url: String
    private var httpStatus = 0
    private var phase = LoadPhase.waitingForServer
    private var committed = false
    private var supersededLoadFinishing = false
    /// The main document WebKit could not show, if the load was refused for that.
    private var refusedMIMEType: String?
    private var evaluating = false
    /// What the script or its wait last answered while the result was empty.
    private var lastAnswer: String?
    /// Counts documents: a reply from an evaluation in an earlier document is stale, and that evaluation may
    /// never answer at all (its document is gone).
    private var document = 0
    private var ended = false
    /// The values user scripts emitted, in order, as JSON text.
    private var emitted: [Data] = []
    /// True once the result is there and the screenshot is being taken.
    private var finishing = false
    private var watchdog: Task<Void, Never>?
    private var nextEvaluation: Task<Void, Never>?

    /// Prepares an attempt of `job` on `page`; `report` receives the attempt's `loading` and
    /// `executingJavaScript` states, `tell` what the page says besides its result, and `release` gets the page
    /// back when the attempt ends, with whether the attempt succeeded (and so whether the page can serve
    /// another job). By default the page is closed.
    init(job: WebParserJob, page: any WebPage, report: @escaping @Sendable (WebParserState) -> Void,
         tell: @escaping @Sendable (WebParserMessage) -> Void = { _ in },
         release: @escaping @WebKitActor (any WebPage, Bool) -> Void = { page, _ in page.close() }) {
        self.job = job
        self.page = page
        self.report = report
        self.tell = tell
        self.release = release
        self.url = job.url.absoluteString
        self.script = PageScript(job.script, waitFor: job.waitFor, waitForSelector: job.waitForSelector,
                                 pollInterval: job.pollInterval)
    }

    /// What a successful attempt produced.
    struct Result: Sendable {
        /// The script's first non-empty result, or the array of emitted values, as JSON text.
        var data: Data
        /// The page's URL when the result came.
        var url: String
        /// The main document's HTTP status; 0 when there is none (a `file:` URL).
        var httpStatus: Int
        /// False when the emitted values were cut short by the timeout.
        var isComplete = true
    }

    /// Runs the attempt.
    /// - Throws: `WebParserError` (with `attempts` 1) when the attempt fails, `CancellationError` when the
    ///   task is cancelled; cancellation returns at once and the page is closed right after.
    func run() async throws -> Result {
        try await withTaskCancellationHandler {
            start()
            return try await outcome.wait()
        } onCancel: {
            if outcome.resolve(.failure(CancellationError())) {
                Task { @WebKitActor in self.end() }
            }
        }
    }

    private func start() {
        guard !Task.isCancelled else { return }
        guard let scheme = job.url.scheme?.lowercased(), WebParserJob.supportedSchemes.contains(scheme) else {
            fail(.unsupportedURL("only http, https and file URLs can be loaded"))
            return
        }
        if job.collect == .emitted && job.userScripts.isEmpty {
            fail(.invalidJob("collecting emitted values needs a user script that calls webparse.emit"))
            return
        }
        page.eventHandler = { [weak self] event in self?.handle(event) }
        let timeout = job.timeout
        watchdog = Task { [weak self] in
            guard (try? await Task.sleep(for: timeout)) != nil else { return }
            self?.timedOut()
        }
        page.load(PageRequest(for: job))
    }

    private func handle(_ event: PageEvent) {
        switch event {
        case .started(let url):
            self.url = url
            phase = .waitingForServer
            committed = false
        case .redirected(let url):
            self.url = url
        case .committed(let url, let httpStatus, let retryAfter):
            self.url = url
            self.httpStatus = httpStatus
            committed = true
            if httpStatus >= 400 {
                var error = WebParserError(.httpStatus(httpStatus), url: url)
                error.retryAfter = retryAfter.flatMap { RetryAfter.parse($0) }
                end(with: .failure(error))
                return
            }
            if url == "about:blank" {
                fail(.unsupportedURL("WebKit refused to load it (WebKit blocks some ports, such as 1 and 6000)"),
                     url: job.url.absoluteString)
                return
            }
            phase = .loading
            if evaluating {
                document += 1
                nextEvaluation?.cancel()
                evaluate()
            } else {
                startEvaluating()
            }
        case .finished:
            guard !supersededLoadFinishing else {
                supersededLoadFinishing = false
                return
            }
            guard committed else {
                fail(.loadFailed(refusedMIMEType.map(Self.download) ?? "WebKit did not load the page"))
                return
            }
            phase = .waitingForResult
            startEvaluating()
        case .failed(let failure):
            if let mimeType = refusedMIMEType, LoadFailureTriage.isPolicyInterruption(failure) {
                fail(.loadFailed(Self.download(mimeType)), url: failure.url)
                return
            }
            // A newer navigation replaced the load, or a navigation webparse refused was stopped: the page
            // goes on, as in a browser.
            if LoadFailureTriage.isSuperseded(failure) || LoadFailureTriage.isPolicyInterruption(failure) {
                supersededLoadFinishing = true
                return
            }
            if let target = LoadFailureTriage.redirectTarget(of: failure) {
                fail(LoadFailureTriage.redirected(to: target))
                return
            }
            fail(LoadFailureTriage.kind(of: failure), url: failure.url)
        case .navigationRefused(let url):
            tell(.navigationRefused(url: url))
        case .urlChanged(let url):
            if committed { self.url = url }
        case .popupOpened(let url, let followed):
            tell(.popupOpened(url: url, followed: followed))
        case .message(let message):
            received(message)
        case .responseRefused(let mimeType):
            refusedMIMEType = mimeType
        case .certificateTrusted:
            supersededLoadFinishing = true
        case .progress(let progress):
            report(.loading(progress: progress))
        case .processTerminated(.exceededMemoryLimit):
            fail(.memoryLimitExceeded)
        case .processTerminated(.crashed) where !committed && !job.url.isFileURL:
            // WebKit's UI process ends a web process whose navigation turns to a local file, and a server's
            // redirect to file: is the one way a web page's load gets there before its document arrives.
            fail(.loadFailed("the page's web process ended before the page arrived: WebKit ends it when the server "
                             + "redirects to a file: URL, which no web page may open"))
        case .processTerminated(.crashed):
            fail(.webProcessCrashed)
        }
    }

    private func received(_ message: PageMessage) {
        switch message {
        case .emitted(let json):
            tell(.emitted(json: json))
            if job.collect == .emitted && !finishing { emitted.append(json) }
        case .done:
            if job.collect == .emitted { succeed(with: Self.array(emitted)) }
        case .console(var line):
            line.source = line.source.map(script.ownPlace)
            tell(.console(line))
        case .userScriptFailed(let failure):
            tell(.userScriptFailed(failure))
        }
    }

    private static func array(_ items: [Data]) -> Data {
        Data("[".utf8) + items.joined(separator: Data(",".utf8)) + Data("]".utf8)
    }

    /// Ends the attempt with `data`, once the screenshot (if the job asks for one) is written.
    private func succeed(with data: Data, isComplete: Bool = true) {
        guard !ended, !finishing else { return }
        let result = Result(data: data, url: url, httpStatus: httpStatus, isComplete: isComplete)
        guard let screenshot = job.screenshot else {
            end(with: .success(result))
            return
        }
        finishing = true
        nextEvaluation?.cancel()
        page.snapshot(fullPage: screenshot.fullPage, to: screenshot.file) { [weak self] error in
            guard let self else { return }
            if let error {
                self.fail(.screenshotFailed(error))
            } else {
                self.end(with: .success(result))
            }
        }
    }

    private func startEvaluating() {
        guard !evaluating, !finishing else { return }
        if job.collect == .emitted && job.script.allSatisfy(\.isWhitespace) { return }
        evaluating = true
        report(.executingJavaScript)
        evaluate()
    }

    /// The document whose window keeps the script's slice function, if one does.
    private var installedIn: Int?

    private func evaluate() {
        guard !ended, !finishing else { return }
        let document = self.document
        let body = installedIn == document ? script.repeatingBody : script.functionBody
        installedIn = document
        page.callAsyncFunction(body, sourceName: PageScript.sourceName) { [weak self] reply in
            self?.received(reply, in: document)
        }
    }

    private func received(_ reply: JavaScriptReply, in document: Int) {
        guard !ended, !finishing, document == self.document else { return }
        switch script.outcome(of: reply) {
        case .value(let data):
            succeed(with: job.collect == .emitted ? Self.array(emitted) : data)
        case .failure(let kind):
            fail(kind)
        case .syntaxError(let failure):
            let script = self.script
            Task { [weak self] in
                let explained = await Task.detached { script.explained(failure) }.value
                self?.fail(.scriptFailed(explained))
            }
        case .empty(let answer):
            lastAnswer = answer ?? lastAnswer
            // The page waited a whole slice for data already: ask again at once.
            evaluate()
        case .notInstalled:
            installedIn = nil
            evaluate()
        case .interrupted:
            installedIn = nil
            let interval = job.pollInterval
            nextEvaluation = Task { [weak self] in
                guard (try? await Task.sleep(for: interval)) != nil else { return }
                self?.evaluate()
            }
        }
    }

    private static func download(_ mimeType: String) -> String {
        "the server sent a download (\(mimeType.isEmpty ? "no content type" : mimeType)), not a page"
    }

    private func timedOut() {
        if job.collect == .emitted && !emitted.isEmpty && !finishing {
            succeed(with: Self.array(emitted), isComplete: false)
            return
        }
        var error = WebParserError(.timedOut(phase: phase, after: job.timeout), url: url)
        if phase == .waitingForResult { error.lastAnswer = lastAnswer }
        end(with: .failure(error))
    }

    private func fail(_ kind: WebParserError.Kind, url: String? = nil) {
        end(with: .failure(WebParserError(kind, url: url ?? self.url)))
    }

    private func end(with result: Swift.Result<Result, Error>) {
        outcome.resolve(result)
        end(succeeded: (try? result.get()) != nil)
    }

    /// Stops the timers, detaches from the page and hands it back; once only.
    private func end(succeeded: Bool = false) {
        guard !ended else { return }
        ended = true
        watchdog?.cancel()
        nextEvaluation?.cancel()
        page.eventHandler = nil
        release(page, succeeded)
    }
}
