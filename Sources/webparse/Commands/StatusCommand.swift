import FoundationEssentials
import WebParser
import WebParserCore

/// `webparse status STATE`: each job's health, last success, last change and next due time, as `run --state STATE`
/// left them.
struct StatusCommand {
    struct Settings: Sendable {
        var statePath = ""
        var json = false
    }

    static let command = TableCommand<Settings>(
        name: "status", operands: "STATE", summary: "print each job's health, last success, last change and next run from a state file",
        details: """
            Reads STATE, the file of 'webparse run --state STATE', and prints one line per job: ok, or failing with
            its code, how many runs in a row and since when; when it last succeeded, when a run last found a change,
            and when it is due next (for a job with "every"). With --json, a JSON list of one object per job:
            {"job", "health", "code", "message", "failingSince", "failures", "lastRun", "lastSuccess", "lastChange", "due"}.
            Reads the file without locking it: a run writes it whole, atomically.
            """,
        exitCodes: [(.success, "the state was printed"), (.usage, "STATE cannot be read")],
        options: [.flag("json", "print a JSON list, one object per job, instead of a table") { $0.json = true }],
        initial: Settings(), takeOperands: TableCommand.single("STATE") { $0.statePath = $1 },
        run: { settings in
            guard FileManager.default.fileExists(atPath: settings.statePath) else {
                StandardStreams.tellError(
                    "webparse status: \(settings.statePath): no such file (run 'webparse run --state \(settings.statePath) CONFIG' first)")
                return .usage
            }
            do throws(StateFile.Unreadable) {
                let state = try StateFile.load(path: settings.statePath).state
                let jobs = state.jobs.sorted { $0.key < $1.key }
                if settings.json {
                    StandardStreams.writeResult(JSONText.array(jobs.map { record(of: $0.value, named: $0.key) }))
                } else {
                    StandardStreams.writeText(table(of: jobs, now: Date()))
                }
                return .success
            } catch {
                StandardStreams.tellError("webparse status: \(error)")
                return .usage
            }
        })

    /// The JSON object of the job `name`.
    static func record(of job: StateFile.Job, named name: String) -> Data {
        let optional: (String?) -> JSONText.Value = { $0.map(JSONText.Value.string) ?? .null }
        return JSONText.object([
            ("job", .string(name)), ("health", .string(job.failing == nil && job.consecutiveFailures == 0 ? "ok" : "failing")),
            ("code", optional(job.failing?.code)),
            ("message", optional(job.failing?.message)), ("failingSince", optional(job.failing?.since)),
            ("failures", .integer(job.consecutiveFailures)), ("lastRun", optional(job.lastRun)), ("lastSuccess", optional(job.lastSuccess)),
            ("lastChange", optional(job.lastChange)), ("due", optional(job.due))
        ])
    }

    /// The table of `jobs`, a line each, columns padded; times as the state writes them (UTC).
    static func table(of jobs: [(key: String, value: StateFile.Job)], now: Date) -> String {
        let header = ["JOB", "HEALTH", "LAST SUCCESS", "LAST CHANGE", "NEXT RUN"]
        let rows = jobs.map { name, job -> [String] in
            let runs = "\(job.consecutiveFailures) run\(job.consecutiveFailures == 1 ? "" : "s")"
            let health =
                job.failing.map { "failing: \($0.code), \(runs) since \($0.since)" }
                ?? (job.consecutiveFailures > 0 ? "failing: \(runs) (an older webparse did not record why)" : "ok")
            let due = job.due.map { text in (try? Date(text, strategy: .iso8601)).map { $0 <= now ? "now" : text } ?? text } ?? "every run"
            return [name, health, job.lastSuccess ?? "never", job.lastChange ?? "never", due]
        }
        let widths = header.indices.map { column in ([header] + rows).map { $0[column].count }.max() ?? 0 }
        return ([header] + rows).map { row in
            row.enumerated().map { $0.offset == row.count - 1 ? $0.element : $0.element.padded(to: widths[$0.offset] + 2) }.joined()
        }.joined(separator: "\n") + "\n"
    }
}
