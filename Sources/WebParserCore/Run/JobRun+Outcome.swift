import FoundationEssentials
import WebParser

extension JobRun {
    /// What the run's jobs gave, for the stages after them.
    struct Tally {
        /// Whether a failure was reported (a job, a crawl's page, a followed item), which exits 1.
        var reportedFailure = false
        var anySuccess = false
        /// The jobs whose page was bot protection's, told apart at the end.
        var blocked = 0
        /// Where the successful jobs' pages ended, whose origins' local storage --save-storage keeps.
        var visited: [URL] = []
        /// What each job's report shows (for a result that is not a list, how it changed), for --notify, by the job's
        /// place in the config.
        var news: [(index: Int, name: String, news: Notifier.News)] = []
        /// The jobs whose health --notify tells: failing (after `runs` runs in a row) or, without `runs`, recovered.
        var health: [(index: Int, name: String, failing: StateFile.Failing, runs: Int?)] = []
    }

    /// Takes how `named`, the job at `index`, ended: what its crawl or its follow said, its state, its output.
    func account(_ ended: JobScheduler.Ended, of named: Config.NamedJob, at index: Int, into tally: inout Tally) async {
        let report = tracking.report ?? .added
        var outcome = ended.outcome
        var fresh: RunMemory.Fresh?
        if case .success(let success) = outcome.result { reporter.warnIfCutShort(named.name, success) }
        if let remarks = ended.findings?.remarks(of: named) {
            if let failed = remarks.failed {
                StandardStreams.tellError("webparse: \(named.name): \(failed)")
                tally.reportedFailure = true
            }
            if let warning = remarks.warning { StandardStreams.tell("webparse: \(named.name): \(warning)") }
        }
        if let findings = ended.findings, let memory {
            do throws(WebParserError) {
                let shown = findings.shown
                fresh = try await memory.remember(
                    findings.recorded, of: named, emitInitial: tracking.emitInitial,
                    feedSize: feeds?.size, feedsRemoved: [.removed, .all].contains(report), shown: { shown[$0] ?? $0 })
                if let lastmods = findings.crawled?.lastmods { memory.keep(lastmods: lastmods, of: named) }
            } catch {
                outcome.result = .failure(.failed(error))
            }
        }
        memory?.ran(named, at: startedAt)
        if let fresh {
            let shown = fresh.shown(report)
            let diff = fresh.isList || fresh.conditional || shown.added.isEmpty ? nil : fresh.diff
            let news = Notifier.News(added: diff == nil ? shown.added : [], changed: shown.changed.map(\.item), removed: shown.removed, diff: diff)
            if !news.isEmpty { tally.news.append((index, named.name, news)) }
            if let recovered = fresh.recovered, case .success = outcome.result { tally.health.append((index, named.name, recovered, nil)) }
        }
        if tracking.report == .changed, let fresh, fresh.isList, !fresh.keyed, !fresh.items.isEmpty {
            StandardStreams.tellError(
                "webparse: \(named.name): warning: --report changed: the job has no \"key\", so an item whose "
                    + "content changed counts as new; its \(fresh.items.count) new item\(fresh.items.count == 1 ? " is" : "s are") reported as "
                    + "added (set \"key\" to the field that identifies an item, such as \"key\": \"url\")")
        }
        switch outcome.result {
        case .success(let result):
            tally.anySuccess = true
            if let url = URL(string: result.finalURL) { tally.visited.append(url) }
            let streamed =
                output.streamsEmittedValues && named.job.evaluation.collect == .emitted || output.streamsPages && named.crawl != nil
            output.add(outcome, at: index, fresh: fresh, streamed: streamed)
        case .failure(let error):
            if case .failed(let failure) = error, failure.kind.isBlocked { tally.blocked += 1 }
            let runsInARow = memory?.recordFailure(of: named.name, error, at: startedAt) ?? 1
            if runsInARow >= (tracking.failAfter ?? 1) {
                reporter.jobFailed(named.name, error, runsInARow: tracking.failAfter == nil ? 1 : runsInARow)
                tally.reportedFailure = true
                if let failing = memory?.failing(of: named.name), failing.notified != true {
                    tally.health.append((index, named.name, failing, runsInARow))
                }
            }
            output.add(outcome, at: index, fresh: nil)
        }
    }
}
