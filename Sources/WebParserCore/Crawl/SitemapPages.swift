import FoundationEssentials
import WebParser

/// The pages a crawl's sitemaps list (`Crawl.sitemap`): the sitemaps the start site's `robots.txt` names (else its
/// `/sitemap.xml`), or the one the crawl names, each loaded to disk through the crawl's session (`PageRunner.download`,
/// 50 MiB and `timeout` at most) and read as `SitemapFile` says; the sitemaps an index lists are read after it, two
/// indexes deep and `maxFiles` files at most, each once. What goes wrong is a warning, never a failed crawl.
public struct SitemapPages: Sendable {
    /// What loads the files.
    public let pages: any PageRunner
    /// Each site's `robots.txt`, where the sitemaps are named.
    public let robots: RobotsFiles

    /// The most sitemap files one crawl reads.
    public static let maxFiles = 1000
    /// How long one file may take to load.
    public static let timeout: Duration = .seconds(60)

    /// The sitemaps `pages` loads, named in `robots`.
    public init(pages: any PageRunner, robots: RobotsFiles) {
        self.pages = pages
        self.robots = robots
    }

    /// Reads the sitemaps `sitemap` says for a crawl whose start page ended at `start`, handing `onPages` the pages
    /// each file lists, as the file has them, until it returns false (the crawl has all it may load); `onWarning`
    /// hears each warning.
    public func read(
        _ sitemap: CrawlSitemap, start: URL, onPages: ([SitemapFile.Entry]) async -> Bool, onWarning: (String) -> Void
    ) async {
        var waiting: [(url: URL, depth: Int)]
        switch sitemap {
        case .at(let text):
            guard let url = URL(string: text, relativeTo: start)?.absoluteURL else {
                onWarning("warning: the sitemap \(text) is not a URL: no sitemap read")
                return
            }
            waiting = [(url, 0)]
        case .listed:
            let named = await robots.file(for: start).file.rules.sitemaps
            let site = CrawlURL.site(of: start)
            waiting = (named.isEmpty ? ["/sitemap.xml"] : named).compactMap { URL(string: $0, relativeTo: URL(string: site))?.absoluteURL }
                .map { ($0, 0) }
        }
        var seen = Set(waiting.map(\.url))
        var files = 0
        while !waiting.isEmpty, !Task.isCancelled {
            let (url, depth) = waiting.removeFirst()
            files += 1
            guard files <= Self.maxFiles else {
                onWarning("warning: the crawl's sitemaps name more than \(Self.maxFiles) files: \(waiting.count + 1) of them not read")
                return
            }
            guard let file = await load(url, onWarning: onWarning) else { continue }
            file.warnings.forEach(onWarning)
            if !file.pages.isEmpty, await !onPages(file.pages) { return }
            for entry in file.sitemaps {
                guard let next = URL(string: entry.loc, relativeTo: url)?.absoluteURL, seen.insert(next).inserted else { continue }
                guard depth < 2 else {
                    onWarning("warning: sitemap \(URLRedaction.redact(url.absoluteString)) is an index three deep: \(next) not read")
                    continue
                }
                waiting.append((next, depth + 1))
            }
        }
    }

    /// The sitemap at `url`, loaded to a file of its own and read; nil, said, when it could not be.
    private func load(_ url: URL, onWarning: (String) -> Void) async -> SitemapFile? {
        let name = URLRedaction.redact(url.absoluteString)
        let path = FileManager.default.temporaryDirectory.appending(path: "webparse-sitemap-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        do {
            switch try await pages.download(url, to: path, maxBytes: SitemapFile.maxBytes, timeout: Self.timeout) {
            case .tooLarge:
                onWarning("warning: sitemap \(name) is larger than 50 MiB, the sitemaps protocol's limit: not read")
                return nil
            case .written:
                return SitemapFile(path: path, name: name)
            }
        } catch let error as WebParserError {
            if case .httpStatus(let status) = error.kind {
                onWarning("warning: sitemap \(name) answered HTTP status \(status): not read")
                return nil
            }
            onWarning("warning: sitemap \(name) could not be loaded (\(error.kind.detail)): not read")
        } catch {
            // Cancelled: the crawl is stopping.
        }
        return nil
    }
}
