internal import CWebKitGTK

/// Whether an XPath expression parses, checked without a page (libxml2's XPath 1.0, as `document.evaluate`
/// takes).
package enum XPathSyntax {
    /// What is wrong with `expression`, in libxml2's words; nil when it parses.
    package static func problem(in expression: String) -> String? {
        var message: UnsafeMutablePointer<CChar>?
        guard !wk_check_xpath_syntax(expression, &message) else { return nil }
        defer { wk_free(message) }
        return message.map { String(cString: $0) } ?? "invalid XPath expression"
    }
}
