import FoundationEssentials
import WebParser

/// The change checks' fields: `every` and `jitter` (lengths of time) and `when` (a JavaScript condition).
extension FieldReader {
    /// A length of time written with units (`"90s"`, `"15m"`, `"6h"`, `"1d"`, `"1h30m"`) or as a number of seconds, in
    /// seconds within `range`.
    mutating func interval(_ path: String, _ input: FieldInput, in range: ClosedRange<Double>) -> Double? {
        guard let seconds = input.number ?? input.text.flatMap(Schedule.seconds(in:)), range.contains(seconds) else {
            let least = range.lowerBound == 0 ? "0s" : "1s"
            problem(path, at: input, "expected a length of time from \(least) to 366d, such as \"15m\", \"6h\" or \"1d\", got \(input.excerpt)")
            return nil
        }
        return seconds
    }

    /// A job's `when`: a JavaScript expression JavaScriptCore compiles.
    mutating func condition(_ path: String, _ input: FieldInput) -> String? {
        guard let text = string(path, input) else { return nil }
        if let problem = ItemCondition.problem(in: text) {
            let line = problem.line.map { "line \($0) of the condition: " } ?? ""
            self.problem(path, at: input, "expected a JavaScript expression over item, such as item.price < 300: \(line)\(problem.message)")
            return nil
        }
        return text
    }
}
