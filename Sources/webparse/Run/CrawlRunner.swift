import FoundationEssentials
import WebParser
import WebParserCore

/// Reads every page reachable from a job's start page by the links its rendered pages have (`Crawl`), each with the
/// job's script: breadth first, each URL once (`CrawlURL`), the run's pages shared (`PageSlots`) and `perHost` pages
/// of a host at once, `delay` apart, as each host's `robots.txt` allows, `maxPages` at most.
struct CrawlRunner: Sendable {
    let parser: WebParserRunner
    let slots: PageSlots
    let reporter: ProgressReporter
    /// The crawling job's name, for messages.
    let name: String
    /// Where `--har` keeps each page's requests, if it is given.
    var har: HARRecorder? = nil
    /// Told each page as it is done (its URL, and its result or `{"error", "code"}`), for lines that stream.
    let onPage: @Sendable (String, Result<Data, WebParserError>) -> Void

    /// What a crawl read.
    struct Crawled: Sendable {
        /// Every page loaded, in order, with its result or `{"error", "code"}`.
        var pages: [(url: String, result: Data)]
        var failed: Int
        /// Links found and not followed because `maxPages` was reached.
        var leftAtMaxPages: Int
    }

    /// Crawls from `start`, the result of `job` on its start page, by `crawl`.
    func crawl(_ crawl: Crawl, job: WebParserJob, start: WebParserResult) async -> Crawled {
        let startURL = CrawlURL.normalized(job.url) ?? job.url
        let scope = CrawlScope(crawl, start: startURL)
        var seen: Set<URL> = [startURL]
        if let final = URL(string: start.finalURL).flatMap(CrawlURL.normalized) { seen.insert(final) }
        var pages: [(url: String, result: Data)] = [(startURL.absoluteString, start.data)]
        onPage(startURL.absoluteString, .success(start.data))
        var frontier: [(url: URL, depth: Int)] = []
        var leftAtMaxPages = 0
        let hosts = HostGates(perHost: crawl.perHost, delay: crawl.delay)
        let robots = RobotsCache(parser: parser, slots: slots, obeys: crawl.robots)
        // The crawl goes from page to page in the same tabs, as a person browsing the site does.
        let tabGroup = UUID().uuidString

        /// Adds the links a page at `depth` had, that the crawl takes and has not seen.
        func discover(_ links: [String], from page: URL, depth: Int) {
            for link in links {
                guard let url = scope.follows(link, on: page, depth: depth), !seen.contains(url) else { continue }
                seen.insert(url)
                frontier.append((url, depth + 1))
                // Links past maxPages will not be loaded: the progress line does not count them.
                if seen.count <= crawl.maxPages { reporter.know(1) }
            }
        }
        discover(start.links ?? [], from: URL(string: start.finalURL) ?? startURL, depth: 0)

        var failed = 0
        var loading = 0
        await withTaskGroup(of: (URL, Int, Result<WebParserResult, WebParserError>?).self) { group in
            // Up to twice the run's pages wait for a slot at once: enough to keep every slot busy, few enough that a
            // crawl of thousands of links holds its frontier, not thousands of tasks.
            let inFlight = 16
            while true {
                while loading < inFlight, !frontier.isEmpty, pages.count + loading < crawl.maxPages {
                    let (url, depth) = frontier.removeFirst()
                    loading += 1
                    group.addTask {
                        guard await robots.allows(url) else { return (url, depth, nil) }
                        let label = "\(name) \(URLRedaction.redact(url.absoluteString))"
                        let report = reporter.messageHandler(for: label)
                        var page = job
                        page.url = url
                        page.tabGroup = tabGroup
                        let onMessage = har.map { $0.recording(&page, as: label, besides: report) } ?? report
                        do {
                            let result = try await hosts.run(url) { [page] in
                                try await slots.run { [parser, reporter, page] in
                                    try await parser.run(page, onStateChange: reporter.observer(for: label), onMessage: onMessage)
                                }
                            }
                            return (url, depth, .success(result))
                        } catch let error as WebParserError {
                            return (url, depth, .failure(error))
                        } catch {
                            // Cancelled: the run is stopping.
                            return (url, depth, nil)
                        }
                    }
                }
                guard let (url, depth, outcome) = await group.next() else { break }
                loading -= 1
                switch outcome {
                case nil:
                    reporter.forget(1)
                    continue
                case .success(let result):
                    pages.append((url.absoluteString, result.data))
                    onPage(url.absoluteString, .success(result.data))
                    discover(result.links ?? [], from: URL(string: result.finalURL) ?? url, depth: depth)
                case .failure(let error):
                    failed += 1
                    pages.append((url.absoluteString, CrawlRecord.failure(error.description, code: error.code.rawValue)))
                    onPage(url.absoluteString, .failure(error))
                }
            }
        }
        if pages.count >= crawl.maxPages { leftAtMaxPages = frontier.count }
        return Crawled(pages: pages, failed: failed, leftAtMaxPages: leftAtMaxPages)
    }
}

/// The pages of each host loaded at once (`perHost`), and the least time between two of them starting (`delay`).
actor HostGates {
    private let perHost: Int
    private let delay: Duration
    private var gates: [String: PageSlots] = [:]
    private var nextStart: [String: ContinuousClock.Instant] = [:]

    init(perHost: Int, delay: Duration) {
        self.perHost = perHost
        self.delay = delay
    }

    /// Runs `work`, a load of `url`, once its host has room for it and its turn has come.
    func run<T: Sendable>(_ url: URL, _ work: @escaping @Sendable () async throws -> T) async throws -> T {
        let host = url.host()?.lowercased() ?? ""
        let gate = gates[host] ?? PageSlots(perHost)
        gates[host] = gate
        return try await gate.run { [self] in
            try await self.waitForTurn(host)
            return try await work()
        }
    }

    /// Waits until `delay` has passed since the host's last start.
    private func waitForTurn(_ host: String) async throws {
        guard delay > .zero else { return }
        let now = ContinuousClock.now
        let start = max(now, nextStart[host] ?? now)
        nextStart[host] = start + delay
        try await Task.sleep(until: start)
    }
}

/// Each host's `robots.txt`, loaded once (by the crawl's own browser, as a page) and read for webparse.
actor RobotsCache {
    private let parser: WebParserRunner
    private let slots: PageSlots
    private let obeys: Bool
    private var rules: [String: Task<RobotsRules, Never>] = [:]

    init(parser: WebParserRunner, slots: PageSlots, obeys: Bool) {
        self.parser = parser
        self.slots = slots
        self.obeys = obeys
    }

    /// Whether `url` may be loaded: always when the crawl does not obey `robots.txt`, or its host has none.
    func allows(_ url: URL) async -> Bool {
        guard obeys else { return true }
        let site = CrawlURL.site(of: url)
        let task = rules[site] ?? Task { [parser, slots] in await Self.load(site + "/robots.txt", parser: parser, slots: slots) }
        rules[site] = task
        return await task.value.allows(url)
    }

    private static func load(_ address: String, parser: WebParserRunner, slots: PageSlots) async -> RobotsRules {
        guard let url = URL(string: address) else { return .allowAll }
        let job = WebParserJob(
            url: url,
            evaluation: Evaluation(script: "document.contentType === 'text/plain' ? document.body.innerText : ''", waitFor: "true"),
            timeout: .seconds(15), retry: RetryPolicy(retries: 1))
        guard let result = try? await slots.run({ try await parser.run(job) }),
            let text = (try? JSONNode.parse(Array(result.data), rules: .lenient))?.string
        else { return .allowAll }
        return RobotsRules(text)
    }
}
