/// Why a job failed, whether retrying could help, and how many attempts were made.
public struct WebParserError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong.
    public var kind: Kind
    /// The URL the failure concerns, when there is one.
    public var url: String?
    /// How many attempts the job made before it gave up (1 when it failed on the first).
    public var attempts: Int
    /// How long the server asked to wait before trying again (its Retry-After header), if it said.
    public var retryAfter: Duration?
    /// The server's Retry-After header when it was neither a number of seconds nor an HTTP date (a negative number,
    /// a word): it asked for no wait that webparse could read.
    public var unreadRetryAfter: String?
    /// For a time-out while waiting for the script's result: what the script or its wait last answered, in
    /// words ("the script returned [] (empty; …)", "waitFor returned false").
    public var lastAnswer: String?
    /// For a time-out while waiting for the script's result: the last uncaught exception or unhandled rejection of
    /// the page's own code (`Uncaught TypeError: … (https://…/app.js:12:5)`), which is most often why the data never
    /// came; nil when the page threw none.
    public var pageError: String?
    /// The error of the layer below that caused this one, when there is one: the GLib, GIO, libsoup or WebKit
    /// error WebKit reported for a failed load.
    public var cause: Cause?
    /// True when the job's steps had acted on the page (clicked, filled, submitted…) before it failed: it is then
    /// not retried, so that nothing a step did (an order, a post) is done twice.
    public var stepsActed = false

    /// Whether the failure may be another job's doing: the web process it shared with another job's page ended
    /// or stopped answering. `WebParserRunner` then runs the job again once, in a web process of its own, in what is
    /// left of the attempt's time, without counting the attempt.
    var mayBeAnotherJobsDoing: Bool { kind == .sharedWebProcessEnded || kind.isUnresponsive }

    /// True when WebKit ended the page's load without a document, a failure or a download to say why: a load the
    /// tab mixed up with its earlier one's is the one cause seen. `WebParserRunner` runs the job again once, in a
    /// fresh tab in a web process of its own, as for `mayBeAnotherJobsDoing`.
    var loadEndedWithoutDocument = false

    /// Whether the attempt runs again once, at once, in a fresh tab in a web process of its own, in what is left of
    /// its time, without counting: the failure may be another job's doing, or the tab's.
    var runsAgainAlone: Bool { mayBeAnotherJobsDoing || loadEndedWithoutDocument }

    /// Creates an error of `kind` about `url` after `attempts` attempts.
    public init(_ kind: Kind, url: String? = nil, attempts: Int = 1) {
        self.kind = kind
        self.url = url
        self.attempts = attempts
    }

    /// True when a fresh attempt could succeed (time-outs while the server answered or the page loaded,
    /// refused or lost connections, 5xx and 429, a crashed web process); false when it cannot (a wrong script,
    /// 4xx, TLS, a bad URL, no display), and for a time-out on a page that loaded while only the script's data
    /// was missing: a reload rarely brings data a loaded page did not show (`RetryPolicy.retriesMissingData`
    /// retries it all the same).
    public var isTransient: Bool { kind.isTransient && !stepsActed }

    /// The place among the job's steps (`3`, `2.then.1`) of the step the failure concerns, when a step failed
    /// or ran out of time.
    public var step: String? {
        switch kind {
        case .stepFailed(let place, _, _), .timedOut(.runningStep(let place, _), _): place
        default: nil
        }
    }

    /// What went wrong, as a stable name for programs (`WebParserError.Code`): it does not change with the
    /// message's wording.
    public var code: Code { kind.code }

    /// One line for people: what failed, where, and after how many attempts.
    public var description: String {
        var text = kind.detail
        if let url, !url.isEmpty { text += " (\(URLRedaction.redact(url)))" }
        if let lastAnswer { text += ": \(lastAnswer)" }
        if let pageError { text += "; the page's last error: \(pageError)" }
        if attempts > 1 { text += "; gave up after \(attempts) attempts" }
        if stepsActed && kind.isTransient { text += "; not retried, as its steps had acted on the page" }
        return text
    }

    /// An error as WebKit reported it: its GLib error domain's name (`g-io-error-quark`, `WebKitNetworkError`),
    /// code and message.
    public struct Cause: Sendable, Equatable, CustomStringConvertible {
        /// The GLib error domain's name.
        public var domain: String
        /// The error's code in its domain.
        public var code: Int
        /// The error's message, in WebKit's words.
        public var message: String

        /// The message with its domain and code: `Connection refused [g-io-error-quark 39]`.
        public var description: String { "\(message) [\(domain) \(code)]" }
    }

    /// What went wrong.
    public enum Kind: Sendable, Equatable {
        /// The attempt ran out of time in `phase`.
        case timedOut(phase: LoadPhase, after: Duration)
        /// Nothing listens at the server's address.
        case connectionRefused
        /// The host name does not resolve.
        case hostNotFound
        /// The connection broke or the network failed in a way that may pass.
        case connectionLost(String)
        /// The load failed in a way retrying cannot fix (missing file, download, refused scheme…).
        case loadFailed(String)
        /// The server's redirects went on past WebKit's limit (a loop); its code is `load-failed`.
        case tooManyRedirects
        /// The certificate or TLS handshake was rejected.
        case tlsFailed(String)
        /// The URL cannot be loaded by webparse (only `http`, `https` and `file` can).
        case unsupportedURL(String)
        /// The main document came with an HTTP error status.
        case httpStatus(Int)
        /// The page is a bot protection service's (`by`: "Cloudflare challenge", "DataDome"…), which came with HTTP
        /// status `status`: not retried unless the job's `RetryPolicy.retriesBlocked`.
        case blocked(by: String, status: Int)
        /// The script threw, or does not parse.
        case scriptFailed(ScriptFailure)
        /// The script returned something that is not data, such as a DOM node.
        case unsupportedResult(String)
        /// The page's web process crashed.
        case webProcessCrashed
        /// The page's web process ended before the page's document arrived: it crashed, or WebKit ended it
        /// because the server redirected the page to a `file:` URL (WebKit gives no other sign of that).
        case webProcessEndedBeforePage
        /// The page's web process used more memory than allowed and was killed.
        case memoryLimitExceeded
        /// The web process the page shared with another job's page ended: it crashed or went over the memory
        /// limit (WebKit does not say because of which page), or it was stopped because the other job ended while
        /// its page may have been stuck in JavaScript. `WebParserRunner` runs the job again once, at once, in a web
        /// process of its own, and that attempt does not count (unless the job's steps had acted); once a shared
        /// process goes over the limit, the session's new pages each get a process of their own.
        case sharedWebProcessEnded
        /// The web process the page shared with another job's page left a ping unanswered for the duration: one
        /// of the pages held its one thread (a script stuck in a loop). As for `sharedWebProcessEnded`, the job
        /// runs again once, at once, in a web process of its own, and that attempt does not count; the process
        /// is ended, so the other job's page does the same.
        case sharedWebProcessUnresponsive(after: Duration)
        /// WebKit cannot run here: no display, or GTK failed to start.
        case environmentUnavailable(String)
        /// The job asks for something that cannot work, such as collecting emitted values without user scripts.
        case invalidJob(String)
        /// A step of the job could not be done: which one (its place among the steps: `3`, or `2.then.1` in an
        /// `if` step's branch), and why.
        case stepFailed(step: String, Step, reason: String)
        /// The screenshot could not be taken or written.
        case screenshotFailed(String)
        /// The session's cookies or stored data could not be read, written, listed or cleared; says which file
        /// and why.
        case storageFailed(String)

        /// See `WebParserError.isTransient`.
        public var isTransient: Bool {
            switch self {
            case .timedOut: !isMissingData
            case .connectionRefused, .connectionLost, .webProcessCrashed, .webProcessEndedBeforePage,
                .sharedWebProcessEnded, .sharedWebProcessUnresponsive:
                true
            case .httpStatus(let status): status == 429 || status >= 500
            default: false
            }
        }

        /// True when a shared web process stopped answering.
        var isUnresponsive: Bool {
            if case .sharedWebProcessUnresponsive = self { true } else { false }
        }

        /// True for a page of bot protection.
        public var isBlocked: Bool {
            if case .blocked = self { true } else { false }
        }

        /// True for a time-out, in any phase.
        var isTimeOut: Bool {
            if case .timedOut = self { true } else { false }
        }

        /// True for a time-out on a page that loaded while only the script's data was missing, or while a step
        /// waited for what it acts on (the page's document had arrived).
        public var isMissingData: Bool {
            switch self {
            case .timedOut(.waitingForResult, _), .timedOut(.runningStep, _): true
            default: false
            }
        }

        /// The kind in words, without URL or attempts.
        public var detail: String {
            switch self {
            case .timedOut(let phase, let after):
                "timed out after \(after.secondsText) while \(phase)"
            case .connectionRefused: "connection refused"
            case .hostNotFound: "host not found"
            case .connectionLost(let message): "connection failed: \(message)"
            case .loadFailed(let message): "load failed: \(message)"
            case .tooManyRedirects: "load failed: too many redirects"
            case .tlsFailed(let message): "TLS failed: \(message)"
            case .unsupportedURL(let reason): "unsupported URL: \(reason)"
            case .httpStatus(let status): "HTTP status \(status)"
            case .blocked(let service, let status): "blocked by bot protection (\(service), \(status))"
            case .scriptFailed(let failure): "script failed: \(failure)"
            case .unsupportedResult(let what): "the script's result is not data: \(what)"
            case .webProcessCrashed: "the page's web process crashed"
            case .webProcessEndedBeforePage:
                "the page's web process ended before the page arrived: it crashed, or WebKit ended it because the server "
                    + "redirected to a file: URL, which no web page may open"
            case .memoryLimitExceeded: "the page used too much memory and was stopped"
            case .sharedWebProcessEnded:
                "the web process this page shared with another job's page ended (it crashed, went over the memory limit, "
                    + "or was stopped for that page)"
            case .sharedWebProcessUnresponsive(let after):
                "the web process this page shared with another job's page did not answer for \(after.secondsText) "
                    + "(a page there was stuck in JavaScript)"
            case .environmentUnavailable(let reason): "WebKit cannot start: \(reason)"
            case .invalidJob(let reason): "invalid job: \(reason)"
            case .stepFailed(let place, let step, let reason): "step \(place) (\(step)) failed: \(reason)"
            case .screenshotFailed(let reason): "screenshot failed: \(reason)"
            case .storageFailed(let reason): reason
            }
        }
    }
}

/// Where a page was when its attempt ran out of time.
public enum LoadPhase: Sendable, Equatable, CustomStringConvertible {
    /// No response from the server yet.
    case waitingForServer
    /// The document arrived but has not finished loading.
    case loading
    /// The page has loaded; the script's result is still empty.
    case waitingForResult
    /// The step at a place among the job's steps (`3`, `2.then.1`) was waiting for what it acts on, or for what
    /// it waits for.
    case runningStep(String, Step)

    /// The phase in words, such as "waiting for the server".
    public var description: String {
        switch self {
        case .waitingForServer: "waiting for the server"
        case .loading: "loading the page"
        case .waitingForResult: "waiting for the script's result"
        case .runningStep(let place, let step): "running step \(place) (\(step))"
        }
    }
}

/// A JavaScript error raised by a job's script or its `waitFor`, located in that code's own lines.
public struct ScriptFailure: Sendable, Equatable, CustomStringConvertible {
    /// Which of a job's JavaScript failed.
    public enum Part: Sendable, Equatable {
        /// The job's `script`.
        case script
        /// The job's `waitFor`.
        case waitFor
        /// The job's `waitForSelector`.
        case waitForSelector
    }

    /// The error's name and message, such as `TypeError: null is not an object`.
    public var message: String
    /// The line in `part`, from 1, when known.
    public var line: Int?
    /// The column in that line, from 1, when known.
    public var column: Int?
    /// The code the line and column are in.
    public var part: Part
    /// How to write what was probably meant, when webparse can tell (a CSS selector where JavaScript goes).
    public var hint: String?

    /// Creates a failure with `message` at `line` and `column` of `part`.
    public init(message: String, line: Int? = nil, column: Int? = nil, part: Part = .script) {
        self.message = message
        self.line = line
        self.column = column
        self.part = part
    }

    /// The message, with its line, column and part when known, and the hint.
    public var description: String {
        let partName = part == .script ? nil : part == .waitFor ? "waitFor" : "waitForSelector"
        var text = message
        if let line {
            text += " at line \(line)" + (column.map { ", column \($0)" } ?? "") + (partName.map { " of \($0)" } ?? "")
        } else if let partName {
            text += " in \(partName)"
        }
        return text + (hint.map { "; \($0)" } ?? "")
    }
}
