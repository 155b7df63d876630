import Foundation

/// The HTTP Retry-After header: a number of seconds, or an HTTP date.
enum RetryAfter {
    /// The wait `header` asks for; nil when it is neither form. A date in the past asks for no wait.
    static func parse(_ header: String) -> Duration? {
        let text = header.trimmingCharacters(in: .whitespaces)
        if let seconds = Int(text), seconds >= 0 { return .seconds(seconds) }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        guard let date = formatter.date(from: text) else { return nil }
        return .milliseconds(Int64(max(0, date.timeIntervalSinceNow) * 1000))
    }
}
