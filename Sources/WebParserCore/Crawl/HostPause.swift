import FoundationEssentials
import WebParser

/// How long a host that refused a page is left alone: as long as its `Retry-After` asks (a 429, or a 503 that
/// says), at most `longest`; after a 429 without one, `firstBackOff` doubling with each refusal in a row, at most
/// `longestBackOff`.
public struct HostPause: Equatable, Sendable {
    /// The longest pause a `Retry-After` gets: a host asking for more is asked again after it.
    public static let longest: Duration = .seconds(600)
    /// The pause after a first 429 without a `Retry-After`.
    public static let firstBackOff: Duration = .seconds(1)
    /// The longest pause of a host refusing without a `Retry-After`.
    public static let longestBackOff: Duration = .seconds(60)

    /// How long the host is left alone.
    public let duration: Duration
    /// Whether the pause is the host's own (its `Retry-After`) rather than webparse's back-off.
    public let asked: Bool
    /// What a person should know about it, when something was not as the host asked (a `Retry-After` too long or
    /// unreadable).
    public let warning: String?

    /// The pause `error`, an attempt's failure at `host`, asks for; `strikes` counts the host's refusals without a
    /// `Retry-After` in a row, this one included (asked of the host's book only when needed). Nil when the failure
    /// asks for none.
    public static func after(_ error: WebParserError, at host: String, strikes: () async throws -> Int) async rethrows -> HostPause? {
        guard case .httpStatus(let status) = error.kind, status == 429 || status == 503 else { return nil }
        if let asked = error.retryAfter {
            guard asked > longest else { return HostPause(duration: asked, asked: true, warning: nil) }
            return HostPause(
                duration: longest, asked: true,
                warning: "\(host) asked for a pause of \(asked.secondsText) (Retry-After); webparse pauses it \(longest.secondsText), its longest")
        }
        guard status == 429 else { return nil }
        let count = try await strikes()
        let backOff = min(firstBackOff * (1 << min(max(count - 1, 0), 20)), longestBackOff)
        let warning = error.unreadRetryAfter.map {
            "\(host) answered \(status) with Retry-After: \($0), neither seconds nor an HTTP date; webparse pauses it \(backOff.secondsText)"
        }
        return HostPause(duration: backOff, asked: false, warning: warning)
    }
}
