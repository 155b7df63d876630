import FoundationEssentials

/// The results of the pages a paginated job has read, and the job's result they add up to: list results
/// concatenated, as the pages wrote their items; any other results in an array, one per page.
struct PageResults: Equatable {
    private(set) var pages: [Data] = []
    /// The items of the pages so far, as canonical JSON, to tell a page that repeats them.
    private var items: Set<String> = []

    var count: Int { pages.count }
    var last: Data? { pages.last }

    /// Adds a page's result (JSON text on one line), unless it adds nothing: an empty list, or a list of only
    /// items earlier pages had (a site that shows its last page again).
    /// - Returns: whether the page was added.
    mutating func add(_ result: Data) -> Bool {
        guard let list = (try? JSONNode.parse(Array(result), rules: .lenient))?.array else {
            pages.append(result)
            return true
        }
        let canonical = list.map(CanonicalJSON.text)
        guard canonical.contains(where: { !items.contains($0) }) else { return false }
        items.formUnion(canonical)
        pages.append(result)
        return true
    }

    /// What the pages add up to, as JSON text.
    var combined: Data {
        let lists = pages.map(JSONTextCheck.arrayItems(of:))
        return JSONText.array(lists.allSatisfy { $0 != nil } ? lists.flatMap { $0 ?? [] } : pages)
    }
}
