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
