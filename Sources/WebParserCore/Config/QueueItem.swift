import FoundationEssentials
import WebParser

/// An item of a work queue (`webparse work`): an http(s) URL, or a job object with a config job's fields, read as a
/// config's job is, over the worker's defaults (its CONFIG's `defaults`, `--script` or `--extract`). A page a
/// crawl found is an item too: its crawl's item with the page's `url`, the crawl's `name`, and its `depth`; and so is
/// the detail page of a list's item a follow found: `{"name", "url", "detailOf": LIST'S ITEM TEXT, "item": ITEM}`,
/// run with the follow's job.
package struct QueueItem: Sendable {
    /// The largest item read, in bytes.
    package static let limit = 1 << 20
    /// The one key of an item that is not a job field: how many links away from its crawl's start the page is.
    package static let depthKey = "depth"
    /// The keys of a detail page's item: the text of the list's item whose follow found it, and the list's item.
    package static let detailKeys = (of: "detailOf", item: "item")

    package var named: Config.NamedJob
    /// How many links away from its crawl's start the item's page is (0: it is the start, or no crawl's page).
    package var depth: Int
    /// For a detail page, the item of the list it is the page of (JSON).
    package var listItem: Data?

    /// The item `text`, read over `defaults`; a job that gives no script (or scriptFile, or extract), and whose
    /// defaults give none, evaluates `script` or reads `extract` (a config's extract as JSON): a bare URL, most
    /// often. Whoever can push to the queue is not the worker's owner: an item reads no environment variable (a page
    /// could otherwise be typed the worker's secrets; they go in the worker's config) and no file, and writes files
    /// only by name in `itemFiles`, the folder the worker's config names for them (`FieldReader.FileAccess.item`).
    /// - Throws: `ConfigError` naming the item `name` when it is larger than `limit`, neither a URL nor a job
    ///   object, a job object with a problem (an unknown field, a wrong value, no script), or one that loads, reads or
    ///   writes a file it may not.
    package init(
        _ text: Data, named name: String, defaults: ConfigReader.Defaults, script: String? = nil, extract: String? = nil, itemFiles: URL? = nil
    ) throws(ConfigError) {
        func failure(_ message: String) -> ConfigError { ConfigError(file: name, problems: [.init(path: "", message: message)]) }
        guard text.count <= Self.limit else { throw failure("is larger than \(Self.limit) bytes (1 MiB), the largest item read") }
        guard let string = String(data: text, encoding: .utf8) else { throw failure("is not UTF-8 text") }
        let trimmed = string.trimmingWhitespace()
        var reader = ConfigReader(directory: itemFiles ?? URL(fileURLWithPath: "/"), environment: [:])
        reader.fields.fileAccess = .item(folder: itemFiles)
        let jobs: [Config.NamedJob]?
        let evaluates = ["script", "scriptFile", "extract"]
        func withEvaluation(_ members: [ConfigReader.Member]) -> [ConfigReader.Member] {
            let given =
                extract.map { ConfigReader.Member(key: "extract", input: .arguments([$0]), path: "--extract") }
                ?? script.map { ConfigReader.Member(key: "script", input: .arguments([$0]), path: "--script") }
            guard let given, members.allSatisfy({ !evaluates.contains($0.key) }), !evaluates.contains(where: defaults.gives) else { return members }
            return members + [given]
        }
        depth = 0
        if trimmed.hasPrefix("{") {
            let root: JSONNode
            do {
                root = try JSONNode.parse(Array(trimmed.utf8))
            } catch {
                throw ConfigError(file: name, problems: [.init(path: "", message: "invalid JSON: \(error.message)", line: error.line, column: error.column)])
            }
            guard case .object(var members) = root.value else { throw failure("expected a job object") }
            if members.contains(where: { $0.key == Self.detailKeys.of }) {
                self = try Self.detail(
                    members, bytes: Array(trimmed.utf8), named: name, defaults: defaults, script: script, extract: extract, itemFiles: itemFiles)
                return
            }
            if let index = members.firstIndex(where: { $0.key == Self.depthKey }) {
                guard case .number(let number) = members[index].value.value, let found = Int(exactly: number), found >= 0 else {
                    throw failure("\"depth\": expected the number of links from the crawl's start, got \(members[index].value.excerpt)")
                }
                depth = found
                members.remove(at: index)
            }
            jobs = reader.jobs(
                from: withEvaluation(members.map { ConfigReader.Member(key: $0.key, input: .node($0.value), path: $0.key) }),
                defaults: defaults, at: .node(root), path: "")
        } else if let url = URL(string: trimmed), Self.isWebPage(url) {
            jobs = reader.jobs(
                from: withEvaluation([ConfigReader.Member(key: "url", input: .arguments([trimmed]), path: "url")]), defaults: defaults,
                at: .arguments([]), path: "")
        } else {
            let shown = trimmed.count > 80 ? trimmed.prefix(77) + "..." : trimmed[...]
            throw failure("is neither an http(s) URL nor a job object: \(shown)")
        }
        guard let jobs, reader.problems.isEmpty else { throw ConfigError(file: name, problems: reader.problems) }
        guard jobs.count == 1, var job = jobs.first else { throw failure("is \(jobs.count) jobs (urls, a range); an item is one job") }
        // Whoever can push to the queue must not make a worker read its files.
        guard Self.isWebPage(job.job.url) else {
            throw failure("loads \(job.job.url.absoluteString); an item loads web pages only (http or https)")
        }
        if job.schedule != nil { throw failure("every: a field of run --state's jobs; an item runs when it is pushed") }
        if job.name.isEmpty { job.name = job.job.url.absoluteString }
        named = job
    }

    /// The item's page in the one form a crawl loads once: what marks it seen across workers, and names its state.
    package var page: String { (CrawlURL.normalized(named.job.url) ?? named.job.url).absoluteString }

    /// Whether `url` is a web page (http or https): all an item may load.
    private static func isWebPage(_ url: URL) -> Bool {
        ["http", "https"].contains(url.scheme?.lowercased() ?? "")
    }

    /// The detail page's item `members` (of the JSON text `bytes`): its list's item read as an item, whose follow's
    /// job runs at the detail's `url`.
    /// - Throws: `ConfigError` naming the item `name` when a key is missing or unknown, or the list's item has no
    ///   follow.
    private static func detail(
        _ members: [(key: String, value: JSONNode)], bytes: [UInt8], named name: String, defaults: ConfigReader.Defaults, script: String?,
        extract: String?, itemFiles: URL?
    ) throws(ConfigError) -> QueueItem {
        func failure(_ message: String) -> ConfigError { ConfigError(file: name, problems: [.init(path: "", message: message)]) }
        let value = { (key: String) in members.first { $0.key == key }?.value }
        let text = { (key: String) -> String? in if case .string(let text) = value(key)?.value { text } else { nil } }
        if let unknown = members.first(where: { !["name", "url", detailKeys.of, detailKeys.item].contains($0.key) }) {
            throw failure("\(unknown.key): a detail page's item has name, url, detailOf and item only")
        }
        guard let parentText = text(detailKeys.of), let address = text("url"), let url = URL(string: address), isWebPage(url),
            let listItem = value(detailKeys.item)
        else { throw failure("a detail page's item needs an http(s) \"url\", \"detailOf\" (its list's item, as text) and \"item\"") }
        var parent = try QueueItem(Data(parentText.utf8), named: name, defaults: defaults, script: script, extract: extract, itemFiles: itemFiles)
        guard let follow = parent.named.follow else { throw failure("\"detailOf\": the list's item has no follow") }
        parent.named.name = text("name") ?? parent.named.name
        parent.named.job = follow.job
        parent.named.job.url = url
        parent.named.follow = follow.follow
        parent.named.crawl = nil
        parent.depth = 0
        parent.listItem = Data(bytes[listItem.span])
        return parent
    }

    /// The item of the detail page `url` that the follow of the list's item `text` found for the list's `item`, named
    /// `name` (the list's name) so that every detail's record names its list.
    package static func detail(of text: Data, url: String, name: String, item: Data) -> Data {
        JSONText.object([
            ("name", .string(name)), ("url", .string(url)), (detailKeys.of, .string(String(decoding: text, as: UTF8.self))),
            (detailKeys.item, .raw(item))
        ])
    }

    /// The item of the page `url` that a crawl's page found, `depth` links from its start: the crawl's item `text`
    /// (a URL or a job object) with that `url` and `depth`, named `name` (the crawl's name) so that every page's
    /// record names its crawl.
    package static func crawled(from text: Data, url: String, name: String, depth: Int) -> Data {
        let bytes = Array(text)
        var members: [(key: String, value: JSONText.Value)] = []
        if let root = try? JSONNode.parse(bytes), case .object(let given) = root.value {
            members = given.filter { !["url", "urls", "name", depthKey].contains($0.key) }.map {
                ($0.key, JSONText.Value.raw(Data(bytes[$0.value.span])))
            }
        }
        return JSONText.object([("name", .string(name)), ("url", .string(url))] + members + [(depthKey, .integer(depth))])
    }
}
