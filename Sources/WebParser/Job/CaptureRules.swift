import FoundationEssentials

/// A job's capture rules, ready to match: which rule takes a response of a URL and kind.
struct CaptureRules: Sendable {
    let capture: WebParserJob.Capture
    /// Compiled once, matched from any thread: a regex is immutable (its program is compiled on first use, once,
    /// atomically); only its output type, which may hold any captured value, keeps it from being `Sendable`.
    private nonisolated(unsafe) let patterns: [Regex<AnyRegexOutput>]

    /// The rules of `capture`; nil when one of their URLs is not a regular expression.
    init?(_ capture: WebParserJob.Capture) {
        let patterns = capture.rules.compactMap { try? Regex($0.url) }
        guard patterns.count == capture.rules.count else { return nil }
        self.capture = capture
        self.patterns = patterns
    }

    /// Why `capture` cannot run (a rule's URL that is not a regular expression), or nil when it can.
    static func problem(with capture: WebParserJob.Capture) -> String? {
        capture.rules.first { (try? Regex($0.url)) == nil }.map {
            "capture: \"\($0.url)\" is not a regular expression"
        }
    }

    /// The first rule that takes a response of `url` and `kind`.
    func rule(for url: String, kind: WebParserJob.Capture.Kind) -> WebParserJob.Capture.Rule? {
        capture.rules.indices.first {
            capture.rules[$0].kinds.contains(kind) && url.contains(patterns[$0])
        }.map { capture.rules[$0] }
    }
}
