/// A unified diff of two texts, line by line, as `diff -u` writes it (three lines of context), for showing how a
/// result that is not a list changed.
package enum UnifiedDiff {
    /// The most cells of the comparison table; beyond it, the lines between the common start and end are shown
    /// as replaced whole.
    static let tableLimit = 4_000_000

    /// The diff of `before` and `now`; empty when they are the same.
    package static func make(_ before: [Substring], _ now: [Substring], labels: (String, String) = ("before", "now")) -> String {
        guard before != now else { return "" }
        let operations = compare(before, now)
        var lines = ["--- \(labels.0)", "+++ \(labels.1)"]
        // Hunks: runs of changes with up to three lines of context around them, joined when close.
        let changed = operations.indices.filter { operations[$0].kind != " " }
        var index = 0
        while index < changed.count {
            var end = index
            while end + 1 < changed.count, changed[end + 1] - changed[end] <= 6 { end += 1 }
            let from = max(0, changed[index] - 3), to = min(operations.count - 1, changed[end] + 3)
            let hunk = operations[from...to]
            let oldStart = (operations[..<from].filter { $0.kind != "+" }.count) + 1
            let newStart = (operations[..<from].filter { $0.kind != "-" }.count) + 1
            let oldCount = hunk.filter { $0.kind != "+" }.count, newCount = hunk.filter { $0.kind != "-" }.count
            lines.append("@@ -\(oldStart),\(oldCount) +\(newStart),\(newCount) @@")
            lines += hunk.map { String($0.kind) + $0.line }
            index = end + 1
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private struct Operation {
        /// " " kept, "-" removed, "+" added.
        var kind: Character
        var line: Substring
    }

    /// The edit from `a` to `b`: a longest common subsequence of their lines, the rest removed and added.
    private static func compare(_ a: [Substring], _ b: [Substring]) -> [Operation] {
        var prefix = 0
        while prefix < a.count, prefix < b.count, a[prefix] == b[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < a.count - prefix, suffix < b.count - prefix, a[a.count - 1 - suffix] == b[b.count - 1 - suffix] { suffix += 1 }
        let x = Array(a[prefix..<(a.count - suffix)]), y = Array(b[prefix..<(b.count - suffix)])
        var middle: [Operation] = []
        if x.count * y.count > tableLimit || x.isEmpty || y.isEmpty {
            middle = x.map { Operation(kind: "-", line: $0) } + y.map { Operation(kind: "+", line: $0) }
        } else {
            // lengths[i][j]: the longest common subsequence of x[i...] and y[j...].
            let width = y.count + 1
            var lengths = [Int32](repeating: 0, count: (x.count + 1) * width)
            for i in stride(from: x.count - 1, through: 0, by: -1) {
                for j in stride(from: y.count - 1, through: 0, by: -1) {
                    lengths[i * width + j] =
                        x[i] == y[j]
                        ? lengths[(i + 1) * width + j + 1] + 1
                        : max(lengths[(i + 1) * width + j], lengths[i * width + j + 1])
                }
            }
            var i = 0, j = 0
            while i < x.count || j < y.count {
                if i < x.count, j < y.count, x[i] == y[j] {
                    middle.append(Operation(kind: " ", line: x[i])); i += 1; j += 1
                } else if i < x.count, j == y.count || lengths[(i + 1) * width + j] >= lengths[i * width + j + 1] {
                    // Removals before additions, as diff -u writes them.
                    middle.append(Operation(kind: "-", line: x[i])); i += 1
                } else {
                    middle.append(Operation(kind: "+", line: y[j])); j += 1
                }
            }
        }
        return a[..<prefix].map { Operation(kind: " ", line: $0) } + middle + a[(a.count - suffix)...].map { Operation(kind: " ", line: $0) }
    }
}
