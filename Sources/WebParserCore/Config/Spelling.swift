import WebParser
/// Near misses: the name someone probably meant when they mistyped one (a config key, an option).
package enum Spelling {
    /// The one of `names` closest to `name`, ignoring case, when it is close enough to be a typing slip (at most
    /// a third of its letters, or two, differ). Each name costs one bounded comparison, so that a config with
    /// thousands of jobs is still checked at once.
    package static func nearest(to name: String, among names: [String]) -> String? {
        let typed = Array(name.lowercased().unicodeScalars)
        let limit = max(2, typed.count / 3)
        var best: (name: String, distance: Int)?
        var row: [Int] = []
        for candidate in names {
            let other = Array(candidate.lowercased().unicodeScalars)
            let bound = min(limit, (best?.distance ?? limit + 1) - 1)
            guard bound >= 0, abs(other.count - typed.count) <= bound,
                let distance = editDistance(typed, other, atMost: bound, row: &row)
            else { continue }
            best = (candidate, distance)
            if distance == 0 { break }
        }
        return best?.name
    }

    /// The Levenshtein distance of `a` and `b`, or nil when it is over `bound`; `row` is scratch space.
    private static func editDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar], atMost bound: Int, row: inout [Int]) -> Int? {
        guard !a.isEmpty, !b.isEmpty else { return max(a.count, b.count) <= bound ? max(a.count, b.count) : nil }
        row.removeAll(keepingCapacity: true)
        row.append(contentsOf: 0...b.count)
        for i in 1...a.count {
            var diagonal = row[0]
            row[0] = i
            var smallest = i
            for j in 1...b.count {
                let above = row[j]
                row[j] = min(above + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1))
                diagonal = above
                smallest = min(smallest, row[j])
            }
            if smallest > bound { return nil }
        }
        return row[b.count] <= bound ? row[b.count] : nil
    }
}
