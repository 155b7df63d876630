import FoundationEssentials
import WebParser

/// What following a list gave.
public struct Followed: Sendable {
    /// The list, each followed item with its detail page's result.
    public var list: Data
    /// Each followed item as the page gave it, with the item as it is now.
    public var items: [Data: Data]
    /// How many items got `{"error", "code"}` instead of their page's result, nested follows included.
    public var failed: Int
    /// How many pages were loaded, nested follows included.
    public var loaded: Int
}

/// Loads the detail page of each chosen item of a list (`Follow`) and puts the page's result into the item
/// (`FollowTargets`): each page once, as many at once as the pages allow, from tab to tab of one tab group as a
/// person reading them does, the detail pages' own lists followed in turn. An item whose page failed, or that names
/// no page, gets `{"error", "code"}` in its place.
///
/// ```swift
/// let pages = WebParserPages(parser: WebParserRunner(), concurrency: 4)
/// let list = try await pages.run(job, label: "archive")
/// let followed = await Follower(pages: pages).follow(follow, in: list.data, base: URL(string: list.finalURL)!, name: "archive")
/// ```
public struct Follower: Sendable {
    /// What loads the detail pages.
    public let pages: any PageRunner

    /// A follower whose detail pages `pages` load.
    public init(pages: any PageRunner) {
        self.pages = pages
    }

    /// Follows `follow` in `list`, a JSON array read from the page at `base`, for the items `chosen` holds (all when
    /// nil); the list unchanged when it is no array. Each page is labelled `name` and its URL; `onFound` hears how
    /// many pages are to come, as they are known.
    public func follow(
        _ follow: Follow, in list: Data, base: URL, chosen: Set<Data>? = nil, name: String,
        onFound: @escaping @Sendable (Int) -> Void = { _ in }
    ) async -> Followed {
        guard let items = JSONTextCheck.arrayItems(of: list) else { return Followed(list: list, items: [:], failed: 0, loaded: 0) }
        // Where each chosen item leads, or why it leads nowhere.
        var targets: [Int: Result<URL, PageFailure>] = [:]
        for (index, item) in items.enumerated() where chosen?.contains(item) ?? true {
            targets[index] = FollowTargets.target(of: item, field: follow.field, base: base)
        }
        let urls = Array(Set(targets.values.compactMap { try? $0.get() })).sorted { $0.absoluteString < $1.absoluteString }
        onFound(urls.count)
        var details: [URL: Result<Data, PageFailure>] = [:]
        var failed = 0
        var loaded = 0
        let tabGroup = UUID().uuidString
        await withTaskGroup(of: (URL, Result<Data, PageFailure>, Int, Int).self) { group in
            for url in urls {
                group.addTask { await load(url, with: follow, in: tabGroup, name: name, onFound: onFound) }
            }
            for await (url, detail, nestedFailed, nestedLoaded) in group {
                details[url] = detail
                failed += nestedFailed
                loaded += nestedLoaded + 1
            }
        }
        var followed: [Data: Data] = [:]
        var merged: [Data] = []
        for (index, item) in items.enumerated() {
            guard let target = targets[index] else {
                merged.append(item)
                continue
            }
            let detail = target.flatMap { details[$0] ?? .failure(PageFailure(message: "not loaded", code: "notRun")) }
            if case .failure = detail { failed += 1 }
            let withDetail = FollowTargets.item(item, with: detail, into: follow.into)
            followed[item] = withDetail
            merged.append(withDetail)
        }
        return Followed(list: JSONText.array(merged), items: followed, failed: failed, loaded: loaded)
    }

    /// Follows `follow` in each list `result` holds (`FollowTargets.replacingLists`: the result when it is a list,
    /// else each list its object holds), read from the page at `base`, for the items `chosen` holds (all when nil),
    /// as `follow(_:in:base:chosen:name:onFound:)` does each: `result` with its lists followed, and what they gave
    /// together. A queue's workers follow the same lists (`FollowTargets.pages`).
    public func followLists(
        _ follow: Follow, in result: Data, base: URL, chosen: Set<Data>? = nil, name: String,
        onFound: @escaping @Sendable (Int) -> Void = { _ in }
    ) async -> Followed {
        var all = Followed(list: result, items: [:], failed: 0, loaded: 0)
        all.list = await FollowTargets.replacingLists(in: result) { list in
            let followed = await self.follow(follow, in: list, base: base, chosen: chosen, name: name, onFound: onFound)
            all.items.merge(followed.items) { first, _ in first }
            all.failed += followed.failed
            all.loaded += followed.loaded
            return followed.list
        }
        return all
    }

    /// Loads `url` with `follow`'s job in a tab of `tabGroup`, following its own lists in turn: its result, and the
    /// failures and pages of those nested follows.
    private func load(
        _ url: URL, with follow: Follow, in tabGroup: String, name: String, onFound: @escaping @Sendable (Int) -> Void
    ) async -> (URL, Result<Data, PageFailure>, Int, Int) {
        var job = follow.job
        job.url = url
        job.tabGroup = tabGroup
        let result: WebParserResult
        do {
            result = try await pages.run(job, label: "\(name) \(URLRedaction.redact(url.absoluteString))")
        } catch let error as WebParserError {
            return (url, .failure(PageFailure(error)), 0, 0)
        } catch {
            return (url, .failure(PageFailure(message: "cancelled", code: "cancelled")), 0, 0)
        }
        guard let nested = follow.follow else { return (url, .success(result.data), 0, 0) }
        let inner = await followLists(nested, in: result.data, base: URL(string: result.finalURL) ?? url, name: name, onFound: onFound)
        return (url, .success(inner.list), inner.failed, inner.loaded)
    }
}
