import FoundationEssentials

/// What one load asks of a page, beyond its URL.
struct PageRequest: Sendable, Equatable {
    var url: URL
    /// Added to the main document's request.
    var headers: [String: String] = [:]
    /// Given once if the server asks for HTTP authentication during this load.
    var credentials: WebParserJob.Credentials?
    /// Whether an untrusted certificate of the server is accepted for this load.
    var trustsAnyCertificate = false
    /// The responses the page's scripts read that are captured from this load on; nil captures none.
    var capture: WebParserJob.Capture?
    /// Whether the page reports its loads as they end (for the job's requests, or a capture of WebKit's loads).
    var recordsLoads = false
    /// Whether the page reports what its scripts read and what its scripts and forms send, for the job's requests
    /// (`WebParserJob.recordsRequests`), and whether the bodies of its loads are read for them too.
    var recordsRequests = false
    var recordsBodies = false
    /// HTML shown as the document at `url` instead of asking its server (`WebParserJob.document`).
    var document: String?
    /// Where the page's documents get the function that tells what is pending in the page (`PageQuiet.workKey`):
    /// its name, and whether in the page's main world, in webparse's own, or both; nil: nowhere.
    var work: PendingWorkAccess?

    /// Where a page's documents get the function that tells what is pending in the page.
    struct PendingWorkAccess: Sendable, Equatable {
        /// The function's name on the main frame's window.
        var key: String
        /// In the page's main world: for a script or steps that run there.
        var inMainWorld: Bool
        /// In webparse's own script world (`WebParserJob.isolatedWorld`): for a script that runs there.
        var inOwnWorld: Bool

        /// Where `job`'s script and steps reach the function named `key`.
        init(key: String, for job: WebParserJob) {
            self.key = key
            inOwnWorld = job.scriptWorld != nil
            inMainWorld = job.scriptWorld == nil || !job.evaluation.steps.isEmpty
        }
    }

    init(
        url: URL, headers: [String: String] = [:], credentials: WebParserJob.Credentials? = nil,
        trustsAnyCertificate: Bool = false
    ) {
        self.url = url
        self.headers = headers
        self.credentials = credentials
        self.trustsAnyCertificate = trustsAnyCertificate
    }

    /// The request for `job`'s page, whose script's pending-work function is named `workKey`.
    init(for job: WebParserJob, workKey: String) {
        self.init(
            url: job.url, headers: job.load.headers, credentials: job.load.credentials,
            trustsAnyCertificate: job.load.ignoresTLSErrors)
        document = job.document
        take(job, workKey: workKey)
    }

    /// The request for `url`, a page that `job`'s page leads to (its next page): the job's headers, credentials
    /// and trust in an untrusted certificate go with it only on the job's own origin, never to a host a page
    /// names.
    init(following url: URL, of job: WebParserJob, workKey: String) {
        let sameOrigin =
            url.scheme?.lowercased() == job.url.scheme?.lowercased() && url.host()?.lowercased() == job.url.host()?.lowercased()
            && (url.port ?? -1) == (job.url.port ?? -1)
        self.init(
            url: url, headers: sameOrigin ? job.load.headers : [:], credentials: sameOrigin ? job.load.credentials : nil,
            trustsAnyCertificate: sameOrigin && job.load.ignoresTLSErrors)
        take(job, workKey: workKey)
    }

    /// What every load of `job` asks of the page: its capture, its recording, and where its script's pending-work
    /// function (named `workKey`) goes.
    private mutating func take(_ job: WebParserJob, workKey: String) {
        capture = job.capture
        recordsLoads = job.recordsRequests || job.capture?.capturesLoads == true
        recordsRequests = job.recordsRequests
        recordsBodies = job.recordsRequests && job.recordsBodies
        work = PendingWorkAccess(key: workKey, for: job)
    }
}
