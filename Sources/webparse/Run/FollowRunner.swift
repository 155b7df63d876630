import FoundationEssentials
import WebParser
import WebParserCore

/// Loads the detail page of each chosen item of a list (`Follow`) and puts the page's result into the item: each
/// distinct URL once, as many at once as the run's pages allow (`PageSlots`), the detail pages' own lists (their
/// result, or each list their object holds) followed in turn. An item whose page failed, or that gives no URL to
/// follow, gets `{"error", "code"}` in its place.
struct FollowRunner: Sendable {
    let parser: WebParserRunner
    let slots: PageSlots
    let reporter: ProgressReporter
    /// The following job's name, for messages.
    let name: String
    /// Where `--har` keeps each detail page's requests, if it is given.
    var har: HARRecorder? = nil

    /// What following a list gave.
    struct Followed: Sendable {
        /// The list, each followed item with its detail page's result.
        var list: Data
        /// Each followed item as the page gave it, with the item as it is now.
        var items: [Data: Data]
        /// How many items got an error instead of their page's result, and how many pages were loaded.
        var failed: Int
        var loaded: Int
    }

    /// Follows `follow` in `list`, a JSON array read from the page at `base`, for the items `chosen` holds (all when
    /// nil); the list unchanged when it is no array.
    func follow(_ follow: Follow, in list: Data, base: URL, chosen: Set<Data>? = nil) async -> Followed {
        guard let items = JSONTextCheck.arrayItems(of: list) else { return Followed(list: list, items: [:], failed: 0, loaded: 0) }
        // Where each chosen item leads, or why it leads nowhere.
        var targets: [Int: Result<URL, FollowFailure>] = [:]
        for (index, item) in items.enumerated() where chosen?.contains(item) ?? true {
            targets[index] = Self.target(of: item, field: follow.field, base: base)
        }
        let urls = Array(Set(targets.values.compactMap { try? $0.get() })).sorted { $0.absoluteString < $1.absoluteString }
        reporter.know(urls.count)
        var pages: [URL: Result<Data, FollowFailure>] = [:]
        var failed = 0
        var loaded = 0
        // The list's detail pages are read from page to page in the same tabs, as a person reading them does.
        let tabGroup = UUID().uuidString
        await withTaskGroup(of: (URL, Result<Data, FollowFailure>, Int, Int).self) { group in
            for url in urls {
                group.addTask { await load(url, with: follow, in: tabGroup) }
            }
            for await (url, page, nestedFailed, nestedLoaded) in group {
                pages[url] = page
                failed += nestedFailed
                loaded += nestedLoaded + 1
            }
        }
        var followed: [Data: Data] = [:]
        var list: [Data] = []
        for (index, item) in items.enumerated() {
            guard let target = targets[index] else {
                list.append(item)
                continue
            }
            let detail: Result<Data, FollowFailure> =
                switch target {
                case .success(let url): pages[url] ?? .failure(FollowFailure(message: "not loaded", code: "notRun"))
                case .failure(let failure): .failure(failure)
                }
            if case .failure = detail { failed += 1 }
            let merged = Self.item(item, with: detail, into: follow.into)
            followed[item] = merged
            list.append(merged)
        }
        return Followed(list: JSONText.array(list), items: followed, failed: failed, loaded: loaded)
    }

    /// Loads `url` with `follow`'s job in a tab of `tabGroup`, following its own list in turn: its result, and the
    /// failures and pages of that nested follow.
    private func load(_ url: URL, with follow: Follow, in tabGroup: String) async -> (URL, Result<Data, FollowFailure>, Int, Int) {
        var job = follow.job
        job.url = url
        job.tabGroup = tabGroup
        let label = "\(name) \(URLRedaction.redact(url.absoluteString))"
        let report = reporter.messageHandler(for: label)
        let onMessage = har.map { $0.recording(&job, as: label, besides: report) } ?? report
        let result: WebParserResult
        do {
            result = try await slots.run { [parser, reporter, job] in
                try await parser.run(job, onStateChange: reporter.observer(for: label), onMessage: onMessage)
            }
        } catch let error as WebParserError {
            return (url, .failure(FollowFailure(message: error.description, code: error.code.rawValue)), 0, 0)
        } catch {
            return (url, .failure(FollowFailure(message: "cancelled", code: "cancelled")), 0, 0)
        }
        guard let nested = follow.follow else { return (url, .success(result.data), 0, 0) }
        let base = URL(string: result.finalURL) ?? url
        // The detail page's list, or each list its object holds (a chapter's date and its pages, say).
        guard let node = try? JSONNode.parse(Array(result.data), rules: .lenient), case .object(let members) = node.value else {
            let inner = await self.follow(nested, in: result.data, base: base)
            return (url, .success(inner.list), inner.failed, inner.loaded)
        }
        let bytes = Array(result.data)
        var rebuilt: [(key: String, value: JSONText.Value)] = []
        var (failed, loaded) = (0, 0)
        for member in members {
            let value = Data(bytes[member.value.span])
            guard member.value.array != nil else {
                rebuilt.append((member.key, .raw(value)))
                continue
            }
            let inner = await self.follow(nested, in: value, base: base)
            rebuilt.append((member.key, .raw(inner.list)))
            failed += inner.failed
            loaded += inner.loaded
        }
        return (url, .success(JSONText.object(rebuilt)), failed, loaded)
    }

    /// Why an item has no detail page's result.
    struct FollowFailure: Error, Sendable {
        var message: String
        /// `WebParserError.Code`'s name, or `noURL` for an item that gives no URL to follow.
        var code: String
    }

    /// The URL `item`'s `field` gives, read against `base`: an http(s) URL, or why not.
    static func target(of item: Data, field: String, base: URL) -> Result<URL, FollowFailure> {
        guard let node = try? JSONNode.parse(Array(item), rules: .lenient), node.isObject else {
            return .failure(FollowFailure(message: "the item is not an object, so it has no field \"\(field)\"", code: "noURL"))
        }
        var value: JSONNode? = node
        for part in field.split(separator: ".") { value = value?[String(part)] }
        guard let value else { return .failure(FollowFailure(message: "the item has no field \"\(field)\"", code: "noURL")) }
        guard let text = value.string else {
            return .failure(FollowFailure(message: "the item's \"\(field)\" is \(value.kindDescription), not a URL", code: "noURL"))
        }
        guard let url = URL(string: text.trimmingWhitespace(), relativeTo: base)?.absoluteURL,
            let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https", url.host() != nil
        else {
            return .failure(FollowFailure(message: "the item's \"\(field)\" is not an http(s) URL: \(text.prefix(100))", code: "noURL"))
        }
        var components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        components?.fragment = nil
        return .success(components?.url ?? url)
    }

    /// `item` with `into` set to the detail page's result, or to `{"error", "code"}`; an item that is no object
    /// becomes `{"item": …, into: …}`.
    static func item(_ item: Data, with detail: Result<Data, FollowFailure>, into: String) -> Data {
        let value: JSONText.Value =
            switch detail {
            case .success(let data): .raw(data)
            case .failure(let failure): .object([("error", .string(failure.message)), ("code", .string(failure.code))])
            }
        guard let node = try? JSONNode.parse(Array(item), rules: .lenient), case .object(let members) = node.value else {
            return JSONText.object([("item", .raw(item)), (into, value)])
        }
        let bytes = Array(item)
        let kept = members.filter { $0.key != into }.map { ($0.key, JSONText.Value.raw(Data(bytes[$0.value.span]))) }
        return JSONText.object(kept + [(into, value)])
    }
}
