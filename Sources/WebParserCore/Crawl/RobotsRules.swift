import FoundationEssentials

/// What a host's `robots.txt` allows a robot, as Google and RFC 9309 read it: the group of the most specific
/// `User-agent` that names the robot (else the `*` group), and in it the longest `Allow` or `Disallow` rule that
/// matches a URL's path and query (`*` any characters, `$` the end), `Allow` winning a tie. No file, or no group for
/// the robot, allows everything. The group's `Crawl-delay` (not in RFC 9309, but widely read) is kept too, and the
/// file's `Sitemap` lines, which belong to no group.
public struct RobotsRules: Sendable, Equatable {
    private struct Rule: Sendable, Equatable {
        var allows: Bool
        var pattern: String
    }

    private let rules: [Rule]
    /// The least time the robot's group asks between two loads (`Crawl-delay`); nil when it asks for none.
    public let crawlDelay: Duration?
    /// The sitemaps the file names (its `Sitemap` lines), in its order, each once.
    public let sitemaps: [String]

    /// The rules of `text`, a `robots.txt`, for the robot named `agent`.
    public init(_ text: String, agent: String = "webparse") {
        var groups: [(agents: [String], rules: [Rule], delay: Duration?)] = []
        var collectingAgents = false
        var sitemaps: [String] = []
        for raw in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
            let line = raw.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            let parts = line.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2 else { continue }
            let field = parts[0].trimmingWhitespace().lowercased()
            let value = parts[1].trimmingWhitespace()
            switch field {
            case "user-agent":
                if !collectingAgents { groups.append(([], [], nil)) }
                groups[groups.count - 1].agents.append(value.lowercased())
                collectingAgents = true
            case "allow", "disallow":
                collectingAgents = false
                guard !groups.isEmpty else { continue }
                // An empty Disallow allows everything; an empty Allow says nothing.
                guard !value.isEmpty else { continue }
                groups[groups.count - 1].rules.append(Rule(allows: field == "allow", pattern: value))
            case "crawl-delay":
                collectingAgents = false
                guard !groups.isEmpty, let seconds = Double(value), seconds.isFinite, seconds > 0 else { continue }
                groups[groups.count - 1].delay = .milliseconds(Int(min(seconds, 86_400) * 1000))
            case "sitemap":
                collectingAgents = false
                if !value.isEmpty, !sitemaps.contains(value) { sitemaps.append(value) }
            default:
                collectingAgents = false
            }
        }
        let name = agent.lowercased()
        let named = groups.filter { $0.agents.contains { $0 != "*" && name.contains($0) } }
        let chosen = named.isEmpty ? groups.filter { $0.agents.contains("*") } : named
        rules = chosen.flatMap(\.rules)
        crawlDelay = chosen.compactMap(\.delay).max()
        self.sitemaps = sitemaps
    }

    /// No rules: everything allowed.
    public static let allowAll = RobotsRules("")
    /// Nothing allowed: what a site whose `robots.txt` cannot be reached gets (RFC 9309, 2.3.1.4).
    public static let disallowAll = RobotsRules("User-agent: *\nDisallow: /\n")

    /// Whether `url`'s path and query may be loaded.
    public func allows(_ url: URL) -> Bool {
        var target = url.path(percentEncoded: true)
        if target.isEmpty { target = "/" }
        if let query = url.query(percentEncoded: true) { target += "?" + query }
        var best: Rule?
        for rule in rules where Self.matches(rule.pattern, target) {
            guard let current = best else {
                best = rule
                continue
            }
            if rule.pattern.count > current.pattern.count || (rule.pattern.count == current.pattern.count && rule.allows) { best = rule }
        }
        return best?.allows ?? true
    }

    /// Whether `pattern` (`*` any characters, a final `$` the end) matches the start of `path`.
    static func matches(_ pattern: String, _ path: String) -> Bool {
        var pattern = Substring(pattern)
        let anchored = pattern.hasSuffix("$")
        if anchored { pattern = pattern.dropLast() }
        let pieces = pattern.split(separator: "*", omittingEmptySubsequences: false)
        var rest = Substring(path)
        for (index, piece) in pieces.enumerated() {
            if index == 0 {
                guard rest.hasPrefix(piece) else { return false }
                rest = rest.dropFirst(piece.count)
                continue
            }
            if piece.isEmpty { continue }
            if index == pieces.count - 1 && anchored { return rest.hasSuffix(piece) }
            guard let found = rest.firstRange(of: piece) else { return false }
            rest = rest[found.upperBound...]
        }
        return !anchored || rest.isEmpty || pieces.last?.isEmpty == true
    }
}
