import FoundationEssentials
import WebParser
import Synchronization

/// What a run prints, job by job: whole results, JSON Lines records, or only what is new; on stdout as jobs
/// finish, or into `--output` at the end. Emitted values stream out as JSON Lines while their jobs run, from
/// the WebKit thread, so everything here is behind a lock.
package final class RunOutput: Sendable {
    private let output: OutputOptions
    private let reporting: Reporting
    private let isSingleJob: Bool
    private let state = Mutex(State())

    private struct State {
        /// Results (or new items) by job, with the job's place in the config, for the JSON document written
        /// at the end in config order.
        package var documents: [(index: Int, name: String, json: Data)] = []
        /// With `--merge`: the items of each job, with the job's place in the config.
        package var merged: [(index: Int, items: [Data])] = []
        /// Lines for `--output`, which is written at the end.
        package var buffered = Data()
        package var anySuccess = false
    }

    /// The output `output` asks for, reporting what `reporting` says, of one job's config or several.
    package init(output: OutputOptions, reporting: Reporting, isSingleJob: Bool) {
        self.output = output
        self.reporting = reporting
        self.isSingleJob = isSingleJob
    }

    /// Whether only what is new is reported.
    private var newOnly: Bool { reporting != .everything }

    /// Which items `--new-only` reports.
    private var report: Report {
        if case .newOnly(let report, _) = reporting { report } else { .added }
    }

    /// Whether the values a job emits are written one by one as they come (`--jsonl` without `--new-only`).
    package var streamsEmittedValues: Bool { output.jsonLines && !newOnly }

    /// Writes `json`, a value job `name` emitted, as the line `{"job": name, "item": json}`.
    package func stream(_ json: Data, of name: String) {
        state.withLock { emit(JSONText.object([("job", .string(name)), ("item", .raw(json))]), into: &$0) }
    }

    /// Whether a crawl's pages are written one by one as they are done (`--jsonl` without `--new-only`).
    package var streamsPages: Bool { output.jsonLines && !newOnly && !output.merge }

    /// Writes `page` of job `name`'s crawl as the line `{"job", "url", "status": "ok", "result"}`, or for a page that
    /// failed `{"job", "url", "status": "failed", "error", "code"}`.
    package func page(_ page: CrawledPage, of name: String) {
        var members: [(key: String, value: JSONText.Value)] = [("job", .string(name)), ("url", .string(URLRedaction.redact(page.url)))]
        switch page.result {
        case .success(let data): members += [("status", .string("ok")), ("result", .raw(data))]
        case .failure(let failure): members += [("status", .string("failed"))] + failure.members
        }
        state.withLock { emit(JSONText.object(members), into: &$0) }
    }

    /// Says that the job `name` did not run because it is not due until `due`: with `--jsonl` (every job's record),
    /// the line `{"job", "status": "not-due", "due"}`.
    package func notDue(_ name: String, until due: Date) {
        guard output.jsonLines && !newOnly && !output.merge else { return }
        let line = JSONText.object([("job", .string(name)), ("status", .string("not-due")), ("due", .string(due.formatted(.iso8601)))])
        state.withLock { emit(line, into: &$0) }
    }

    /// Adds the outcome of the job at `index` in the config; `fresh` is what it brought that `--state` did not
    /// hold. JSON Lines are written at once; the JSON document keeps config order. The record of a job whose
    /// values were streamed counts them instead of repeating them.
    package func add(_ outcome: JobOutcome, at index: Int, fresh: RunMemory.Fresh?, streamed: Bool = false) {
        state.withLock { add(outcome, at: index, fresh: fresh, streamed: streamed, into: &$0) }
    }

    private func add(_ outcome: JobOutcome, at index: Int, fresh: RunMemory.Fresh?, streamed: Bool, into state: inout State) {
        guard case .success(let result) = outcome.result else {
            if output.jsonLines && !newOnly && !output.merge { emit(outcome.jsonLine(), into: &state) }
            return
        }
        state.anySuccess = true
        if output.merge {
            let items = newOnly ? fresh?.shown(report).added ?? [] : JSONTextCheck.arrayItems(of: result.data) ?? [result.data]
            if output.jsonLines {
                // Values a job emitted went out as these lines while it ran.
                for item in streamed ? [] : items { emit(JSONText.object([("job", .string(outcome.name)), ("item", .raw(item))]), into: &state) }
            } else {
                state.merged.append((index, items))
            }
            return
        }
        switch (newOnly, output.jsonLines) {
        case (false, true):
            emit(outcome.jsonLine(streamed: streamed), into: &state)
        case (false, false):
            state.documents.append((index, outcome.name, result.data))
        case (true, true):
            guard let fresh else { return }
            if let diff = shownDiff(fresh) {
                emit(JSONText.object([("job", .string(outcome.name)), ("diff", .string(diff))]), into: &state)
                return
            }
            for record in records(of: fresh) {
                emit(JSONText.object([("job", .string(outcome.name))] + record), into: &state)
            }
        case (true, false):
            guard let fresh else { return }
            if let diff = shownDiff(fresh) {
                state.documents.append((index, outcome.name, JSONText.quoted(diff)))
            } else if report == .added {
                let added = fresh.shown(report).added
                guard !added.isEmpty else { return }
                state.documents.append((index, outcome.name, fresh.isList ? JSONText.array(added) : added[0]))
            } else {
                let records = records(of: fresh)
                guard !records.isEmpty else { return }
                state.documents.append((index, outcome.name, JSONText.array(records.map(JSONText.object))))
            }
        }
    }

    /// What `--report` asks to show of a job's news (`RunMemory.Fresh.shown`): its new items (plain `{"item"}` by
    /// default, marked `"change": "added"` otherwise), its changed ones (`"change": "changed"`, with `"before"`) and its
    /// removed ones (`"change": "removed"`).
    private func records(of fresh: RunMemory.Fresh) -> [[(key: String, value: JSONText.Value)]] {
        let shown = fresh.shown(report)
        let marked = report != .added
        let added = shown.added.map { item -> [(key: String, value: JSONText.Value)] in
            [("item", .raw(item))] + (marked ? [("change", .string("added"))] : [])
        }
        let changed = shown.changed.map { change -> [(key: String, value: JSONText.Value)] in
            [("item", .raw(change.item)), ("change", .string("changed")), ("before", .raw(change.before))]
        }
        let removed = shown.removed.map { item -> [(key: String, value: JSONText.Value)] in [("item", .raw(item)), ("change", .string("removed"))] }
        return added + changed + removed
    }

    /// The diff to show for a changed result that is not a list, with `--diff`.
    private func shownDiff(_ fresh: RunMemory.Fresh) -> String? {
        guard case .newOnly(_, diff: true) = reporting, !fresh.isList, !fresh.items.isEmpty, let diff = fresh.diff, !diff.isEmpty else { return nil }
        return diff
    }

    /// Writes the JSON document, and `--output`.
    /// - Throws: `DeliveryFailure` (`.failed`) when `--output` cannot be written.
    package func finish() throws(DeliveryFailure) {
        if let problem = writeOutput() { throw DeliveryFailure(message: problem, kind: .failed) }
    }

    private func writeOutput() -> String? {
        state.withLock { state in
            if !output.jsonLines, let document = document(of: state) {
                emit(document, into: &state)
            }
            guard let path = output.file else { return nil }
            // Keep the last output when there is nothing new to say: no success, or nothing new with --new-only.
            let hasRecords = output.jsonLines && !newOnly
            guard !state.buffered.isEmpty && (state.anySuccess || hasRecords) else { return nil }
            do {
                try AtomicFile.write(state.buffered, to: path)
                return nil
            } catch {
                return "--output: \(error)"
            }
        }
    }

    /// One job: its result alone. A "jobs" config: the results by name, or nothing new to print. With
    /// `--merge`: every job's items in one list, in config order.
    private func document(of state: State) -> Data? {
        if output.merge {
            let items = state.merged.sorted { $0.index < $1.index }.flatMap(\.items)
            return items.isEmpty && (newOnly || !state.anySuccess) ? nil : JSONText.array(items)
        }
        if isSingleJob || state.documents.isEmpty && newOnly { return state.documents.first?.json }
        return JSONText.object(state.documents.sorted { $0.index < $1.index }.map { ($0.name, JSONText.Value.raw($0.json)) })
    }

    private func emit(_ line: Data, into state: inout State) {
        if output.file == nil {
            StandardStreams.writeResult(line)
        } else {
            state.buffered.append(line + Data("\n".utf8))
        }
    }
}
