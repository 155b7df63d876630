import FoundationEssentials
import WebParser

/// One sitemap (sitemaps.org's protocol) on disk, gzip'd or not, read as a stream (`XMLElementReader`): the pages a
/// `<urlset>` lists or the sitemaps a `<sitemapindex>` lists, each with its `lastmod`, at most the protocol's
/// 50,000 entries and 50 MiB of XML (a file past them is read up to them, and says so). A file that is not
/// well-formed XML gives the entries libxml2 recovers and a warning naming the file and the line of its first fault.
public struct SitemapFile: Sendable {
    /// An entry of a sitemap: a page, or a sitemap of an index.
    public struct Entry: Sendable, Equatable {
        /// Its URL, as the file writes it.
        public let loc: String
        /// When it last changed, as the file writes it (W3C Datetime); nil when it does not say.
        public let lastmod: String?

        /// The entry at `loc`, changed at `lastmod`.
        public init(loc: String, lastmod: String?) {
            self.loc = loc
            self.lastmod = lastmod
        }
    }

    /// The pages the file lists (a `<urlset>`).
    public var pages: [Entry] = []
    /// The sitemaps the file lists (a `<sitemapindex>`).
    public var sitemaps: [Entry] = []
    /// What a person should know about the file: where it is malformed, a limit it passed.
    public var warnings: [String] = []

    /// The most entries a sitemap may list (sitemaps.org).
    public static let maxEntries = 50_000
    /// The most bytes of XML a sitemap may hold, decompressed (sitemaps.org).
    public static let maxBytes = 50 * 1024 * 1024
    /// The longest URL kept; the protocol allows 2,048 characters.
    static let maxText = 4096

    /// The sitemap in the file at `path`, named `name` (its URL) in warnings, `want` entries at most.
    public init(path: String, name: String, want: Int = maxEntries) {
        let want = min(want, Self.maxEntries)
        var loc: String?
        var lastmod: String?
        var root = ""
        var entries = 0
        var passed: String?
        do throws(XMLElementReader.Malformed) {
            try XMLElementReader.read(path, maxText: Self.maxText) { element in
                if element.consumed > Self.maxBytes {
                    passed = "holds more than 50 MiB of XML"
                    return false
                }
                switch (element.depth, element.name) {
                case (2, "loc"): loc = element.text.trimmingWhitespace()
                case (2, "lastmod"): lastmod = element.text.trimmingWhitespace()
                case (1, "url"), (1, "sitemap"):
                    defer { (loc, lastmod) = (nil, nil) }
                    guard let url = loc, !url.isEmpty else { return true }
                    let entry = Entry(loc: url, lastmod: lastmod.flatMap { $0.isEmpty ? nil : $0 })
                    if element.name == "url" { pages.append(entry) } else { sitemaps.append(entry) }
                    entries += 1
                    guard entries < want else {
                        if want == Self.maxEntries { passed = "lists more than 50,000 entries" }
                        return false
                    }
                case (0, let name): root = name
                default: break
                }
                return true
            }
        } catch {
            let place = error.line.map { " line \($0)" } ?? ""
            let kept = entries == 0 ? "nothing read from it" : "\(entries) entr\(entries == 1 ? "y" : "ies") read from it"
            warnings.append("warning: sitemap \(name)\(place): \(error.message) (not well-formed XML): \(kept)")
            return
        }
        if let passed {
            warnings.append("warning: sitemap \(name) \(passed), the sitemaps protocol's limit: the first \(entries) entries kept")
        } else if entries == 0, !root.isEmpty, root != "urlset", root != "sitemapindex" {
            warnings.append("warning: \(name) is not a sitemap (its root is <\(root)>, not <urlset> or <sitemapindex>): nothing read from it")
        }
    }
}
