import FoundationEssentials
import Glibc
import WebParser
import WebParserCore
import WebParserQueue

/// `webparse work QUEUE-URL [CONFIG]`: a worker of a work queue on Redis, shared by any number of workers: takes
/// items (URLs or job objects) until the queue is empty, and pushes each one's record to `NAME:results` or
/// `NAME:failed`; a crawl's pages and a list's detail pages become items.
struct WorkCommand {
    struct Settings: TalkativeSettings, SessionOptionSettings {
        var queue: RedisURL?
        var configPath: String?
        /// How the worker takes, reads and records its items.
        var work = QueueWorker.Settings()
        var run = RunSettings()
        var worker: String?
        /// Where `/metrics` and `/healthz` are served (`HOST:PORT`), if anywhere.
        var metrics: String?
        var session = SessionOptions()
        var verbosity = Verbosity.normal
    }

    static let command = TableCommand<Settings>(
        name: "work", operands: "QUEUE-URL [CONFIG]", summary: "take jobs from a work queue on Redis, shared with other workers",
        details: """
            QUEUE-URL is redis://[USER:PASSWORD@]HOST[:PORT][/DB]?queue=NAME. The worker takes items from the
            Redis list NAME until it and every worker's items in hand are done (with --wait, until stopped), each
            item an http(s) URL or a job object with a config job's fields ({"url": …, "extract": …}). CONFIG, a
            config without "jobs", gives the "defaults" of every item and the run's and session's settings;
            --script or --extract say how to read a bare URL's page. Items cannot read environment variables:
            secrets go in CONFIG.

            Each item is leased: it moves into the worker's NAME:processing:ID list while its heartbeat key
            NAME:worker:ID lives (--lease); the items of a worker whose heartbeat expired (a pod killed) go back to
            the queue. A job's record (the object of a --jsonl line) goes to NAME:results, a failed one (after the
            job's retries) to NAME:failed, in the same step that lets the item go. A crawl's pages and a list's
            detail pages (follow) become items of the queue, each URL once across every worker (NAME:seen). With --state, each job's change-tracking
            state is kept in NAME:state and its record lists what is "new". SIGTERM puts the items in hand back.
            A crawl's perHost and delay hold across every worker (NAME:host:HOST), and a host answering 429 with
            Retry-After gets no page from any worker until then. --metrics HOST:PORT serves Prometheus' text format
            at /metrics (pages by job and outcome, seconds a page, items in hand, queue length, web processes and
            their memory, hosts paused) and /healthz (200 while the loops run and Redis answers, else 503).
            After --renew-after items the worker finishes those in hand and starts over as a fresh copy of itself
            (the same process ID, arguments and environment): WebKit keeps memory for every tab a process made.
            """,
        exitCodes: [
            (.success, "the queue was drained and every item this worker took succeeded"),
            (.jobFailed, "an item this worker took failed (its record is in NAME:failed), or the session could not be saved"),
            (.usage, "usage or config error; no item was taken")
        ] + ExitCode.general(.environment, .sessionLocked) + [
            (
                .queueUnavailable,
                "the queue's Redis cannot be reached (for a minute), refuses the password, or holds a key of another type; "
                    + "the items in hand go back to the queue when their lease ends"
            ),
            (.outputClosed, "with --jsonl: stdout was closed by its reader"),
            (.hangUp, "stopped by SIGHUP; the items in hand go back to the queue"),
            (.interrupted, "interrupted by SIGINT (Ctrl-C); the items in hand go back to the queue"),
            (.terminated, "stopped by SIGTERM; the items in hand go back to the queue")
        ],
        options: [
            .value("script", "SCRIPT", "the JavaScript that reads a bare URL's page (when CONFIG's defaults give none)") { $0.work.script = $1 },
            .value("extract", "JSON", "read a bare URL's page by selectors instead (a config's extract, as JSON)") { $0.work.extract = $1 },
            .flag("wait", "keep waiting for items when the queue is empty, until stopped (SIGTERM, Ctrl-C)") { $0.work.waits = true },
            .flag("jsonl", "print each record on stdout as well, one JSON line per item") { $0.work.jsonLines = true },
            .seconds("lease", in: 2...3600, "how long the items in hand stay this worker's without a heartbeat (default 30)") { $0.work.lease = $1 },
            .value("worker", "NAME", "this worker's name among the queue's workers (default: the host name and the process ID)") {
                settings, name throws(CommandFailure) in
                guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || "-_.".contains($0) }) else {
                    throw CommandFailure.usage("--worker: expected letters, digits, '-', '_' or '.', got '\(name)'")
                }
                settings.worker = name
            },
            .flag("state", "keep each job's change-tracking state in NAME:state; each record lists its \"new\" items") { $0.work.tracksState = true },
            .flag("emit-initial", "with --state: a job's first record lists all its items as new") { $0.work.emitInitial = true },
            .flag("log-console", "print every page's console lines and uncaught errors on stderr") { $0.work.logConsole = true },
            .value("metrics", "HOST:PORT", "serve Prometheus metrics at /metrics and a health check at /healthz (:PORT: every interface)") {
                $0.metrics = $1
            },
            .count(
                "renew-after", "N", in: 0...100_000_000, what: "a number of items",
                "start over as a fresh copy of itself (same process ID) after N items, 0 never (default 2000)"
            ) { $0.work.renewAfter = $1 }
        ] + CommandOption.fieldOptions(RunFields.all.filter { $0.key != RunFields.harContent.key }, into: \.run) + CommandOption.sessionOptions
            + [.quiet, .verbose],
        initial: Settings(),
        takeOperands: { settings, operands throws(CommandFailure) in
            guard (1...2).contains(operands.count) else {
                throw CommandFailure.usage(operands.isEmpty ? "missing QUEUE-URL" : "expected QUEUE-URL and at most one CONFIG")
            }
            do throws(RedisURL.Problem) {
                settings.queue = try RedisURL(operands[0])
            } catch {
                throw CommandFailure.usage("QUEUE-URL: \(error)")
            }
            settings.configPath = operands.count == 2 ? operands[1] : nil
        },
        validate: { settings throws(CommandFailure) in
            if settings.work.script != nil && settings.work.extract != nil { throw CommandFailure.usage("give --script or --extract, not both") }
            if settings.work.emitInitial && !settings.work.tracksState { throw CommandFailure.usage("--emit-initial goes with --state") }
        },
        loadsPages: true,
        run: { await WorkCommand(settings: $0).execute() })

    let settings: Settings

    func execute() async -> ExitCode {
        let warmUp = Task { try? await WebParserRunner.prepare() }
        defer { warmUp.cancel() }
        guard let url = settings.queue else { return .usage }
        let config: WorkerConfig
        do throws(ConfigError) {
            config =
                try settings.configPath.map { path throws(ConfigError) in
                    try WorkerConfig.load(path: path, environment: LaunchEnvironment.variables)
                } ?? WorkerConfig()
        } catch {
            StandardStreams.tellError(error.isUnreadable ? "webparse work: \(error)" : error.description)
            return .usage
        }
        let plan = RunPlan(worker: settings.run, over: config.run)
        let name = settings.worker ?? Self.defaultName
        let metrics = PageMetrics()
        let vitals = WorkerVitals(lease: settings.work.lease)
        let endpoint: MetricsEndpoint?
        do throws(CommandFailure) {
            endpoint = try settings.metrics.map { address throws(CommandFailure) in
                try MetricsEndpoint(address: address, content: .init(metrics: { metrics.text(gauges: vitals.gauges()) }, healthy: vitals.isHealthy))
            }
        } catch {
            StandardStreams.tellError("webparse work: \(error.message)")
            return error.code
        }
        defer { endpoint?.stop() }
        let queues: [WorkQueue]
        do throws(RedisConnection.Failure) {
            queues = try await Self.connect(url, worker: name, slots: plan.concurrency, lease: settings.work.lease)
        } catch {
            StandardStreams.tellError("webparse work: \(url): \(error)")
            return .queueUnavailable
        }
        vitals.beat()
        let setup: SessionSetup
        do throws(CommandFailure) {
            setup = try await SessionSetup.prepare(settings.session, over: config.session, configure: plan.sessionConfiguration)
        } catch {
            StandardStreams.tellError("webparse work: \(error.message)")
            for queue in queues { try? await queue.leave() }
            return error.code
        }
        let worker = QueueWorker(
            settings: settings.work, config: config, session: setup.session, reporter: ProgressReporter(verbosity: settings.verbosity), metrics: metrics,
            vitals: vitals)
        let worked = await worker.work(queues)
        let code: ExitCode =
            switch worked.end {
            case .success: .success
            case .itemFailed: .jobFailed
            case .environment: .environment
            case .queueUnavailable: .queueUnavailable
            }
        do throws(CommandFailure) {
            try await setup.save(anySuccess: worked.done > 0, visited: worked.visited)
        } catch {
            StandardStreams.tellError("webparse work: \(error.message)")
            return code == .success ? .jobFailed : code
        }
        if worked.renews {
            endpoint?.stop()
            if settings.verbosity != .quiet {
                StandardStreams.tell("webparse work: \(name): \(settings.work.renewAfter) items taken; starting over as a fresh process (--renew-after)")
            }
            ProcessExit.renew()
        }
        return code
    }

    /// The host's name and the process's ID: unique among a Kubernetes Job's pods and a machine's processes.
    static var defaultName: String {
        var buffer = [CChar](repeating: 0, count: 256)
        let named = gethostname(&buffer, buffer.count) == 0
        let host = named ? String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) : "webparse"
        return host + "-" + String(getpid())
    }

    /// One queue connection per page at once, named `worker-1`, `worker-2`…: each slot is a worker of its own to
    /// Redis (its items in hand, its lease), so that one slot's wait for an item never holds another's record back.
    /// - Throws: `RedisConnection.Failure` when the server cannot be used.
    private static func connect(_ url: RedisURL, worker: String, slots: Int, lease: Duration) async throws(RedisConnection.Failure) -> [WorkQueue] {
        var queues: [WorkQueue] = []
        for slot in 1...max(slots, 1) {
            queues.append(try await WorkQueue.open(url, worker: "\(worker)-\(slot)", lease: lease))
        }
        return queues
    }
}
