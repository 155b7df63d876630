import FoundationEssentials
import Glibc

/// Finds the programs webparse starts (Xvfb, Apprise) as a shell would.
package enum ExecutableSearch {
    /// The path of the executable `name` in the first folder of `searchPath` (by default the environment's `PATH`)
    /// that has one; nil when none has.
    package static func path(named name: String, searchPath: String? = ProcessInfo.processInfo.environment["PATH"]) -> String? {
        let searchPath = searchPath ?? "/usr/local/bin:/usr/bin:/bin"
        return searchPath.split(separator: ":").map { "\($0)/\(name)" }.first { access($0, X_OK) == 0 }
    }
}
