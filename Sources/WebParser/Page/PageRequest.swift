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
    /// HTML shown as the document at `url` instead of asking its server (`WebParserJob.document`).
    var document: String?

    init(
        url: URL, headers: [String: String] = [:], credentials: WebParserJob.Credentials? = nil,
        trustsAnyCertificate: Bool = false
    ) {
        self.url = url
        self.headers = headers
        self.credentials = credentials
        self.trustsAnyCertificate = trustsAnyCertificate
    }

    /// The request for `job`'s page.
    init(for job: WebParserJob) {
        self.init(
            url: job.url, headers: job.load.headers, credentials: job.load.credentials,
            trustsAnyCertificate: job.load.ignoresTLSErrors)
        capture = job.capture
        recordsLoads = job.recordsRequests || job.capture?.capturesLoads == true
        document = job.document
    }

    /// The request for `url`, a page that `job`'s page leads to (its next page): the job's headers, credentials
    /// and trust in an untrusted certificate go with it only on the job's own origin, never to a host a page
    /// names.
    init(following url: URL, of job: WebParserJob) {
        let sameOrigin =
            url.scheme?.lowercased() == job.url.scheme?.lowercased() && url.host()?.lowercased() == job.url.host()?.lowercased()
            && (url.port ?? -1) == (job.url.port ?? -1)
        self.init(
            url: url, headers: sameOrigin ? job.load.headers : [:], credentials: sameOrigin ? job.load.credentials : nil,
            trustsAnyCertificate: sameOrigin && job.load.ignoresTLSErrors)
        capture = job.capture
        recordsLoads = job.recordsRequests || job.capture?.capturesLoads == true
    }
}
