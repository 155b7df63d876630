import FoundationEssentials

/// The JavaScript that reads an `Extraction` in the page: a fixed reader, and the extraction as JSON.
enum ExtractionScript {
    /// `data`, a list the script read, without the items that lacked a required field (null in their place), and
    /// how many those were.
    static func leavingOut(_ data: Data) -> (data: Data, leftOut: Int) {
        guard let items = JSONTextCheck.arrayItems(of: data) else { return (data, 0) }
        let kept = items.filter { $0 != Data("null".utf8) }
        return kept.count == items.count ? (data, 0) : (JSONText.array(kept), items.count - kept.count)
    }

    /// What an extraction of one object (no `items`) that found none of its fields answers while the page has not
    /// rendered them: it is no answer yet, as an empty result of a script is not.
    static let nothingMatched =
        "extract found none of its fields (every one missing or empty; such an object is the result only once waitFor or waitForSelector holds)"

    /// The script for `extraction`, a call of the reader (`extraction.js`) whose value is the items (null for an
    /// item that lacks a required field), or the one object (null when every field is missing or empty).
    static func source(for extraction: Extraction) -> String {
        ScriptSource.call(ScriptSource.extraction, JSONText.text(spec(extraction)))
    }

    private static func spec(_ extraction: Extraction) -> JSONText.Value {
        .object([
            ("items", extraction.items.map(JSONText.Value.string) ?? .null),
            (
                "fields",
                .array(
                    extraction.fields.map { field in
                        let value: JSONText.Value =
                            switch field.value {
                            case .read(let read):
                                .object([
                                    ("selector", .string(read.selector)), ("attribute", read.attribute.map(JSONText.Value.string) ?? .null),
                                    ("as", .string(read.form.rawValue)), ("all", .bool(read.all))
                                ])
                            case .items(let nested): spec(nested)
                            }
                        return .array([.string(field.name), value, .bool(field.required)])
                    })
            )
        ])
    }
}
