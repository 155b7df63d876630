import Foundation
import Synchronization
import WebParser
import WebParserCore

/// A `PageRunner` without WebKit: a site of pages by path, each answering with its data and links, a redirect, or
/// a failure, that counts every load and the most loads of a host at once.
final class FakePages: PageRunner {
    /// What a page of the site does when it is loaded.
    enum Page: Sendable {
        /// Answers `data`, with these links (as written on the page).
        case page(data: String, links: [String])
        /// Its load ends at `location` (a path, or an absolute URL), which is loaded in its place.
        case redirect(to: String)
        /// Fails with `kind`.
        case fails(WebParserError.Kind)
        /// Answers `data` after `delay`.
        case slow(data: String, delay: Duration)
        /// Fails with the HTTP `status`, its Retry-After asking for `retryAfter`.
        case refuses(status: Int, retryAfter: Duration?)
        /// A file (a `robots.txt`) of MIME type `type` whose text is `body`: downloaded, not loaded as a page.
        case file(type: String, body: String)
    }

    let site: String
    /// How long each page takes to answer, as a page that loads does.
    let delay: Duration
    private let pages: [String: Page]
    private let state = Mutex(State())

    private struct State {
        var loads: [String] = []
        var starts: [ContinuousClock.Instant] = []
        var refusals: [ContinuousClock.Instant] = []
        var labels: [String] = []
        var loading = 0
        var mostAtOnce = 0
    }

    /// The site at `site` (its scheme and host), with `pages` by path (or, for pages of other sites, by URL); a page
    /// it does not have fails with 404.
    init(site: String = "https://comics.example", delay: Duration = .zero, _ pages: [String: Page]) {
        self.site = site
        self.delay = delay
        self.pages = pages
    }

    /// Every URL loaded, in order.
    var loads: [String] { state.withLock { $0.loads } }
    /// When each load started, in order.
    var starts: [ContinuousClock.Instant] { state.withLock { $0.starts } }
    /// When each refusal (`Page.refuses`) was answered, in order.
    var refusals: [ContinuousClock.Instant] { state.withLock { $0.refusals } }
    /// The label of every load, in order.
    var labels: [String] { state.withLock { $0.labels } }
    /// The most pages loading at once.
    var mostAtOnce: Int { state.withLock { $0.mostAtOnce } }

    /// How many times the page at `path` was loaded.
    func loads(of path: String) -> Int { loads.filter { $0 == site + path }.count }

    func run(_ job: WebParserJob, label: String, pass: HostPass) async throws -> WebParserResult {
        try await pass.waitForTurn()
        pass.hear(.requested)
        state.withLock {
            $0.loads.append(job.url.absoluteString)
            $0.starts.append(.now)
            $0.labels.append(label)
            $0.loading += 1
            $0.mostAtOnce = max($0.mostAtOnce, $0.loading)
        }
        defer { state.withLock { $0.loading -= 1 } }
        await Task.yield()
        if delay > .zero { try await Task.sleep(for: delay) }
        var url = job.url
        for _ in 0..<10 {
            let path = url.path() + (url.query().map { "?" + $0 } ?? "")
            guard let page = pages[url.absoluteString] ?? (url.absoluteString.hasPrefix(site) ? pages[path] : nil) else {
                throw WebParserError(.httpStatus(404), url: url.absoluteString)
            }
            switch page {
            case .page(let data, let links):
                var result = WebParserResult(data: Data(data.utf8), finalURL: url.absoluteString, httpStatus: 200, attempts: 1)
                result.links = job.evaluation.links == nil ? nil : links.compactMap { URL(string: $0, relativeTo: url)?.absoluteString }
                return result
            case .slow(let data, let delay):
                try await Task.sleep(for: delay)
                var result = WebParserResult(data: Data(data.utf8), finalURL: url.absoluteString, httpStatus: 200, attempts: 1)
                result.links = []
                return result
            case .file(_, let body):
                return WebParserResult(data: Data(String(reflecting: body).utf8), finalURL: url.absoluteString, httpStatus: 200, attempts: 1)
            case .redirect(let location):
                url = URL(string: location, relativeTo: url)!.absoluteURL
            case .fails(let kind):
                let error = WebParserError(kind, url: url.absoluteString)
                pass.hear(.failed(error))
                throw error
            case .refuses(let status, let retryAfter):
                state.withLock { $0.refusals.append(.now) }
                var error = WebParserError(.httpStatus(status), url: url.absoluteString)
                error.retryAfter = retryAfter
                pass.hear(.failed(error))
                throw error
            }
        }
        throw WebParserError(.tooManyRedirects, url: url.absoluteString)
    }

    /// Writes the file at `url` (a `.file`'s body, a `.page`'s data) to `path` after its redirects, counted as a load;
    /// a page that fails fails the download so, and a page the site does not have fails with 404.
    func download(_ url: URL, to path: String, maxBytes: Int, timeout: Duration) async throws -> WebParserDownload {
        state.withLock { $0.loads.append(url.absoluteString) }
        var url = url
        for _ in 0..<10 {
            let place = url.path() + (url.query().map { "?" + $0 } ?? "")
            let (body, type): (String, String)
            switch pages[url.absoluteString] ?? (url.absoluteString.hasPrefix(site) ? pages[place] : nil) {
            case .file(let fileType, let text): (body, type) = (text, fileType)
            case .page(let data, _), .slow(let data, _): (body, type) = (data, "application/json")
            case .redirect(let location):
                url = URL(string: location, relativeTo: url)!.absoluteURL
                continue
            case .fails(let kind): throw WebParserError(kind, url: url.absoluteString)
            case .refuses(let status, _): throw WebParserError(.httpStatus(status), url: url.absoluteString)
            case nil: throw WebParserError(.httpStatus(404), url: url.absoluteString)
            }
            guard body.utf8.count <= maxBytes else { return .tooLarge }
            try Data(body.utf8).write(to: URL(filePath: path))
            return .written(status: 200, type: type)
        }
        throw WebParserError(.tooManyRedirects, url: url.absoluteString)
    }

    /// A text file of the site (a `robots.txt`).
    static func text(_ body: String) -> Page { .file(type: "text/plain", body: body) }
}
