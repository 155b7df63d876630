import FoundationEssentials
import WebParser

/// How one job names several pages: a range in its `url` (`"https://site/page/{1..10}/"`) or a `urls` list.
extension FieldReader {
    /// The most pages one job may expand into.
    static let maximumURLs = 1000

    /// The page, or the pages of a range in it: `{1..10}` counts up (`{01..10}` keeps the zeros).
    mutating func urlOrRange(_ path: String, _ input: FieldInput, into draft: inout JobDraft) {
        guard let text = input.text, let range = Self.range(in: text) else {
            draft.url = url(path, input)
            draft.urls = nil
            draft.urlNames = nil
            return
        }
        draft.url = nil
        let (span, overflow) = range.numbers.upperBound.subtractingReportingOverflow(range.numbers.lowerBound)
        guard !overflow, span < Self.maximumURLs else {
            problem(path, at: input, "the range {\(range.numbers.lowerBound)..\(range.numbers.upperBound)} makes more than \(Self.maximumURLs) pages")
            return
        }
        // The numbers as written in the URL, which also name the jobs, so that a job keeps its state when the
        // range moves ({1..10} to {5..15}).
        let numbers = range.numbers.map { number in
            let digits = String(number)
            return String(repeating: "0", count: max(0, range.width - digits.count)) + digits
        }
        draft.urls = urls(path, numbers.map { .arguments([text[..<range.place.lowerBound] + $0 + text[range.place.upperBound...]]) }, at: input)
        draft.urlNames = numbers
    }

    /// The pages of a `urls` list, in place of a `url` (of `defaults`); named by their place in the list.
    mutating func urlList(_ path: String, _ input: FieldInput) -> [URL]? {
        guard let elements = input.elements, !elements.isEmpty else {
            problem(path, at: input, "expected a non-empty array of URLs, got \(input.excerpt)")
            return nil
        }
        guard elements.count <= Self.maximumURLs else {
            problem(path, at: input, "more than \(Self.maximumURLs) URLs in one job")
            return nil
        }
        return urls(path, elements.map(FieldInput.node), at: input)
    }

    private mutating func urls(_ path: String, _ inputs: [FieldInput], at input: FieldInput) -> [URL]? {
        let pages = inputs.enumerated().compactMap { index, element in url("\(path)[\(index)]", element) }
        return pages.count == inputs.count ? pages : nil
    }

    /// `{FIRST..LAST}` in `text`: where it is, its numbers and the width of FIRST when it starts with 0.
    private static func range(in text: String) -> (place: Range<String.Index>, numbers: ClosedRange<Int>, width: Int)? {
        guard let open = text.firstIndex(of: "{"), let close = text[open...].firstIndex(of: "}") else { return nil }
        let inside = text[text.index(after: open)..<close]
        let bounds = inside.components(separatedBy: "..")
        guard bounds.count == 2, bounds.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
            let first = Int(bounds[0]), let last = Int(bounds[1]), first <= last
        else { return nil }
        return (open..<text.index(after: close), first...last, bounds[0].hasPrefix("0") ? bounds[0].count : 0)
    }
}
