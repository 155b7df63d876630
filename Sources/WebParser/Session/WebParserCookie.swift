import FoundationEssentials

/// An HTTP cookie, as a browser keeps it.
public struct WebParserCookie: Sendable, Hashable, Codable {
    /// When a browser sends a cookie with requests from other sites.
    public enum SameSite: String, Sendable, Hashable, Codable, CaseIterable {
        /// Sent with every request, from any site (needs `secure`).
        case none = "None"
        /// Sent with the site's own requests and with top-level navigations to it.
        case lax = "Lax"
        /// Sent with the site's own requests only.
        case strict = "Strict"
    }

    /// The cookie's name.
    public var name: String
    /// The cookie's value; never shown in webparse's messages.
    public var value: String
    /// The host the cookie belongs to. With a leading dot (`.example.com`) it also covers the host's
    /// subdomains; without one it is sent to that host only.
    public var domain: String
    /// The path the cookie is sent for, with everything under it.
    public var path: String
    /// When the cookie ends; nil for a session cookie.
    public var expires: Date?
    /// Whether the cookie is sent over HTTPS only.
    public var secure: Bool
    /// Whether the page's JavaScript cannot read the cookie.
    public var httpOnly: Bool
    /// When the cookie goes with requests from other sites.
    public var sameSite: SameSite

    /// Creates a cookie; by default for every path, ending with the session, sent over any connection.
    public init(
        name: String, value: String, domain: String, path: String = "/", expires: Date? = nil,
        secure: Bool = false, httpOnly: Bool = false, sameSite: SameSite = .lax
    ) {
        self.name = name
        self.value = value
        self.domain = domain
        self.path = path
        self.expires = expires
        self.secure = secure
        self.httpOnly = httpOnly
        self.sameSite = sameSite
    }

    /// Whether a page on `host` gets this cookie: the cookie's domain is the host, or (with a leading dot,
    /// or written as a parent domain) one of its parent domains.
    public func matches(host: String) -> Bool {
        let host = host.lowercased()
        let domain = self.domain.lowercased().trimmingPrefix(".")
        return host == domain || host.hasSuffix("." + domain)
    }

    /// Whether the cookie has ended by `date`.
    public func hasExpired(at date: Date = Date()) -> Bool {
        expires.map { $0 <= date } ?? false
    }

    /// A description without the value, which may be a secret: `session for .example.com/`.
    public var redactedDescription: String { "\(name) for \(domain)\(path)" }
}

private extension String {
    func trimmingPrefix(_ prefix: String) -> String { hasPrefix(prefix) ? String(dropFirst(prefix.count)) : self }
}
