import FoundationEssentials

/// The environment webparse was started with, before WebKit's runtime added its own settings (its display, GTK's,
/// JavaScriptCore's, the dynamic loader's): what programs other than WebKit's are given, and what configs' variables
/// are read from. Read once, first thing, while the process has one thread.
package enum LaunchEnvironment {
    /// The variables, by name.
    package static let variables = ProcessInfo.processInfo.environment
}
