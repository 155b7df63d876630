import FoundationEssentials

/// The one form of a URL a crawl loads once: the scheme and host in lower case, no default port, `.` and `..` resolved,
/// no fragment, an empty path as `/`.
public enum CrawlURL {
    /// `text` read against `base` in that form; nil when it is no http(s) URL with a host.
    public static func normalized(_ text: String, base: URL? = nil) -> URL? {
        guard let url = URL(string: text.trimmingWhitespace(), relativeTo: base)?.absoluteURL else { return nil }
        return normalized(url)
    }

    /// `url` in that form; nil when it is no http(s) URL with a host.
    public static func normalized(_ url: URL) -> URL? {
        guard var components = URLComponents(url: url.standardized, resolvingAgainstBaseURL: true),
            let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https",
            let host = components.host, !host.isEmpty
        else { return nil }
        components.scheme = scheme
        components.host = host.lowercased()
        if components.port == (scheme == "http" ? 80 : 443) { components.port = nil }
        components.fragment = nil
        if components.path.isEmpty { components.path = "/" }
        return components.url
    }

    /// The site of `url`: its scheme and host (and a port other than the default).
    public static func site(of url: URL) -> String {
        let scheme = url.scheme?.lowercased() ?? ""
        let port = url.port.map { ":\($0)" } ?? ""
        return scheme + "://" + (url.host()?.lowercased() ?? "") + port
    }
}
