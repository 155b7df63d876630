import FoundationEssentials

/// What `--state` changes: the file, what is reported, and how failures and the lock are handled.
package struct TrackingOptions: Sendable {
    package var statePath: String?
    package var newOnly = false
    package var report: Report?
    package var diff = false
    package var emitInitial = false
    package var failAfter: Int?
    package var waitLock: Duration = .zero
    /// Whether the run reports without writing the state.
    package var dryRun = false
    /// `--feed`: the Atom file (or, ending in "/", the folder of one file per job), its size, and whether a file
    /// that is not a feed webparse wrote may be replaced.
    package var feedPath: String?
    package var feedSize = 50
    package var feedForce = false

    /// What is reported, once the options are checked.
    package var reporting: Reporting { newOnly ? .newOnly(report: report ?? .added, diff: diff) : .everything }

    /// No state: every result is reported.
    package init() {}
}

/// Where `run` sends new items through Apprise.
package struct NotifyOptions: Sendable {
    package var urls: [String] = []
    package var configs: [String] = []
    package var fromEnvironment = false
    /// The line for each new item.
    package var format: String?

    /// Whether new items are sent at all.
    package var isEnabled: Bool { !urls.isEmpty || !configs.isEmpty || fromEnvironment }

    /// Nothing is sent.
    package init() {}
}
