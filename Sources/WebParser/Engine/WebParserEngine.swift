import FoundationEssentials

/// One attempt of a job on one page: the shell that performs what `AttemptMachine` decides.
///
/// It feeds the machine the page's events, the script's replies, the watchdog and cancellation, and carries out
/// the actions: load, call the script, report, write the screenshot, end. `OneShot` is the single resume point:
/// whatever ends the attempt first wins, and the page is handed back on every path.
@WebKitActor
final class WebParserEngine {
    private var machine: AttemptMachine
    private let page: any WebPage
    private let job: WebParserJob
    private let report: @Sendable (WebParserState) -> Void
    private let tell: @Sendable (WebParserMessage) -> Void
    private let release: @WebKitActor (any WebPage, PageReturn) -> Void
    private let outcome = OneShot<AttemptResult>()
    /// The machine's timers that have not gone off.
    private var timers: [AttemptMachine.Timer: Task<Void, Never>] = [:]
    /// While the page shares its web process with another job's page: the loop that pings the process.
    private var liveness: Task<Void, Never>?
    /// When the ping in flight was sent, if one is.
    private var pingSent: ContinuousClock.Instant?
    /// Whether the attempt has ended.
    private var ended = false

    /// How long a web process shared with another job's page may leave a ping unanswered before one of the pages
    /// is taken to hold its thread. A healthy page answers within a second even while it compiles a large
    /// script on a busy machine; WebKit's own responsiveness timer waits 3 s too.
    static let unresponsiveAfter: Duration = .seconds(3)

    /// Prepares an attempt of `job` on `page`; `report` receives the attempt's `loading` and
    /// `executingJavaScript` states, `tell` what the page says besides its result, and `release` gets the page
    /// back when the attempt ends, with how it ended (and so whether the page can serve another job, and
    /// whether its web process must end). By default the page is closed.
    /// `script` is the job's script made ready (by default, made here); with `deadline`, the attempt must have
    /// its result or first page by then, rather than within the job's timeout from its start.
    init(
        job: WebParserJob, page: any WebPage, script: PageScript? = nil, deadline: ContinuousClock.Instant? = nil,
        report: @escaping @Sendable (WebParserState) -> Void,
        tell: @escaping @Sendable (WebParserMessage) -> Void = { _ in },
        release: @escaping @WebKitActor (any WebPage, PageReturn) -> Void = { page, _ in page.close() }
    ) {
        self.machine = AttemptMachine(job: job, script: script, deadline: deadline)
        self.job = job
        self.page = page
        self.report = report
        self.tell = tell
        self.release = release
    }

    /// Runs the attempt.
    /// - Throws: `WebParserError` (with `attempts` 1) when the attempt fails, `CancellationError` when the
    ///   task is cancelled; cancellation returns at once and the page is handed back right after.
    func run() async throws -> AttemptResult {
        try await withTaskCancellationHandler {
            if !Task.isCancelled { perform(machine.start(now: .now)) }
            return try await outcome.wait()
        } onCancel: {
            if outcome.resolve(.failure(CancellationError())) {
                Task { @WebKitActor in self.perform(self.machine.cancel()) }
            }
        }
    }

    private func send(_ event: AttemptMachine.Event) {
        perform(machine.handle(event))
    }

    private func perform(_ actions: [AttemptMachine.Action]) {
        for action in actions { perform(action) }
    }

    private func perform(_ action: AttemptMachine.Action) {
        switch action {
        case .schedule(let timer, let delay):
            timers[timer]?.cancel()
            timers[timer] = Task { [weak self] in
                guard (try? await Task.sleep(for: delay)) != nil, !Task.isCancelled, let self else { return }
                timers[timer] = nil
                send(timer.event)
            }
        case .cancel(let timer):
            timers.removeValue(forKey: timer)?.cancel()
        case .load:
            page.eventHandler = { [weak self] event in self?.send(.page(event)) }
            page.load(PageRequest(for: job, workKey: machine.script.quiet.workKey))
            // The page's events may have ended the attempt already, from inside `load`.
            guard !ended else { return }
            liveness = Task { [weak self] in
                while (try? await Task.sleep(for: .milliseconds(500))) != nil {
                    guard let self else { return }
                    checkLiveness()
                }
            }
        case .evaluate(let body, let document):
            call(body, sourceName: PageScript.sourceName, world: job.scriptWorld) { .reply($0, document: document) }
        case .callStep(let body, let document):
            call(body, sourceName: StepScript.sourceName) { .stepReply($0, document: document) }
        case .findNext(let body, let call):
            self.call(body, sourceName: StepScript.sourceName) { .nextFound($0, call: call) }
        case .loadNext(let url):
            page.load(PageRequest(following: url, of: job, workKey: machine.script.quiet.workKey))
        case .click(let x, let y):
            page.click(x: x, y: y)
        case .press(let key):
            if !page.press(key: key) { send(.keyUnknown(key)) }
        case .notify(let body):
            page.callAsyncFunction(body, sourceName: PageScript.sourceName, world: job.scriptWorld) { _ in }
        case .checkBlocked(let document):
            call(BotProtection.checkBody, sourceName: PageScript.sourceName, world: WebParserJob.isolatedWorld) { reply in
                guard case .string(let text) = reply else { return .blockChecked(nil, document: document) }
                return .blockChecked(String(decoding: text, as: UTF8.self), document: document)
            }
        case .readPageError(let document):
            call(PageErrorWatch.readBody, sourceName: PageScript.sourceName, world: WebParserJob.isolatedWorld) { reply in
                guard case .string(let text) = reply else { return .pageErrorRead(nil, document: document) }
                return .pageErrorRead(String(decoding: text, as: UTF8.self), document: document)
            }
        case .report(let state):
            report(state)
        case .tell(let message):
            tell(message)
        case .explain(let failure):
            let script = machine.script
            Task { [weak self] in
                let explained = await Task.detached { script.explained(failure) }.value
                self?.send(.explained(explained))
            }
        case .snapshot(let screenshot):
            page.snapshot(screenshot) { [weak self] error in
                guard let self else { return }
                perform(machine.snapshotWritten(error: error))
            }
        case .end(let result):
            ended = true
            if let result {
                // The title the page's answer carried, else the view's (emitted values, responses).
                let title = page.title
                outcome.resolve(
                    result.map { answer in
                        var answer = answer
                        answer.title = answer.title ?? title
                        return answer
                    }.mapError { $0 })
            }
            liveness?.cancel()
            for timer in timers.values { timer.cancel() }
            timers = [:]
            page.eventHandler = nil
            let how = PageReturn(result)
            guard how == .unresponsive, result != nil, page.sharesProcessWithAnotherJob else { return release(page, how) }
            releaseOnceAnswered(page)
        }
    }

    /// Hands back a page that ran out of time in a process another job's page shares, once it is known whether the
    /// process is stuck: a process that answers a ping sent now is not, whatever the job timed out on, and goes on
    /// serving the page beside it; one that leaves it unanswered for `unresponsiveAfter` ends, and the page beside it
    /// runs again alone. (A ping answered earlier is no such evidence: the page may have got stuck since, and the
    /// page beside it, no longer beside another job, would stop pinging.)
    private func releaseOnceAnswered(_ page: any WebPage) {
        let release = self.release
        let decision = OneShot<PageReturn>()
        page.ping { decision.resolve(.success(.failed)) }
        let unanswered = Task {
            guard (try? await Task.sleep(for: Self.unresponsiveAfter)) != nil else { return }
            decision.resolve(.success(.unresponsive))
        }
        Task {
            let how = (try? await decision.wait()) ?? .unresponsive
            unanswered.cancel()
            release(page, how)
        }
    }

    /// Calls `body` in the page (in the isolated script world `world`, or the page's own) and sends the machine
    /// the event `reply` makes of its answer.
    private func call(
        _ body: String, sourceName: String, world: String? = nil, reply: @escaping @WebKitActor (JavaScriptReply) -> AttemptMachine.Event
    ) {
        page.callAsyncFunction(body, sourceName: sourceName, world: world) { [weak self] answer in
            self?.send(reply(answer))
        }
    }

    /// While another job's page is in use in the page's web process, pings the process: a ping unanswered for
    /// `unresponsiveAfter` is the evidence that one of the pages holds the process's thread, and ends the
    /// attempt so that the job runs again alone. A call to the job's script is no such evidence: its answer may
    /// wait on what the page controls (a promise that never settles).
    private func checkLiveness() {
        guard page.sharesProcessWithAnotherJob else {
            pingSent = nil
            return
        }
        if let pingSent {
            if ContinuousClock.now - pingSent >= Self.unresponsiveAfter { send(.sharedProcessStoppedAnswering(after: Self.unresponsiveAfter)) }
            return
        }
        let sent = ContinuousClock.now
        pingSent = sent
        page.ping { [weak self] in
            guard let self, pingSent == sent else { return }
            pingSent = nil
        }
    }
}
