import FoundationEssentials
import WebParser

/// The keys of `crawl`, each optional (`{}` crawls by every link); selectors and regular expressions are checked here.
enum CrawlFields {
    static let all: [ConfigField<Crawl>] = [
        .member("links", "a CSS selector of the links followed (default a[href])") { reader, path, input, crawl in
            if let selector = reader.cssSelector(path, input) { crawl.links = selector }
        },
        .member("match", "a regular expression a link's URL must match") { reader, path, input, crawl in
            if let pattern = reader.regex(path, input) { crawl.match = pattern }
        },
        .member("exclude", "a regular expression whose links are not followed") { reader, path, input, crawl in
            if let pattern = reader.regex(path, input) { crawl.exclude = pattern }
        },
        .member("maxPages", "the most pages loaded, the start included (default 1000)") { reader, path, input, crawl in
            if let count = reader.integer(path, input, in: 1...1_000_000, what: "a number of pages") { crawl.maxPages = count }
        },
        .member("maxDepth", "the most links away from the start a page may be") { reader, path, input, crawl in
            if let depth = reader.integer(path, input, in: 0...10_000, what: "a number of links") { crawl.maxDepth = depth }
        },
        .member("sameSite", "only pages of the start's site (default true)") { reader, path, input, crawl in
            if let flag = reader.bool(path, input) { crawl.sameSite = flag }
        },
        .member("robots", "obey each host's robots.txt (default true)") { reader, path, input, crawl in
            if let flag = reader.bool(path, input) { crawl.robots = flag }
        },
        .member("perHost", "the most pages of one host at once (default 2)") { reader, path, input, crawl in
            if let count = reader.integer(path, input, in: 1...64, what: "a number of pages") { crawl.perHost = count }
        },
        .member("delay", "seconds between two page loads of one host starting") { reader, path, input, crawl in
            if let delay = reader.seconds(path, input, in: 0...3600) { crawl.delay = delay }
        },
        .member("sitemap", "true (the sitemaps robots.txt names) or a sitemap's URL") { reader, path, input, crawl in
            if let flag = input.flag {
                crawl.sitemap = flag ? .listed : nil
            } else if let text = input.text, !text.isEmpty, let url = URL(string: text),
                url.scheme.map({ ["http", "https"].contains($0.lowercased()) }) ?? true
            {
                crawl.sitemap = .at(text)
            } else {
                reader.problem(path, at: input, "expected true (the sitemaps robots.txt names) or a sitemap's URL, got \(input.excerpt)")
            }
        }
    ]
}

extension FieldReader {
    /// `crawl`: an object of `CrawlFields` (on the command line the same object as JSON).
    mutating func crawl(_ path: String, _ input: FieldInput) -> Crawl? {
        object(path, input, fields: CrawlFields.all, into: Crawl(), example: #"{"match": "/comics/", "maxPages": 200}"#)
    }

    /// A CSS selector, checked.
    mutating func cssSelector(_ path: String, _ input: FieldInput) -> String? {
        guard let selector = string(path, input) else { return nil }
        if let reason = CSSSelectorSyntax.problem(in: selector) {
            problem(path, at: input, "not a valid CSS selector: \(reason)")
            return nil
        }
        return selector
    }

    /// A regular expression, checked.
    mutating func regex(_ path: String, _ input: FieldInput) -> String? {
        guard let pattern = string(path, input), (try? Regex(pattern)) != nil else {
            problem(path, at: input, "expected a regular expression, got \(input.excerpt), which is not one")
            return nil
        }
        return pattern
    }
}
