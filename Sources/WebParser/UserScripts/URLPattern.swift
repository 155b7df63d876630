import FoundationEssentials

/// User-script URL patterns as JavaScript regular expressions over a page's whole URL.
enum URLPattern {
    /// A `@match` pattern: `<all_urls>`, or `scheme://host/path` where the scheme may be `*` (http or https),
    /// the host `*` or `*.domain` (the domain and its subdomains), and `*` in the path is any text. A host
    /// without a port matches any port. Nil when the pattern is malformed.
    static func match(_ pattern: String) -> Expression? {
        if pattern == "<all_urls>" { return Expression(source: "^(?:https?|file)://.*$", flags: "") }
        guard let separator = pattern.firstRange(of: "://") else { return nil }
        let scheme = String(pattern[..<separator.lowerBound])
        let rest = pattern[separator.upperBound...]
        let slash = rest.firstIndex(of: "/") ?? rest.endIndex
        let host = String(rest[..<slash])
        let path = rest[slash...].isEmpty ? "/*" : String(rest[slash...])
        let schemeExpression: String
        switch scheme {
        case "*": schemeExpression = "https?"
        case "http", "https", "file": schemeExpression = scheme
        default: return nil
        }
        var hostExpression: String
        if host == "*" {
            hostExpression = "[^/]*"
        } else if host.hasPrefix("*.") {
            let domain = host.dropFirst(2)
            guard !domain.isEmpty, !domain.contains("*") else { return nil }
            hostExpression = "(?:[^/@]*\\.)?" + escaped(String(domain))
        } else {
            guard !host.contains("*"), scheme == "file" || !host.isEmpty else { return nil }
            hostExpression = escaped(host)
        }
        if host != "*" && !host.contains(":") && scheme != "file" { hostExpression += "(?::[0-9]+)?" }
        return Expression(source: "^" + schemeExpression + "://" + hostExpression + glob(path) + "$", flags: "")
    }

    /// An `@include` or `@exclude` pattern: a JavaScript regular expression literal `/…/` (with optional
    /// flags), or a glob where `*` is any text. Nil when the literal does not parse.
    static func include(_ pattern: String) -> Expression? {
        if pattern.count > 2, pattern.hasPrefix("/"), let close = pattern.lastIndex(of: "/"), close > pattern.startIndex {
            let flags = String(pattern[pattern.index(after: close)...])
            if flags.allSatisfy({ "imsu".contains($0) }) {
                guard UserScriptBody.syntaxProblem(in: "(\(pattern));") == nil else { return nil }
                return Expression(source: String(pattern[pattern.index(after: pattern.startIndex)..<close]), flags: flags)
            }
        }
        return Expression(source: "^" + glob(pattern) + "$", flags: "")
    }

    /// A regular expression as JavaScript's `new RegExp(source, flags)` takes it.
    struct Expression: Sendable, Equatable {
        var source: String
        var flags: String
    }

    private static func glob(_ text: String) -> String {
        text.split(separator: "*", omittingEmptySubsequences: false).map { escaped(String($0)) }.joined(separator: ".*")
    }

    private static func escaped(_ text: String) -> String {
        var result = ""
        for character in text {
            if "\\^$.|?*+()[]{}/".contains(character) { result.append("\\") }
            result.append(character)
        }
        return result
    }
}
