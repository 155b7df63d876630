import FoundationEssentials
import WebParser

extension FieldReader {
    /// `crawl`: `{"links", "match", "exclude", "maxPages", "maxDepth", "sameSite", "robots", "perHost", "delay",
    /// "sitemap"}`, every
    /// key optional (`{}` crawls by every link), on the command line the same object as JSON. Selectors and regular
    /// expressions are checked here.
    mutating func crawl(_ path: String, _ input: FieldInput) -> Crawl? {
        var given = input
        if case .arguments(let values) = input, let text = values.last {
            do throws(JSONSyntaxError) {
                given = .node(try JSONNode.parse(Array(text.utf8)))
            } catch {
                problem(path, at: input, "expected a JSON object such as {\"match\": \"/comics/\", \"maxPages\": 200}: \(error.message)")
                return nil
            }
        }
        guard let members = given.members else {
            problem(path, at: given, "expected {\"links\": SELECTOR, \"match\": REGEX, \"maxPages\": N, …} ({} crawls by every link), got \(given.excerpt)")
            return nil
        }
        let keys = ["links", "match", "exclude", "maxPages", "maxDepth", "sameSite", "robots", "perHost", "delay", "sitemap"]
        var valid = knownKeysOnly(members, keys, at: path)
        var crawl = Crawl()
        for (key, node) in members {
            let place = path + "." + key
            let value = FieldInput.node(node)
            switch key {
            case "links":
                guard let selector = string(place, value) else { valid = false; continue }
                if let reason = CSSSelectorSyntax.problem(in: selector) {
                    problem(place, at: value, "not a valid CSS selector: \(reason)")
                    valid = false
                }
                crawl.links = selector
            case "match", "exclude":
                guard let pattern = string(place, value), (try? Regex(pattern)) != nil else {
                    problem(place, at: value, "expected a regular expression, got \(value.excerpt), which is not one")
                    valid = false
                    continue
                }
                if key == "match" { crawl.match = pattern } else { crawl.exclude = pattern }
            case "maxPages":
                if let count = integer(place, value, in: 1...1_000_000, what: "a number of pages") { crawl.maxPages = count } else { valid = false }
            case "maxDepth":
                if let depth = integer(place, value, in: 0...10_000, what: "a number of links") { crawl.maxDepth = depth } else { valid = false }
            case "perHost":
                if let count = integer(place, value, in: 1...64, what: "a number of pages") { crawl.perHost = count } else { valid = false }
            case "sameSite":
                if let flag = bool(place, value) { crawl.sameSite = flag } else { valid = false }
            case "robots":
                if let flag = bool(place, value) { crawl.robots = flag } else { valid = false }
            case "delay":
                if let delay = seconds(place, value, in: 0...3600) { crawl.delay = delay } else { valid = false }
            case "sitemap":
                if let flag = value.flag {
                    crawl.sitemap = flag ? .listed : nil
                } else if let text = value.text, !text.isEmpty, let url = URL(string: text),
                    url.scheme.map({ ["http", "https"].contains($0.lowercased()) }) ?? true
                {
                    crawl.sitemap = .at(text)
                } else {
                    problem(place, at: value, "expected true (the sitemaps robots.txt names) or a sitemap's URL, got \(value.excerpt)")
                    valid = false
                }
            default:
                continue
            }
        }
        return valid ? crawl : nil
    }
}
