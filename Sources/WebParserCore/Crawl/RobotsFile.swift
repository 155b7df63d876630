import FoundationEssentials
import WebParser

/// A site's `robots.txt` as a crawl reads it, after RFC 9309 (2.3.1): a file that came (after its redirects) is read,
/// its first `sizeLimit` characters at least; a site that has none (a 4xx status) or whose file is no text has no
/// rules; a site whose file cannot be reached (a 5xx or 429 status, a network or TLS failure, no answer within
/// `timeout` and one more try) is not crawled at all, and a warning says why.
public struct RobotsFile: Sendable {
    /// The site the file is of: its scheme, host and port (`CrawlURL.site`).
    public let site: String
    /// What the file allows webparse: its rules, or none (everything allowed), or nothing (the site unreachable).
    public let rules: RobotsRules
    /// What a crawl says once about the file, when it is not an ordinary one (it could not be reached, it is no text).
    public let warning: String?

    /// The most characters of a file read: RFC 9309 asks for 500 KiB at least.
    public static let sizeLimit = 512 * 1024
    /// How long one try to load a file may take.
    public static let timeout: Duration = .seconds(10)

    /// The job that loads the file of `site`: its text (the first `sizeLimit` characters) and its content type, once
    /// the document has loaded; a server error or a lost connection is tried once more.
    public static func job(for site: String) -> WebParserJob? {
        guard let url = URL(string: site + "/robots.txt") else { return nil }
        let script = "({type: document.contentType, text: (document.documentElement?.textContent ?? '').slice(0, \(sizeLimit))})"
        return WebParserJob(
            url: url, evaluation: Evaluation(script: script, waitFor: "document.readyState === 'complete'"), timeout: timeout,
            retry: RetryPolicy(retries: 1))
    }

    /// The file of `site` as `outcome`, the result of `job(for:)` (or why it failed), says it is.
    public init(site: String, outcome: Result<WebParserResult, WebParserError>) {
        self.site = site
        let unreachable = { (why: String) in
            (RobotsRules.disallowAll, "warning: \(site)/robots.txt could not be read (\(why)): nothing of \(site) is loaded, as RFC 9309 asks")
        }
        switch outcome {
        case .success(let result):
            let node = try? JSONNode.parse(Array(result.data), rules: .lenient)
            let type = node?["type"]?.string ?? ""
            let text = node?["text"]?.string ?? ""
            if type == "text/plain" {
                (rules, warning) = (RobotsRules(text), nil)
            } else {
                (rules, warning) = (.allowAll, "warning: \(site)/robots.txt is not text (\(type.isEmpty ? "no type" : type)): no rules read from it")
            }
        case .failure(let error):
            switch error.kind {
            case .httpStatus(let status) where status == 429 || status >= 500:
                (rules, warning) = unreachable("HTTP status \(status)")
            case .blocked(_, let status) where status >= 500:
                (rules, warning) = unreachable(error.kind.detail)
            case .httpStatus, .blocked:
                (rules, warning) = (.allowAll, nil)
            case .loadFailed(let reason) where reason.hasPrefix("the server sent a download"):
                (rules, warning) = (.allowAll, "warning: \(site)/robots.txt is not text (\(reason)): no rules read from it")
            case .loadFailed("too many redirects"):
                (rules, warning) = (.allowAll, "warning: \(site)/robots.txt redirects too many times: no rules read from it (RFC 9309 2.3.1.2)")
            default:
                (rules, warning) = unreachable(error.kind.detail)
            }
        }
    }

    /// A site's file that was not read: everything is allowed (a crawl that does not obey `robots.txt`).
    public init(ignoredOf site: String) {
        self.site = site
        rules = .allowAll
        warning = nil
    }

    /// Whether `url` may be loaded.
    public func allows(_ url: URL) -> Bool {
        rules.allows(url)
    }
}

/// Each site's `robots.txt`, loaded once (through the crawl's own pages, so in its session) and read as
/// `RobotsFile` says, for one crawl or for every crawl of a worker.
public actor RobotsFiles {
    private let pages: any PageRunner
    private var files: [String: Task<RobotsFile, Never>] = [:]

    /// Files loaded by `pages`.
    public init(pages: any PageRunner) {
        self.pages = pages
    }

    /// The file of `url`'s site, loaded on first use; `isNew` is true for the one call that loaded it (the one that
    /// says its warning).
    public func file(for url: URL) async -> (file: RobotsFile, isNew: Bool) {
        let site = CrawlURL.site(of: url)
        if let loading = files[site] { return (await loading.value, false) }
        let loading = Task { [pages] in
            guard let job = RobotsFile.job(for: site) else { return RobotsFile(ignoredOf: site) }
            do {
                return RobotsFile(site: site, outcome: .success(try await pages.run(job, label: "\(site)/robots.txt")))
            } catch let error as WebParserError {
                return RobotsFile(site: site, outcome: .failure(error))
            } catch {
                // Cancelled: the crawl is stopping, and loads nothing more.
                return RobotsFile(site: site, outcome: .failure(WebParserError(.loadFailed("cancelled"), url: site)))
            }
        }
        files[site] = loading
        return (await loading.value, true)
    }
}
