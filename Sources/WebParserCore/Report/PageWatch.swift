import FoundationEssentials
import WebParser

/// How a command hears the pages its crawls and follows load: the reporter's progress and each page's messages, and,
/// with `--har`, the page's requests recorded; and what it says of a crawl as it goes.
package struct PageWatch: Sendable {
    package let reporter: ProgressReporter
    package let har: HARRecorder?
    /// What counts the pages, and the name of the job whose pages they are (`--metrics-file`).
    package var metrics: (counts: PageMetrics, job: String)? = nil
    /// Where the crawls keep each host's limits: the command's, shared by its crawls (nil: each crawl its own).
    package var hosts: (any HostBook)? = nil

    /// Pages heard by `reporter`, their requests kept by `har`, counted in `metrics`, their crawls' hosts kept in
    /// `hosts`.
    package init(reporter: ProgressReporter, har: HARRecorder?, metrics: (counts: PageMetrics, job: String)? = nil, hosts: (any HostBook)? = nil) {
        self.reporter = reporter
        self.har = har
        self.metrics = metrics
        self.hosts = hosts
    }

    /// The listeners of the page `label` of `job`, which records its requests with `--har`.
    package func listeners(_ job: inout WebParserJob, _ label: String) -> PageListeners {
        let report = reporter.messageHandler(for: label)
        let observe = reporter.observer(for: label)
        let counts = metrics.map { $0.counts.observer(job: $0.job, url: job.url) }
        return PageListeners(
            onStateChange: { state in
                observe(state)
                counts?(state)
            }, onMessage: har.map { $0.recording(&job, as: label, besides: report) } ?? report)
    }

    /// The pipeline of `named` on `pages`: its start page heard by the reporter, the counts and `besides` (what
    /// keeps its requests for `--har` or streams its emitted values), the pages its crawl and its follow find heard
    /// as `listeners` says, and its crawl told as `crawlEvents` says, each page it reads given to `onCrawlPage`.
    package func pipeline(
        _ pages: some PageRunner, for named: Config.NamedJob, besides other: (@Sendable (WebParserMessage) -> Void)?,
        onCrawlPage: @escaping @Sendable (CrawledPage) -> Void = { _ in }
    ) -> JobPipeline {
        let report = reporter.messageHandler(for: named.name)
        let counts = metrics.map { $0.counts.observer(job: $0.job, url: named.job.url) }
        let start = pages.watched { [reporter] _, label in
            let observe = reporter.observer(for: label)
            return PageListeners(
                onStateChange: { state in
                    observe(state)
                    counts?(state)
                },
                onMessage: { message in
                    report(message)
                    other?(message)
                })
        }
        var pipeline = JobPipeline(pages: pages.watched(by: listeners), crawler: crawler(pages))
        pipeline.startPages = start
        pipeline.onCrawlEvent = crawlEvents(of: named.name, onPage: onCrawlPage)
        pipeline.onFound = { [reporter] in reporter.know($0) }
        return pipeline
    }

    /// The pages of `pages` heard so, each host's limits kept in `hosts`; the `robots.txt` files they download are
    /// no pages of the progress line.
    package func crawler(_ pages: some PageRunner) -> Crawler {
        Crawler(pages: pages.watched(by: listeners), robots: RobotsFiles(pages: pages), hostBook: hosts)
    }

    /// What the crawl of job `name` tells: progress, warnings, with `-v` notes; `onPage` gets each page read.
    package func crawlEvents(of name: String, onPage: @escaping @Sendable (CrawledPage) -> Void = { _ in }) -> @Sendable (CrawlEvent) -> Void {
        { [reporter] event in
            switch event {
            case .found(let count): reporter.know(count)
            case .dropped(let count): reporter.forget(count)
            case .page(let page): onPage(page)
            case .warning(let warning): StandardStreams.tell("webparse: \(name): \(warning)")
            case .note(let note): if reporter.isVerbose { StandardStreams.tell("webparse: \(name): \(note)") }
            }
        }
    }
}
