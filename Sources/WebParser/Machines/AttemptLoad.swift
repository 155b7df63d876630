import FoundationEssentials

/// Where an attempt's page is and how its load goes: its URL, the main document's status, the load's phase, which
/// document it shows (a reply from an earlier one is stale), what can change that document, and an error status held
/// until the document is checked for bot protection. Each load event is turned into what it means for the attempt.
struct AttemptLoad {
    /// What a committed main document means.
    enum Commit: Equatable {
        /// A document to read (a new one: what was read of the earlier one is stale).
        case shown
        /// An error status held until the document has loaded, which may be bot protection's (`BotProtection.statuses`).
        case held
        /// The document came with an HTTP error status: the attempt fails with it.
        case httpError(status: Int, retryAfter: String?)
        /// WebKit refused the URL and shows `about:blank` instead.
        case refused
    }

    /// What the end of a load means.
    enum Finish: Equatable {
        /// The end of a load a newer navigation (or a trusted certificate's reload) replaced: not the attempt's.
        case superseded
        /// The document of a held error status has loaded: it is checked for bot protection.
        case checkBlocked(document: Int)
        /// No document was shown, for `reason`.
        case notLoaded(reason: String)
        /// The document has loaded.
        case loaded
    }

    private(set) var url: String
    private(set) var httpStatus = 0
    private(set) var phase = LoadPhase.waitingForServer
    private(set) var committed = false
    /// The number of the document shown: a reply from an earlier one is stale.
    private(set) var document = 0
    /// What can change the document shown, besides webparse's calls.
    private(set) var shown = PageQuiet.Document.unknown
    /// The error status of the main document, held until the loaded document is checked for bot protection, with the
    /// server's Retry-After.
    private(set) var held: (status: Int, retryAfter: String?)?
    private var supersededLoadFinishing = false
    /// The main document WebKit could not show, if the load was refused for that.
    private var refusedMIMEType: String?

    /// The load of `url`, about to start.
    init(url: String) {
        self.url = url
    }

    /// A load of `url` started (the job's, a step's navigation, the next page).
    mutating func started(_ url: String) {
        self.url = url
        phase = .waitingForServer
        committed = false
    }

    /// The load was redirected to `url`.
    mutating func redirected(_ url: String) {
        self.url = url
    }

    /// The document's URL changed without a load (history.pushState, a fragment).
    mutating func urlChanged(_ url: String) {
        if committed { self.url = url }
    }

    /// The main document of `url` arrived with `httpStatus`, shown with `page`'s settings.
    mutating func committed(url: String, httpStatus: Int, retryAfter: String?, refresh: String?, page: PageSettings) -> Commit {
        self.url = url
        self.httpStatus = httpStatus
        committed = true
        shown = PageQuiet.Document(page: page, refreshHeader: refresh)
        // A page of bot protection or an ordinary error page: told once it has loaded. A document that replaced such a
        // page (a challenge that passed) is judged on its own.
        held = BotProtection.statuses.contains(httpStatus) ? (httpStatus, retryAfter) : nil
        if held == nil {
            if httpStatus >= 400 { return .httpError(status: httpStatus, retryAfter: retryAfter) }
            if url == "about:blank" { return .refused }
        }
        phase = .loading
        document += 1
        return held == nil ? .shown : .held
    }

    /// The load ended.
    mutating func finished() -> Finish {
        guard !supersededLoadFinishing else {
            supersededLoadFinishing = false
            return .superseded
        }
        if held != nil { return .checkBlocked(document: document) }
        guard committed else { return .notLoaded(reason: refusedMIMEType.map(Self.download) ?? "WebKit did not load the page") }
        phase = .waitingForResult
        return .loaded
    }

    /// What a failed load means.
    enum Failure {
        /// A newer navigation replaced the load, or a navigation webparse refused was stopped: the page goes on, as in
        /// a browser.
        case superseded
        /// The attempt fails with the error.
        case fails(WebParserError)
    }

    /// The load failed with `failure`.
    mutating func failed(_ failure: PageLoadFailure) -> Failure {
        if let download = refusedDownload, LoadFailureTriage.isPolicyInterruption(failure) {
            return .fails(WebParserError(.loadFailed(download), url: failure.url))
        }
        if LoadFailureTriage.isSuperseded(failure) || LoadFailureTriage.isPolicyInterruption(failure) {
            superseded()
            return .superseded
        }
        if let target = LoadFailureTriage.redirectTarget(of: failure) {
            return .fails(WebParserError(LoadFailureTriage.redirected(to: target), url: url))
        }
        // An error page that had arrived and did not finish loading fails with its status.
        if let held { return .fails(httpStatusError(held.status, retryAfter: held.retryAfter)) }
        var error = WebParserError(failure.error.meaning, url: failure.url)
        error.cause = failure.error.cause
        return .fails(error)
    }

    /// The error of the main document's HTTP error `status`, after the server's Retry-After.
    func httpStatusError(_ status: Int, retryAfter: String?) -> WebParserError {
        var error = WebParserError(.httpStatus(status), url: url)
        error.retryAfter = retryAfter.flatMap { RetryAfter.parse($0) }
        return error
    }

    /// A newer navigation (or a trusted certificate's reload) replaced the load: its failure and end are not the attempt's.
    mutating func superseded() {
        supersededLoadFinishing = true
    }

    /// WebKit refused the main document of `mimeType`: it cannot show it.
    mutating func refused(mimeType: String) {
        refusedMIMEType = mimeType
    }

    /// Why a load interrupted by webparse's policy failed, when it was a download webparse refused.
    var refusedDownload: String? { refusedMIMEType.map(Self.download) }

    /// The held error status, taken once the check of `document` for bot protection is done; nil when the check is
    /// stale or nothing is held.
    mutating func takeHeld(checking document: Int) -> (status: Int, retryAfter: String?)? {
        guard document == self.document, let held else { return nil }
        self.held = nil
        return held
    }

    private static func download(_ mimeType: String) -> String {
        "the server sent a download (\(mimeType.isEmpty ? "no content type" : mimeType)), not a page"
    }

    /// What the end of the page's web process means for the job, whose URL is a local file's or not (`loadsFile`).
    func failure(of termination: ProcessTermination, loadsFile: Bool) -> WebParserError.Kind {
        termination.failure(beforePage: !committed && !loadsFile)
    }
}

extension ProcessTermination {
    /// What the end of a page's web process means for its job; `beforePage`: it ended before the page's document
    /// came. WebKit's UI process ends a web process whose navigation turns to a local file, and a server's redirect
    /// to file: is the one way a web page's load gets there before its document arrives; but a crash looks the
    /// same, so it is retried like one.
    func failure(beforePage: Bool) -> WebParserError.Kind {
        switch self {
        case .exceededMemoryLimit: .memoryLimitExceeded
        case .endedWithAnotherJob: .sharedWebProcessEnded
        case .crashed: beforePage ? .webProcessEndedBeforePage : .webProcessCrashed
        }
    }
}
