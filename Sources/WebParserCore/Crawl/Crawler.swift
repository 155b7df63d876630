import FoundationEssentials
import WebParser

/// What a crawl tells as it goes, for progress and messages.
public enum CrawlEvent: Sendable {
    /// `count` more pages are known to come (found, within `maxPages`).
    case found(Int)
    /// `count` pages known to come will not (the crawl is stopping).
    case dropped(Int)
    /// A page was read (or failed).
    case page(CrawledPage)
    /// Something a person should know, always (a site's `robots.txt` that could not be read).
    case warning(String)
    /// Something said with details (`-v`): a page that was the same as one read, or left the crawl's site.
    case note(String)
}

/// What a crawl read.
public struct Crawled: Sendable {
    /// Every page read, the start first, in the order they were read, each once.
    public var pages: [CrawledPage]
    /// How many of them failed.
    public var failed: Int
    /// Links found and not loaded because `maxPages` pages were.
    public var leftAtMaxPages: Int
    /// How many of the pages were not loaded because the sitemaps list them with the `lastmod` they had when the
    /// crawl's history read them: their last results stand.
    public var unchanged = 0
    /// The `lastmod` the sitemaps gave each page read or standing, by URL: the crawl's history for the next crawl.
    public var lastmods: [String: String] = [:]
}

/// Reads every page reachable from a job's start page by the links its rendered pages have (`Crawl`), each with
/// the job's script: breadth first, each page once (`CrawlFrontier`), from tab to tab of one tab group as a person
/// browsing does, `perHost` pages of a host at once and `delay` (or its `Crawl-delay`) apart, a host that refuses
/// with a 429 paused (`HostGates`), as each site's `robots.txt` allows (`CrawlDiscovery`), `maxPages` at most; with
/// `Crawl.sitemap`, the pages its sitemaps list too (`SitemapPages`), after those the start page links to.
///
/// ```swift
/// let pages = WebParserPages(parser: WebParserRunner(), concurrency: 4)
/// let crawled = try await Crawler(pages: pages).crawl(Crawl(maxPages: 100), job: job, name: "docs")
/// ```
public struct Crawler: Sendable {
    /// What loads the crawl's pages.
    public let pages: any PageRunner
    /// Each site's `robots.txt`: the crawl's own, or shared by crawls (a worker's).
    public let robots: RobotsFiles
    /// Where each host's limits are kept: the crawl's own, or shared by a run's crawls.
    public let hostBook: any HostBook
    /// The most pages waiting for a slot at once: enough to keep every slot busy, few enough that a crawl of
    /// thousands of links holds its frontier, not thousands of tasks.
    static let inFlight = 16

    /// A crawler whose pages `pages` load, reading `robots` (by default, files of its own, loaded by `pages`), each
    /// host's limits kept in `hostBook` (by default, the crawl's own).
    public init(pages: any PageRunner, robots: RobotsFiles? = nil, hostBook: (any HostBook)? = nil) {
        self.pages = pages
        self.robots = robots ?? RobotsFiles(pages: pages)
        self.hostBook = hostBook ?? LocalHostBook()
    }

    /// Crawls by `crawl` from `job`'s page: it is read first (with the links the crawl follows), then each page found
    /// is `job` at its URL, labelled `name` and its URL. `onEvent` hears what happens as it happens.
    /// - Throws: `WebParserError` when the start page fails; `CancellationError` when the task is cancelled first.
    public func crawl(
        _ crawl: Crawl, job: WebParserJob, name: String, onEvent: @escaping @Sendable (CrawlEvent) -> Void = { _ in }
    ) async throws -> Crawled {
        var job = job
        job.evaluation.links = crawl.links
        let start = try await pages.run(job, label: name)
        return await self.crawl(crawl, job: job, start: start, name: name, onEvent: onEvent)
    }

    /// Crawls by `crawl` from `start`, the result of `job` on its start page (read with `crawl.links` as its
    /// `Evaluation.links`): each page found is `job` at its URL, labelled `name` and its URL, except those the
    /// sitemaps list with the `lastmod` they had in `history`, whose results there stand. `onEvent` hears what
    /// happens as it happens.
    public func crawl(
        _ crawl: Crawl, job: WebParserJob, start: WebParserResult, name: String, history: CrawlHistory? = nil,
        onEvent: @escaping @Sendable (CrawlEvent) -> Void = { _ in }
    ) async -> Crawled {
        let asked = CrawlURL.normalized(job.url) ?? job.url
        let final = URL(string: start.finalURL).flatMap(CrawlURL.normalized) ?? asked
        let discovery = CrawlDiscovery(crawl, start: final, robots: robots)
        let scope = discovery.scope
        var frontier = CrawlFrontier(maxPages: crawl.maxPages, start: asked, final: final)
        let first = CrawledPage(url: final.absoluteString, result: .success(start.data))
        var pages = [first]
        var failed = 0
        var unchanged = 0
        var lastmods: [URL: String] = [:]
        onEvent(.page(first))
        let hosts = HostGates(book: hostBook) { news in
            if let warning = news.pause.warning { onEvent(.warning(warning)) }
            onEvent(.note(news.description))
        }
        // The crawl goes from page to page in the same tabs, as a person browsing the site does.
        let tabGroup = UUID().uuidString

        /// The pages the crawl follows that `links` of the page at `page`, `depth` links deep, lead to; what the
        /// site's robots.txt said is told.
        func linked(_ links: [String], on page: URL, depth: Int) async -> [CrawlTarget] {
            let (found, warnings) = await discovery.pages(linkedFrom: links, on: page, depth: depth)
            for warning in warnings { onEvent(.warning(warning)) }
            return found
        }
        /// Adds the pages `links` of the page at `page`, `depth` links deep, lead to.
        func discover(_ links: [String], on page: URL, depth: Int) async {
            let known = frontier.add(await linked(links, on: page, depth: depth))
            if known > 0 { onEvent(.found(known)) }
        }
        await discover(start.links ?? [], on: final, depth: 0)
        if let sitemap = crawl.sitemap {
            await SitemapPages(pages: self.pages, robots: robots).read(
                sitemap, start: final,
                onPages: { entries in
                    for entry in entries {
                        guard let lastmod = entry.lastmod, let url = CrawlURL.normalized(entry.loc, base: final) else { continue }
                        lastmods[url] = lastmod
                    }
                    await discover(entries.map(\.loc), on: final, depth: 0)
                    return frontier.hasRoom
                }, onWarning: { onEvent(.warning($0)) })
        }

        await withTaskGroup(of: (CrawlTarget, Result<WebParserResult, WebParserError>?).self) { group in
            var loading = 0
            while true {
                // A cancelled crawl (the run is stopping) starts no more pages.
                while !Task.isCancelled, loading < Self.inFlight, let target = frontier.next() {
                    // The sitemaps were read before any load: a page they list as it was at the last crawl stands.
                    if let result = history?.standing(target.url, lastmod: lastmods[target.url]) {
                        _ = frontier.arrived(target, at: nil, inScope: true)
                        pages.append(CrawledPage(url: target.url.absoluteString, result: .success(result)))
                        unchanged += 1
                        continue
                    }
                    loading += 1
                    var page = job
                    page.url = target.url
                    page.tabGroup = tabGroup
                    let label = "\(name) \(URLRedaction.redact(target.url.absoluteString))"
                    group.addTask { [self, page] in
                        do {
                            let delay = await discovery.delay(for: target.url)
                            let result = try await hosts.run(target.url, perHost: crawl.perHost, delay: delay) { pass in
                                try await self.pages.run(page, label: label, pass: pass)
                            }
                            return (target, .success(result))
                        } catch let error as WebParserError {
                            return (target, .failure(error))
                        } catch {
                            // Cancelled: the run is stopping.
                            return (target, nil)
                        }
                    }
                }
                guard let (target, outcome) = await group.next() else { break }
                loading -= 1
                guard let outcome else {
                    onEvent(.dropped(1))
                    continue
                }
                let result = try? outcome.get()
                let ended = result.flatMap { URL(string: $0.finalURL) }.flatMap(CrawlURL.normalized)
                let landing = await frontier.land(target, at: ended, inScope: ended.map(scope.contains) ?? true) {
                    await linked(result?.links ?? [], on: ended ?? target.url, depth: target.depth)
                }
                if let note = landing.arrival.note(asked: target.url) { onEvent(.note(note)) }
                if landing.added > 0 { onEvent(.found(landing.added)) }
                guard case .page(let url) = landing.arrival else { continue }
                let read = CrawledPage(url: url.absoluteString, result: outcome.map(\.data).mapError(PageFailure.init))
                pages.append(read)
                onEvent(.page(read))
                if result != nil, let lastmod = lastmods[target.url] { lastmods[url] = lastmod }
                if result == nil { failed += 1 }
            }
        }
        if unchanged > 0 { onEvent(.note("\(unchanged) page\(unchanged == 1 ? "" : "s") not loaded: unchanged in the sitemaps since the last crawl")) }
        // The history keeps the pages read or standing, not those that failed: they are loaded again.
        let kept = Set(pages.compactMap { page in (try? page.result.get()).map { _ in page.url } })
        var crawled = Crawled(pages: pages, failed: failed, leftAtMaxPages: frontier.leftAtMaxPages, unchanged: unchanged)
        crawled.lastmods = Dictionary(
            lastmods.map { ($0.key.absoluteString, $0.value) }.filter { kept.contains($0.0) }, uniquingKeysWith: { first, _ in first })
        return crawled
    }
}
