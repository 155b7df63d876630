import Foundation

/// A job's capture rules, ready to match: which rule takes a response of a URL and kind.
struct CaptureRules: Sendable {
    let capture: WebParserJob.Capture
    private let patterns: [NSRegularExpression]

    /// The rules of `capture`; nil when one of their URLs is not a regular expression.
    init?(_ capture: WebParserJob.Capture) {
        let patterns = capture.rules.compactMap { try? NSRegularExpression(pattern: $0.url) }
        guard patterns.count == capture.rules.count else { return nil }
        self.capture = capture
        self.patterns = patterns
    }

    /// Why `capture` cannot run (a rule's URL that is not a regular expression), or nil when it can.
    static func problem(with capture: WebParserJob.Capture) -> String? {
        capture.rules.first { (try? NSRegularExpression(pattern: $0.url)) == nil }.map {
            "capture: \"\($0.url)\" is not a regular expression"
        }
    }

    /// The first rule that takes a response of `url` and `kind`.
    func rule(for url: String, kind: WebParserJob.Capture.Kind) -> WebParserJob.Capture.Rule? {
        let range = NSRange(url.startIndex..., in: url)
        return capture.rules.indices.first {
            capture.rules[$0].kinds.contains(kind) && patterns[$0].firstMatch(in: url, range: range) != nil
        }.map { capture.rules[$0] }
    }
}
