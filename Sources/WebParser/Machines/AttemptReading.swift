import FoundationEssentials

/// The job's script in an attempt's pages: whether it is being read, the document its slice is installed in, how
/// long an answer must settle, and what the script and the page last said while the answer was empty. It makes
/// the calls that read the script and the steps' calls, and says what a reply means.
struct AttemptReading {
    /// A call the reading makes in the page.
    enum Call: Equatable {
        /// Reads the script in document number `document`; its reply is the reading's.
        case evaluate(body: String, document: Int)
        /// Calls `body` for its effect only (telling the page its requests' state, installing the script).
        case notify(body: String)
        /// Calls a step's `body` in document number `document`; its reply is the steps'.
        case callStep(body: String, document: Int)
    }

    /// What a reply of the script means for the attempt.
    enum Reading: Equatable {
        /// An answer, final on the page: what made it final and the document's title then, when the page said.
        case answer(Data, settledBy: String?, title: String?)
        /// The script is wrong: the attempt fails.
        case failed(WebParserError.Kind)
        /// The script does not parse: its failure is explained off the WebKit thread.
        case explain(ScriptFailure)
        /// Read again at once: the answer was empty for a whole slice (`readsPageError`: and ask for the page's last
        /// error, which a time-out tells), or the document did not have the script.
        case again(readsPageError: Bool)
        /// Read again after the poll interval: the page went away during the call.
        case later
    }

    /// The page as a reading sees it: the number of the document a call goes to, whether the page's requests are
    /// in flight, and what the document shown is.
    struct Page: Equatable {
        var document: Int
        var busy: Bool
        var shown: PageQuiet.Document
    }

    /// The script wrapped for the page.
    let script: PageScript
    private let job: WebParserJob
    /// Whether the script is being read (the steps are done and the page has loaded).
    private(set) var isReading = false
    /// The number of the document the script's slice function is installed in.
    private var installedIn: Int?
    /// How long the script's answer must settle before it is final: the job's `settle`, or longer for an answer
    /// equal to the one before the steps acted.
    private var settleFor: Duration
    /// What the script or its wait last answered while the result was empty, or why the responses are not there yet.
    private var lastAnswer: String?
    /// The page's own last uncaught error, as last read.
    private var lastPageError: String?

    /// The reading of `job`'s `script`. The responses are complete once the page has settled, as a script's result
    /// is; emitted values once the user scripts say so.
    init(job: WebParserJob, script: PageScript) {
        self.job = job
        self.script = script
        settleFor = script.isFinalOnceWaitHolds || job.evaluation.collect == .emitted ? .zero : job.evaluation.settle
    }

    /// Whether the steps read the job's answer just before they act: an answer they did not change must hold longer.
    var stepsReadTheAnswer: Bool { settleFor > .zero && job.evaluation.collect == .result }

    /// Starts reading the script, once; false when it is already read, or there is no script (emitted values).
    mutating func start() -> Bool {
        guard !isReading else { return false }
        if job.evaluation.collect == .emitted && job.evaluation.script.allSatisfy(\.isWhitespace) { return false }
        isReading = true
        return true
    }

    /// Whether the script's slice function is installed in document number `document`.
    func isInstalled(in document: Int) -> Bool { installedIn == document }

    /// The call that reads the script in `page`: the whole script once per document, a few bytes after; with
    /// `responses`, the records a script of the responses is given.
    mutating func evaluation(on page: Page, responses: Data?) -> Call {
        let body = script.body(
            installed: isInstalled(in: page.document), busy: page.busy, document: page.shown, settle: settleFor, responses: responses)
        installedIn = page.document
        return .evaluate(body: body, document: page.document)
    }

    /// The calls of `step` in `page`; a step that reads the job's answer before it acts (`probes`) needs the job's
    /// script in its document.
    mutating func stepCalls(_ step: Step, on page: Page, probes: Bool) -> [Call] {
        var calls: [Call] = []
        if probes && !isInstalled(in: page.document) {
            installedIn = page.document
            calls.append(.notify(body: script.installBody))
        }
        let preamble = script.quiet.preamble(busy: page.busy, document: page.shown)
        let body = StepScript.body(of: step, settle: job.evaluation.settle, probe: probes ? script.probe : nil, preamble: preamble) ?? ""
        return calls + [.callStep(body: body, document: page.document)]
    }

    /// The call that checks where the last click landed, in `page`.
    func actionCheck(on page: Page) -> Call {
        .callStep(body: StepScript.actionCheck(preamble: script.quiet.preamble(busy: page.busy, document: page.shown)), document: page.document)
    }

    /// The call that tells the page whether its requests are in flight.
    func notification(on page: Page) -> Call {
        .notify(body: script.quiet.notifyBody(busy: page.busy, document: page.shown))
    }

    /// Keeps `error`, the page's own last uncaught error in the document being read, which a time-out tells.
    mutating func pageErrorRead(_ error: String) {
        lastPageError = error
    }

    /// What `reply`, the page's answer to a reading, means.
    mutating func read(_ reply: JavaScriptReply) -> Reading {
        switch script.outcome(of: reply) {
        case .value(let answer, let by, let title):
            return .answer(answer, settledBy: by, title: title)
        case .failure(let kind):
            return .failed(kind)
        case .syntaxError(let failure):
            return .explain(failure)
        case .empty(let answer):
            lastAnswer = answer ?? lastAnswer
            return .again(readsPageError: true)
        case .notInstalled:
            installedIn = nil
            return .again(readsPageError: false)
        case .interrupted:
            installedIn = nil
            return .later
        }
    }

    /// Whether `answer`, final on the page, must hold longer: it is the answer from before the steps acted, so the
    /// page may still re-render (after a timer, a websocket message). It then settles longer, once.
    mutating func holdsLonger(_ answer: Data, answerBefore: Data?, listHasPages: Bool) -> Bool {
        guard answer == answerBefore, settleFor < Evaluation.unchangedAfterSteps, !listHasPages else { return false }
        settleFor = Evaluation.unchangedAfterSteps
        return true
    }

    /// Keeps why the responses are not complete yet, which a time-out tells.
    mutating func notYet(_ reason: String) {
        lastAnswer = reason
    }

    /// `error`, a time-out while the result was awaited, with what the script last answered and the page's last
    /// error.
    func explained(_ error: WebParserError) -> WebParserError {
        var error = error
        (error.lastAnswer, error.pageError) = (lastAnswer, lastPageError)
        return error
    }
}
