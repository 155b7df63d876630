/// The decisions of one WebKit page between its view's events and its job, as a plain value: which events pass
/// on, the certificate check that holds a failed load's end, what its web process's news is, and when the fresh
/// tab for the next job is prepared. `WebKitPage` carries them out.
struct PageMachine: Equatable {
    /// Where the page is.
    enum State: Equatable {
        /// Events pass on to the job.
        case open
        /// A load failed in a way that may hide an untrusted certificate (`LoadFailureTriage`): the failure, and
        /// the load's end that follows it, are held while the server's certificate is checked. Other events pass:
        /// a crash is not held up.
        case checkingCertificate(PageLoadFailure, held: [PageEvent])
        /// The page was closed: nothing passes any more.
        case closed
    }

    /// The fresh tab that replaces the page after a successful job.
    enum Successor: Equatable {
        /// None is prepared ahead: the page's process will have served its loads, or the page was not checked out.
        case notWanted
        /// One is prepared once the page's document has arrived: WebKit then builds it while the job goes on.
        case wanted
        /// It is prepared.
        case prepared
    }

    /// What the page does.
    enum Action: Equatable {
        /// Hands the event on to the job.
        case deliver(PageEvent)
        /// Tells the pool that a load in the page's web process started or failed: the process is up.
        case processUp
        /// Tells the pool that the page's web process ended so, and hands on what the pool says the job is told.
        case processEnded(ProcessTermination)
        /// Checks the certificate of the server of `failure`'s URL; the answer comes as `certificateChecked`.
        case checkCertificate(PageLoadFailure)
        /// Trusts the untrusted certificate of the server of `url` and loads `url` again.
        case trustCertificate(url: String)
        /// Builds the fresh tab for the next job.
        case prepareSuccessor
    }

    private(set) var state = State.open
    private(set) var successor = Successor.notWanted
    /// Whether the current load accepts an untrusted certificate.
    private(set) var trustsAnyCertificate = false
    /// Whether what the tab's earlier document says is dropped: from a check-out of a tab that served another job
    /// of its tab group until the new job's document commits, so that nothing of one page reaches the next one's job.
    private(set) var dropsEarlierDocument = false

    /// Whether a load webparse asked for has not started yet: until it starts, the view's load events are the end of
    /// the load the tab had in progress. WebKit ends that load when the new one is asked for, before the new one
    /// starts, and when its document had come (the page was still loading a stylesheet) with no failure, only its
    /// end: taken as the new load's, that end was a load without a document, and the page was lost.
    private(set) var earlierLoadEnding = false

    /// The page starts a load that trusts any certificate or not.
    mutating func loadStarting(trustsAnyCertificate: Bool) {
        self.trustsAnyCertificate = trustsAnyCertificate
        earlierLoadEnding = true
    }

    /// The page is checked out: whether it prepares the fresh tab for the next job, and whether it served another
    /// job before (a tab group's tab).
    mutating func checkedOut(preparingSuccessor: Bool, afterAnotherJob: Bool = false) {
        if successor != .prepared { successor = preparingSuccessor ? .wanted : .notWanted }
        dropsEarlierDocument = afterAnotherJob
    }

    /// The prepared fresh tab was taken (or closed).
    mutating func successorTaken() {
        successor = .notWanted
    }

    /// Takes an event of the page's view and says what to do.
    mutating func receive(_ event: PageEvent) -> [Action] {
        // Before the certificate check: a failure of the earlier load must not hold the new load's events.
        if state != .closed, earlierLoadEnding, let actions = earlierLoadEvent(event) { return actions }
        switch (state, event) {
        case (.closed, _):
            return []
        case (.checkingCertificate(let failure, var held), .finished):
            held.append(event)
            state = .checkingCertificate(failure, held: held)
            return []
        case (.open, .failed(let failure)) where LoadFailureTriage.mayHideUntrustedCertificate(failure):
            state = .checkingCertificate(failure, held: [])
            return [.checkCertificate(failure)]
        default:
            return pass(event)
        }
    }

    /// The certificate check `checkCertificate` asked for is over: `untrusted` when the server's certificate is
    /// not trusted. The held failure becomes a trusted certificate's reload (when the load accepts any) or the
    /// certificate's failure, or stays as it was for a trusted certificate; then the held events go on.
    mutating func certificateChecked(untrusted: Bool) -> [Action] {
        guard case .checkingCertificate(let failure, let held) = state else { return [] }
        state = .open
        var actions: [Action]
        if untrusted && trustsAnyCertificate {
            actions = [.trustCertificate(url: failure.url), .deliver(.certificateTrusted)]
        } else {
            actions = pass(.failed(untrusted ? LoadFailureTriage.untrustedCertificate(at: failure.url) : failure))
        }
        for event in held { actions += pass(event) }
        return actions
    }

    /// The page is closed.
    mutating func close() {
        state = .closed
        successor = .notWanted
    }

    /// What becomes of `event` while webparse's load has not started: the earlier load's events are kept from the job
    /// (its end said as such); nil for an event that goes on as usual (the new load's start ends the wait).
    private mutating func earlierLoadEvent(_ event: PageEvent) -> [Action]? {
        switch event {
        case .started:
            earlierLoadEnding = false
            return nil
        case .finished:
            return [.deliver(.earlierLoadEnded)]
        case .redirected, .committed, .failed, .progress, .responseRefused:
            return []
        default:
            return nil
        }
    }

    private mutating func pass(_ event: PageEvent) -> [Action] {
        if dropsEarlierDocument {
            switch event {
            case .committed:
                dropsEarlierDocument = false
            case .message, .urlChanged, .popupOpened, .popupBlocked, .navigationAsked, .navigationRefused, .traffic(.captured), .traffic(.readStarted),
                .traffic(.readEnded), .traffic(.requestSent), .traffic(.bodyWanted(mainDocument: false)),
                .traffic(.recorded(_, _, mainDocument: false)):
                return []
            default:
                break
            }
        }
        switch event {
        case .started, .failed:
            return [.processUp, .deliver(event)]
        case .processTerminated(let termination):
            return [.processEnded(termination)]
        case .committed where successor == .wanted:
            successor = .prepared
            return [.deliver(event), .prepareSuccessor]
        default:
            return [.deliver(event)]
        }
    }
}
