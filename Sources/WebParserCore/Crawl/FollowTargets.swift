import FoundationEssentials
import WebParser

/// What a follow does with a page's result, as plain functions: the lists it follows (the result, or each list its
/// object holds), the page each item leads to (its field's URL, in the one form a crawl loads once), and the item
/// with its detail page's result put in. The same for a follow in one run (`Follower`) and for the workers of a
/// queue.
public enum FollowTargets {
    /// The items of the lists `result` holds: its items when it is a list, else the items of each list its object
    /// holds (a chapter's date and its pages, say); none for anything else.
    public static func items(of result: Data) -> [Data] {
        if let items = JSONTextCheck.arrayItems(of: result) { return items }
        let bytes = Array(result)
        guard let node = try? JSONNode.parse(bytes, rules: .lenient), case .object(let members) = node.value else { return [] }
        return members.flatMap { JSONTextCheck.arrayItems(of: Data(bytes[$0.value.span])) ?? [] }
    }

    /// `result` with each list it holds (itself when it is a list, else each list its object holds) replaced by
    /// what `change` makes of it; anything else as it is.
    public static func replacingLists(in result: Data, _ change: (Data) async -> Data) async -> Data {
        if JSONTextCheck.arrayItems(of: result) != nil { return await change(result) }
        let bytes = Array(result)
        guard let node = try? JSONNode.parse(bytes, rules: .lenient), case .object(let members) = node.value else { return result }
        var rebuilt: [(key: String, value: JSONText.Value)] = []
        for member in members {
            let value = Data(bytes[member.value.span])
            rebuilt.append((member.key, .raw(member.value.array == nil ? value : await change(value))))
        }
        return JSONText.object(rebuilt)
    }

    /// The page `item`'s `field` (a dot-separated path) names, read against `base`, in the one form a crawl loads
    /// once (`CrawlURL`); or why it names none (`PageFailure.noURLCode`).
    public static func target(of item: Data, field: String, base: URL) -> Result<URL, PageFailure> {
        let failure = { (message: String) in Result<URL, PageFailure>.failure(PageFailure(message: message, code: PageFailure.noURLCode)) }
        guard let node = try? JSONNode.parse(Array(item), rules: .lenient), node.isObject else {
            return failure("the item is not an object, so it has no field \"\(field)\"")
        }
        var value: JSONNode? = node
        for part in field.split(separator: ".") { value = value?[String(part)] }
        guard let value else { return failure("the item has no field \"\(field)\"") }
        guard let text = value.string else { return failure("the item's \"\(field)\" is \(value.kindDescription), not a URL") }
        guard let url = CrawlURL.normalized(text, base: base) else {
            return failure("the item's \"\(field)\" is not an http(s) URL: \(text.prefix(100))")
        }
        return .success(url)
    }

    /// The pages the items of `result`'s lists name by `field` (read against `base`), each once, with the first item
    /// that names it; items that name none are left out. What a work queue's worker queues.
    public static func pages(of result: Data, field: String, base: URL) -> [(url: URL, item: Data)] {
        var listed: Set<URL> = []
        return items(of: result).compactMap { item in
            guard case .success(let url) = target(of: item, field: field, base: base), listed.insert(url).inserted else { return nil }
            return (url, item)
        }
    }

    /// `item` with `into` set to its detail page's result, or to `{"error", "code"}`; an item that is no object
    /// becomes `{"item": …, into: …}`.
    public static func item(_ item: Data, with detail: Result<Data, PageFailure>, into: String) -> Data {
        let value: JSONText.Value =
            switch detail {
            case .success(let data): .raw(data)
            case .failure(let failure): .object(failure.members)
            }
        guard let node = try? JSONNode.parse(Array(item), rules: .lenient), case .object(let members) = node.value else {
            return JSONText.object([("item", .raw(item)), (into, value)])
        }
        let bytes = Array(item)
        let kept = members.filter { $0.key != into }.map { ($0.key, JSONText.Value.raw(Data(bytes[$0.value.span]))) }
        return JSONText.object(kept + [(into, value)])
    }
}
