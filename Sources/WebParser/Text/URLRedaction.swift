import FoundationEssentials

/// Keeps passwords written into URLs (`https://user:secret@host/`) out of messages and output.
package enum URLRedaction {
    /// `url` with the password of its user info replaced by `***`; other URLs as they are.
    package static func redact(_ url: String) -> String {
        guard var components = URLComponents(string: url), components.password != nil else { return url }
        components.password = "***"
        return components.string ?? url
    }
}
