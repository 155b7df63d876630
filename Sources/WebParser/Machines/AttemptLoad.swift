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
        /// No document was shown, for `reason`: the server sent a download.
        case notLoaded(reason: String)
        /// WebKit ended the load without a document, a failure or a reason; `seen` says what it was seen doing.
        case endedWithoutDocument(seen: String)
        /// The document has loaded.
        case loaded
    }

    /// Whether the document shown may be on its way out, so that what is read of it now may not be what the page ends
    /// up showing (a page whose script sends it elsewhere as it loads).
    enum Leaving: Equatable {
        /// It stays.
        case no
        /// A navigation to another document was asked for since it came, of the page or of one of its frames (WebKit
        /// does not say which): an answer read now is read again, `leavingReads` times at most, unless the page's next
        /// load starts (it leaves), or a frame's document starts loading or the URL changes within the document (it
        /// stays). `reads`: the answers held so far.
        case maybe(reads: Int)
        /// The page's next load has started: an answer of the document shown is stale until that load's document comes.
        case yes
    }

    /// How many answers a possible navigation holds back at most (each read again after the poll interval).
    static let leavingReads = 5

    private(set) var url: String
    private(set) var leaving = Leaving.no
    private(set) var httpStatus = 0
    private(set) var phase = LoadPhase.waitingForServer
    private(set) var committed = false
    /// The number of the document shown: a reply from an earlier one is stale.
    private(set) var document = 0
    /// Whether a document of the attempt was requested yet.
    private var anyDocumentRequested = false
    /// What can change the document shown, besides webparse's calls.
    private(set) var shown = PageQuiet.Document.unknown
    /// The error status of the main document, held until the loaded document is checked for bot protection, with the
    /// server's Retry-After.
    private(set) var held: (status: Int, retryAfter: String?)?
    private var supersededLoadFinishing = false
    /// The main document WebKit could not show, if the load was refused for that.
    private var refusedMIMEType: String?
    /// What WebKit was seen doing for the attempt's page, said when a load ends without a document.
    private var sightings = LoadSightings()

    /// The load of `url`, about to start.
    init(url: String) {
        self.url = url
    }

    /// A load of `url` started (the job's, a step's navigation, the next page, the page's own).
    mutating func started(_ url: String) {
        sightings.started(url)
        leaving = document > 0 ? .yes : .no
        self.url = url
        phase = .waitingForServer
        committed = false
    }

    /// The load was redirected to `url`.
    mutating func redirected(_ url: String) {
        sightings.redirected(url)
        self.url = url
    }

    /// The document's URL changed without a load (history.pushState, a fragment).
    mutating func urlChanged(_ url: String) {
        if committed { self.url = url }
        if case .maybe = leaving { leaving = .no }
    }

    /// A navigation to `url` was asked for, of the page or one of its frames: the document shown may be leaving.
    mutating func navigationAsked(to url: String) {
        let scheme = url.prefix { $0 != ":" }.lowercased()
        guard committed, leaving == .no, ["http", "https", "file"].contains(scheme) else { return }
        leaving = .maybe(reads: 0)
    }

    /// A document's request is on its way; true for the attempt's first.
    mutating func documentRequested() -> Bool {
        defer { anyDocumentRequested = true }
        return !anyDocumentRequested
    }

    /// WebKit ended the load the tab had in progress before this attempt's load started.
    mutating func earlierLoadEnded() {
        sightings.earlierLoadEnded()
    }

    /// webparse refused the page's navigation to `url`.
    mutating func navigationRefused(_ url: String) {
        sightings.navigationRefused(url)
    }

    /// Load `id` of the page's documents or subresources got so far: the main document's is watched.
    mutating func resource(id: UInt64, _ progress: ResourceLoad) {
        switch progress {
        case .started(_, mainDocument: true): sightings.mainRequestSent(id: id)
        case .started: break
        case .responded(let mimeType): sightings.responded(id: id, mimeType: mimeType)
        case .ended(let url): sightings.ended(id: id, url: url)
        }
    }

    /// A document's load started without a load of the page's: the navigation asked for was a frame's.
    mutating func documentLoadStarted() {
        if case .maybe = leaving { leaving = .no }
    }

    /// Whether an answer read now is held back and read again, as the document shown may be leaving; counts it.
    mutating func holdsAnswer() -> Bool {
        switch leaving {
        case .no:
            return false
        case .yes:
            return true
        case .maybe(let reads):
            leaving = reads < Self.leavingReads ? .maybe(reads: reads + 1) : .no
            return reads < Self.leavingReads
        }
    }

    /// The main document of `url` arrived with `httpStatus`, shown with `page`'s settings.
    mutating func committed(url: String, httpStatus: Int, retryAfter: String?, refresh: String?, page: PageSettings) -> Commit {
        self.url = url
        self.httpStatus = httpStatus
        committed = true
        leaving = .no
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
        guard committed else {
            return refusedMIMEType.map { .notLoaded(reason: Self.download($0)) } ?? .endedWithoutDocument(seen: sightings.description)
        }
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
            // The load ended without a document (a form posted to a 204, a stopped load): the document shown stays,
            // unless a newer load replaced this one, whose start may have come first.
            if !committed, leaving == .yes { leaving = .maybe(reads: 0) }
            return .superseded
        }
        if let target = LoadFailureTriage.redirectTarget(of: failure) {
            return .fails(WebParserError(LoadFailureTriage.redirected(to: target), url: url))
        }
        // An error page that had arrived and did not finish loading fails with its status.
        if let held { return .fails(httpStatusError(held.status, retryAfter: held.retryAfter)) }
        return .fails(failure.error.failure(of: failure.url))
    }

    /// The error of the main document's HTTP error `status`, after the server's Retry-After.
    func httpStatusError(_ status: Int, retryAfter: String?) -> WebParserError {
        var error = WebParserError(.httpStatus(status), url: url)
        error.retryAfter = retryAfter.flatMap { RetryAfter.parse($0) }
        if error.retryAfter == nil { error.unreadRetryAfter = retryAfter }
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
