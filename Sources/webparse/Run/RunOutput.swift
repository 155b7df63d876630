import Foundation

/// What a run prints, job by job: whole results, JSON Lines records, or only what is new; on stdout as jobs
/// finish, or into `--output` at the end.
struct RunOutput {
    private let settings: RunCommand.Settings
    private let isSingleJob: Bool
    /// Results (or new items) by job, in order, for the JSON document written at the end.
    private var documents: [(name: String, json: Data)] = []
    /// Lines for `--output`, which is written at the end.
    private var buffered = Data()
    private var anySuccess = false

    init(settings: RunCommand.Settings, isSingleJob: Bool) {
        self.settings = settings
        self.isSingleJob = isSingleJob
    }

    /// Adds a job's outcome; `fresh` is what it brought that `--state` did not hold.
    mutating func add(_ outcome: JobOutcome, fresh: RunMemory.Fresh?) {
        guard case .success(let result) = outcome.result else {
            if settings.jsonLines && !settings.newOnly { emit(outcome.jsonLine) }
            return
        }
        anySuccess = true
        switch (settings.newOnly, settings.jsonLines) {
        case (false, true):
            emit(outcome.jsonLine)
        case (false, false):
            documents.append((outcome.name, result.data))
        case (true, true):
            for item in fresh?.items ?? [] {
                emit(JSONText.object([("job", .string(outcome.name)), ("item", .raw(item))]))
            }
        case (true, false):
            guard let fresh, !fresh.items.isEmpty else { return }
            documents.append((outcome.name, fresh.isList ? Self.array(fresh.items) : fresh.items[0]))
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
        return JSONText.object(documents.map { ($0.name, JSONText.Value.raw($0.json)) })
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
