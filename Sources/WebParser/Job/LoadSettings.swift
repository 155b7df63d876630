import FoundationEssentials

/// How a job's URL is requested (Playwright's `page.goto` options).
public struct LoadSettings: Sendable, Equatable {
    /// Extra HTTP headers for the main document's request.
    public var headers: [String: String]
    /// The user name and password given when the server asks for HTTP authentication (basic or digest).
    public var credentials: WebParserJob.Credentials?
    /// Whether a server's untrusted certificate (self-signed, expired, for another host) is accepted. When
    /// false, such a load fails with `.tlsFailed` and is not retried.
    public var ignoresTLSErrors: Bool
    /// How the page itself is fetched.
    public var cachePolicy: WebParserJob.CachePolicy

    /// Settings with the defaults: no extra headers, no credentials, untrusted certificates refused, the HTTP
    /// cache used as it allows.
    public init(
        headers: [String: String] = [:], credentials: WebParserJob.Credentials? = nil,
        ignoresTLSErrors: Bool = false, cachePolicy: WebParserJob.CachePolicy = .default
    ) {
        self.headers = headers
        self.credentials = credentials
        self.ignoresTLSErrors = ignoresTLSErrors
        self.cachePolicy = cachePolicy
    }
}
