import WebParser
import WebParserVersion

/// webparse's version, from the VERSION file compiled in.
enum ReleaseVersion {
    /// The version, such as "0.4.0".
    static let number = String(cString: webparse_version_file()).trimmingWhitespace()
}
