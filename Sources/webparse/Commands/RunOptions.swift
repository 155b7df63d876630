import FoundationEssentials
import WebParserCore
import WebParser

/// Where `run`'s jobs come from.
enum JobSource: Sendable, Equatable {
    /// A config file ("-": stdin).
    case config(path: String)
    /// A file of URLs ("-": stdin), each a job of `script`, or of `extract` (a config's extract as JSON).
    case urlList(path: String, script: String?, extract: String?)
}

/// Which of a config's jobs `run` runs (`RunPlan` finds them), or whether it only lists them.
struct SelectionOptions: Sendable {
    var only: [String] = []
    var shard: Shard?
    /// Whether the run only lists the config's jobs.
    var list = false
    /// Whether jobs that are not due (their `every`) run too.
    var all = false
}

/// What `run` prints, and where.
struct OutputOptions: Sendable {
    enum Format: Sendable, Equatable {
        /// One JSON document at the end: a result, or the results by job name.
        case document
        /// One JSON line per job (or per item) as it finishes.
        case jsonLines
    }

    var format = Format.document
    /// Whether the jobs' lists are printed as one list.
    var merge = false
    /// The file written instead of stdout.
    var file: String?

    var jsonLines: Bool { format == .jsonLines }
}

/// What `run` reports of each job.
enum Reporting: Sendable, Equatable {
    /// Every result.
    case everything
    /// Only what `--state` did not hold: `report` says which items, with `diff` a changed value as a diff.
    case newOnly(report: Report, diff: Bool)
}

/// What `--state` changes: the file, what is reported, and how failures and the lock are handled.
struct TrackingOptions: Sendable {
    var statePath: String?
    var newOnly = false
    var report: Report?
    var diff = false
    var emitInitial = false
    var failAfter: Int?
    var waitLock: Duration = .zero
    /// Whether the run reports without writing the state.
    var dryRun = false
    /// `--feed`: the Atom file (or, ending in "/", the folder of one file per job), its size, and whether a file
    /// that is not a feed webparse wrote may be replaced.
    var feedPath: String?
    var feedSize = 50
    var feedForce = false

    /// What is reported, once the options are checked.
    var reporting: Reporting { newOnly ? .newOnly(report: report ?? .added, diff: diff) : .everything }
}

/// Where `run` sends new items through Apprise.
struct NotifyOptions: Sendable {
    var urls: [String] = []
    var configs: [String] = []
    var fromEnvironment = false
    /// The line for each new item.
    var format: String?

    /// Whether new items are sent at all.
    var isEnabled: Bool { !urls.isEmpty || !configs.isEmpty || fromEnvironment }
}

/// What `--new-only` reports of each job.
enum Report: String, Sendable, CaseIterable {
    /// Items not seen before (and a changed value that is not a list).
    case added
    /// Items seen before, by their key, whose content changed (with a `when`, also those it came to hold for).
    case changed
    /// Items gone from the list, confirmed by the job's `confirm` runs in a row without them.
    case removed
    /// All three.
    case all
}

extension RunCommand.Settings {
    /// Checks the options against each other, as one.
    /// - Throws: `CommandFailure` (exit 2) naming the first option that needs another or does not go with one.
    func validate() throws(CommandFailure) {
        if tracking.statePath == nil {
            let needing = [
                ("--new-only", tracking.newOnly), ("--emit-initial", tracking.emitInitial),
                ("--notify", !notify.urls.isEmpty), ("--notify-config", !notify.configs.isEmpty),
                ("--notify-env", notify.fromEnvironment), ("--dry-run", tracking.dryRun),
                ("--fail-after", tracking.failAfter != nil), ("--wait-lock", tracking.waitLock > .zero),
                ("--feed", tracking.feedPath != nil), ("--all", selection.all)
            ]
            if let option = needing.first(where: \.1)?.0 { throw CommandFailure.usage("\(option) needs --state FILE") }
        }
        let newOnlyOptions = [("--report", (tracking.report ?? .added) != .added), ("--diff", tracking.diff)]
        if tracking.emitInitial && !tracking.newOnly { throw CommandFailure.usage("--emit-initial goes with --new-only") }
        if !tracking.newOnly, let option = newOnlyOptions.first(where: \.1)?.0 {
            throw CommandFailure.usage("\(option) goes with --new-only")
        }
        if output.merge, let option = newOnlyOptions.first(where: \.1)?.0 {
            throw CommandFailure.usage("\(option) does not go with --merge, which lists items only")
        }
        if tracking.feedPath == nil, tracking.feedForce { throw CommandFailure.usage("--feed-force goes with --feed FILE") }
        if notify.format != nil && !notify.isEnabled {
            throw CommandFailure.usage("--notify-format goes with --notify URL, --notify-config FILE or --notify-env")
        }
    }
}
