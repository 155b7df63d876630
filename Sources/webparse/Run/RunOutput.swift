import Foundation

/// What a run prints, job by job: whole results, JSON Lines records, or only what is new; on stdout as jobs
/// finish, or into `--output` at the end.
struct RunOutput {
    private let settings: RunCommand.Settings
    private let isSingleJob: Bool
    /// Results (or new items) by job, with the job's place in the config, for the JSON document written at
    /// the end in config order.
    private var documents: [(index: Int, name: String, json: Data)] = []
    /// Lines for `--output`, which is written at the end.
    private var buffered = Data()
    private var anySuccess = false

    init(settings: RunCommand.Settings, isSingleJob: Bool) {
        self.settings = settings
        self.isSingleJob = isSingleJob
    }

    /// Adds the outcome of the job at `index` in the config; `fresh` is what it brought that `--state` did not
    /// hold. JSON Lines are written at once; the JSON document keeps config order.
    mutating func add(_ outcome: JobOutcome, at index: Int, fresh: RunMemory.Fresh?) {
        guard case .success(let result) = outcome.result else {
            if settings.jsonLines && !settings.newOnly { emit(outcome.jsonLine) }
            return
        }
        anySuccess = true
        switch (settings.newOnly, settings.jsonLines) {
        case (false, true):
            emit(outcome.jsonLine)
        case (false, false):
            documents.append((index, outcome.name, result.data))
        case (true, true):
            for item in fresh?.items ?? [] {
                emit(JSONText.object([("job", .string(outcome.name)), ("item", .raw(item))]))
            }
        case (true, false):
            guard let fresh, !fresh.items.isEmpty else { return }
            documents.append((index, outcome.name, fresh.isList ? Self.array(fresh.items) : fresh.items[0]))
        }
    }

    /// Writes the JSON document, and `--output`; returns what went wrong, if anything.
    mutating func finish() -> String? {
        if !settings.jsonLines, let document {
            emit(document)
        }
        guard let path = settings.output else { return nil }
        // Keep the last output when there is nothing new to say: no success, or nothing new with --new-only.
        let hasRecords = settings.jsonLines && !settings.newOnly
        guard !buffered.isEmpty && (anySuccess || hasRecords) else { return nil }
        do {
            try AtomicFile.write(buffered, to: path)
            return nil
        } catch {
            return "--output: \(error)"
        }
    }

    /// One job: its result alone. A "jobs" config: the results by name, or nothing new to print.
    private var document: Data? {
        if isSingleJob || documents.isEmpty && settings.newOnly { return documents.first?.json }
        return JSONText.object(documents.sorted { $0.index < $1.index }.map { ($0.name, JSONText.Value.raw($0.json)) })
    }

    private mutating func emit(_ line: Data) {
        if settings.output == nil {
            StandardStreams.writeResult(line)
        } else {
            buffered.append(line + Data("\n".utf8))
        }
    }

    private static func array(_ items: [Data]) -> Data {
        Data("[".utf8) + items.joined(separator: Data(",".utf8)) + Data("]".utf8)
    }
}
