import Foundation
import Testing
import WebParser
@testable import WebParserCore

/// A run of jobs and what comes after them (`JobRun`) on fake pages: the output is delivered before the state is
/// recorded, so that an output that cannot be written loses no new item.
@Suite struct JobRunTests {
    /// The job of a list at `https://comics.example/list`, each item told apart by itself.
    func listJob() throws -> [Config.NamedJob] {
        let text = #"{"jobs": [{"name": "list", "url": "https://comics.example/list", "script": "1"}]}"#
        return try ConfigLoader.parse(Array(text.utf8), name: "c.json", directory: URL(fileURLWithPath: "/"), environment: [:]).jobs
    }

    /// Runs `jobs` on `pages` with `--state state --new-only`, the output written to `output`, and says how the run
    /// ended.
    func run(_ jobs: [Config.NamedJob], on pages: FakePages, state: String, output: String) async throws -> JobRun.End {
        var tracking = TrackingOptions()
        tracking.statePath = state
        tracking.newOnly = true
        var options = OutputOptions()
        options.file = output
        let memory = try await RunMemory.open(state, wait: .zero)
        let run = JobRun(
            tracking: tracking, pages: pages, saveSession: { _, _ in true }, memory: memory, notifier: nil, har: nil, feeds: nil,
            output: RunOutput(output: options, reporting: tracking.reporting, isSingleJob: true), reporter: ProgressReporter(verbosity: .quiet),
            metrics: nil, startedAt: Date())
        return await run.run(jobs, concurrency: 2)
    }

    /// A list page that gives `items`.
    func list(_ items: [String]) -> FakePages {
        FakePages(["/list": .page(data: "[" + items.map { "\"\($0)\"" }.joined(separator: ",") + "]", links: [])])
    }

    @Test func anOutputThatCannotBeWrittenLeavesTheStateForTheNextRun() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("webparse-jobrun-\(UUID().uuidString)")
        let outputFolder = folder.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: outputFolder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let state = folder.appendingPathComponent("state.json").path
        let output = outputFolder.appendingPathComponent("new.json").path
        let jobs = try listJob()

        #expect(try await run(jobs, on: list(["a", "b"]), state: state, output: output) == .success)
        let recorded = try Data(contentsOf: URL(fileURLWithPath: state))
        #expect(!FileManager.default.fileExists(atPath: output), "a first run reports nothing")

        // The output's folder is gone, as a full disk refuses a file: the run fails and the state stays as it was.
        try FileManager.default.removeItem(at: outputFolder)
        #expect(try await run(jobs, on: list(["a", "b", "c"]), state: state, output: output) == .failed)
        #expect(try Data(contentsOf: URL(fileURLWithPath: state)) == recorded, "the state did not advance past what was not delivered")

        try FileManager.default.createDirectory(at: outputFolder, withIntermediateDirectories: true)
        #expect(try await run(jobs, on: list(["a", "b", "c"]), state: state, output: output) == .success)
        let delivered = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: output))) as? [String]
        #expect(delivered == ["c"], "the item the failed output lost is reported by the next run")
        #expect(try Data(contentsOf: URL(fileURLWithPath: state)) != recorded)
    }

    @Test func aFailedJobRecordsItsHealthAndNoItem() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("webparse-jobrun-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let state = folder.appendingPathComponent("state.json").path
        let output = folder.appendingPathComponent("new.json").path
        let jobs = try listJob()
        #expect(try await run(jobs, on: list(["a"]), state: state, output: output) == .success)
        let failing = FakePages(["/list": .fails(.connectionRefused)])
        #expect(try await run(jobs, on: failing, state: state, output: output) == .failed)
        let saved = try StateFile.load(path: state).0
        #expect(saved.jobs["list"]?.consecutiveFailures == 1)
        #expect(try await run(jobs, on: list(["a", "b"]), state: state, output: output) == .success)
        let delivered = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: output))) as? [String]
        #expect(delivered == ["b"], "the items known before the failure are still known: \(String(describing: delivered))")
    }
}
