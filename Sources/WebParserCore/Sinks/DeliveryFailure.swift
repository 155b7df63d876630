/// Why a run's sink (its output, the state, the feeds, the notifications, the HAR file) cannot be used or could not
/// take what the run found: what to tell the user, and what kind of failure it is, which the command line turns into
/// its exit code.
package struct DeliveryFailure: Error, Sendable, CustomStringConvertible {
    /// What kind of failure it is.
    package enum Kind: Sendable, Equatable {
        /// A path or a setting that cannot be used, found before anything ran.
        case usage
        /// Another run holds the state file.
        case stateLocked
        /// What the run found could not be delivered or recorded.
        case failed
    }

    /// One or more lines for stderr, without the `webparse COMMAND:` prefix.
    package let message: String
    package let kind: Kind

    /// A failure of `kind` that says `message`.
    package init(message: String, kind: Kind) {
        self.message = message
        self.kind = kind
    }

    /// A path or a setting that cannot be used, found before anything ran.
    package static func usage(_ message: String) -> Self { Self(message: message, kind: .usage) }

    package var description: String { message }
}
