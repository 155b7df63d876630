import FoundationEssentials
import WebParser

/// A site's `robots.txt` as a crawl reads it, after RFC 9309 (2.3.1): a file that came (after its redirects) is read,
/// its first `sizeLimit` bytes; a site that has none (a 4xx status) or whose file is no text has no rules; a site
/// whose file cannot be reached (a 5xx or 429 status, a network or TLS failure, no answer within `timeout` and one
/// more try) is not crawled at all, and a warning says why. The file is downloaded to disk, never into a page.
public struct RobotsFile: Sendable {
    /// The site the file is of: its scheme, host and port (`CrawlURL.site`).
    public let site: String
    /// What the file allows webparse: its rules, or none (everything allowed), or nothing (the site unreachable).
    public let rules: RobotsRules
    /// What a crawl says once about the file, when it is not an ordinary one (it could not be reached, it is no text).
    public let warning: String?

    /// The most bytes of a file read: RFC 9309 asks for 500 KiB at least.
    public static let sizeLimit = 512 * 1024
    /// The most bytes of a file downloaded (to disk, of which the first `sizeLimit` are read): a larger one is
    /// not read.
    public static let downloadLimit = 64 << 20
    /// How long one try to load a file may take.
    public static let timeout: Duration = .seconds(10)

    /// What loading a site's file gave.
    public enum Download: Sendable {
        /// The file came, with this MIME type ("" for none); `text` is its first `sizeLimit` bytes.
        case file(type: String, text: String)
        /// The file is larger than `downloadLimit`.
        case tooLarge
        /// It could not be loaded, for this reason (after its one more try).
        case failed(WebParserError)
    }

    /// The file of `site` as `download` says it is.
    public init(site: String, download: Download) {
        self.site = site
        let unreachable = { (why: String) in
            (RobotsRules.disallowAll, "warning: \(site)/robots.txt could not be read (\(why)): nothing of \(site) is loaded, as RFC 9309 asks")
        }
        switch download {
        case .file(let type, let text):
            if type == "text/plain" {
                (rules, warning) = (RobotsRules(text), nil)
            } else {
                (rules, warning) = (.allowAll, "warning: \(site)/robots.txt is not text (\(type.isEmpty ? "no type" : type)): no rules read from it")
            }
        case .tooLarge:
            (rules, warning) = (.allowAll, "warning: \(site)/robots.txt is larger than \(Self.downloadLimit >> 20) MiB: no rules read from it")
        case .failed(let error):
            switch error.kind {
            case .httpStatus(let status) where status == 429 || status >= 500:
                (rules, warning) = unreachable("HTTP status \(status)")
            case .httpStatus:
                (rules, warning) = (.allowAll, nil)
            case .tooManyRedirects:
                (rules, warning) = (.allowAll, "warning: \(site)/robots.txt redirects too many times: no rules read from it (RFC 9309 2.3.1.2)")
            default:
                (rules, warning) = unreachable(error.kind.detail)
            }
        }
    }

    /// Downloads the file of `site` with `pages` (in their session) to a file of its own, tried once more after a
    /// failure that may pass, and says what came.
    static func download(of site: String, with pages: any PageRunner) async -> Download {
        guard let url = URL(string: site + "/robots.txt") else { return .failed(WebParserError(.unsupportedURL(site), url: site)) }
        let path = FileManager.default.temporaryDirectory.appending(path: "webparse-robots-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        var tries = 0
        while true {
            tries += 1
            do {
                switch try await pages.download(url, to: path, maxBytes: downloadLimit, timeout: timeout) {
                case .tooLarge:
                    return .tooLarge
                case .written(_, let type):
                    let bytes = InputFile.prefix(of: path, count: sizeLimit) ?? Data()
                    return .file(type: type, text: String(decoding: bytes, as: UTF8.self))
                }
            } catch let error as WebParserError {
                if tries < 2, error.isTransient, !Task.isCancelled { continue }
                return .failed(error)
            } catch {
                // Cancelled: the crawl is stopping, and loads nothing more.
                return .failed(WebParserError(.connectionLost("cancelled"), url: url.absoluteString))
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

/// Each site's `robots.txt`, downloaded once (through the crawl's own pages, so in its session) and read as
/// `RobotsFile` says, for one crawl or for every crawl of a worker.
public actor RobotsFiles {
    private let pages: any PageRunner
    private var files: [String: Task<RobotsFile, Never>] = [:]

    /// Files downloaded by `pages`.
    public init(pages: any PageRunner) {
        self.pages = pages
    }

    /// The file of `url`'s site, loaded on first use; `isNew` is true for the one call that loaded it (the one that
    /// says its warning).
    public func file(for url: URL) async -> (file: RobotsFile, isNew: Bool) {
        let site = CrawlURL.site(of: url)
        if let loading = files[site] { return (await loading.value, false) }
        let loading = Task { [pages] in RobotsFile(site: site, download: await RobotsFile.download(of: site, with: pages)) }
        files[site] = loading
        return (await loading.value, true)
    }
}
