import FoundationEssentials
import WebParser
import WebParserCore

/// How a command hears the pages its crawls and follows load: the reporter's progress and each page's messages, and,
/// with `--har`, the page's requests recorded; and what it says of a crawl as it goes.
struct PageWatch: Sendable {
    let reporter: ProgressReporter
    let har: HARRecorder?
    /// What counts the pages, and the name of the job whose pages they are (`--metrics-file`).
    var metrics: (counts: PageMetrics, job: String)? = nil
    /// Where the crawls keep each host's limits: the command's, shared by its crawls (nil: each crawl its own).
    var hosts: (any HostBook)? = nil

    /// The listeners of the page `label` of `job`, which records its requests with `--har`.
    func listeners(_ job: inout WebParserJob, _ label: String) -> PageListeners {
        let report = reporter.messageHandler(for: label)
        let observe = reporter.observer(for: label)
        let counts = metrics.map { $0.counts.observer(job: $0.job, url: job.url) }
        return PageListeners(
            onStateChange: { state in
                observe(state)
                counts?(state)
            }, onMessage: har.map { $0.recording(&job, as: label, besides: report) } ?? report)
    }

    /// The pages of `pages` heard so, each host's limits kept in `hosts`; the `robots.txt` files they load are heard
    /// with `-v` only, and not counted as pages of the progress line.
    func crawler(_ pages: WebParserPages) -> Crawler {
        let verbose = reporter.isVerbose ? reporter : nil
        let robots = pages.watched { _, label in
            guard let verbose else { return PageListeners() }
            return PageListeners(onStateChange: verbose.observer(for: label))
        }
        return Crawler(pages: pages.watched(by: listeners), robots: RobotsFiles(pages: robots), hostBook: hosts)
    }

    /// What the crawl of job `name` tells: progress, warnings, with `-v` notes; `onPage` gets each page read.
    func crawlEvents(of name: String, onPage: @escaping @Sendable (CrawledPage) -> Void = { _ in }) -> @Sendable (CrawlEvent) -> Void {
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
