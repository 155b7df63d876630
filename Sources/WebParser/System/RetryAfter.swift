internal import CWebKitGTK
import FoundationEssentials

/// The HTTP Retry-After header: a number of seconds, or an HTTP date in any of HTTP's three formats (read by
/// libsoup).
enum RetryAfter {
    /// The wait `header` asks for; nil when it is neither form. A date in the past asks for no wait.
    static func parse(_ header: String, now: Date = Date()) -> Duration? {
        let text = header.trimmingSpaces()
        if let seconds = Int(text), seconds >= 0 { return .seconds(seconds) }
        var seconds: Int64 = 0
        guard wk_parse_http_date(text, &seconds) else { return nil }
        return .milliseconds(Int64(max(0, Date(timeIntervalSince1970: TimeInterval(seconds)).timeIntervalSince(now)) * 1000))
    }
}
