import WebParser
import WebParserVersion

/// webparse's version, from the VERSION file compiled in.
package enum ReleaseVersion {
    /// The version, such as "0.4.0".
    package static let number = String(cString: webparse_version_file()).trimmingWhitespace()
}
