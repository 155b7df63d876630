import WebParser
/// Near misses: the name someone probably meant when they mistyped one (a config key, an option).
package enum Spelling {
    /// The one of `names` closest to `name`, ignoring case, when it is close enough to be a typing slip.
    package static func nearest(to name: String, among names: [String]) -> String? {
        let name = name.lowercased()
        let best = names.min { editDistance(name, $0.lowercased()) < editDistance(name, $1.lowercased()) }
        guard let best, editDistance(name, best.lowercased()) <= max(2, name.count / 3) else { return nil }
        return best
    }

    private static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        guard !a.isEmpty, !b.isEmpty else { return max(a.count, b.count) }
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }
}
