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

    /// The script for `extraction`, an IIFE whose value is the items (null for an item that lacks a required
    /// field), or the one object (null when every field is missing or empty).
    static func source(for extraction: Extraction) -> String {
        "((spec) => {\n" + reader + "\n})(" + JSONText.text(spec(extraction)) + ")"
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

    /// Reads `spec` in the document: CSS selectors with querySelector(All), `xpath:` with document.evaluate,
    /// `.` for the item itself.
    private static let reader = """
        const clean = (text) => String(text ?? "").replace(/\\s+/g, " ").trim();
        const absolute = (value) => { try { return new URL(value, document.baseURI).href; } catch { return value; } };
        const find = (root, selector, all) => {
          if (selector === ".") return [root];
          if (selector.startsWith("xpath:")) {
            const found = document.evaluate(selector.slice(6), root, null, XPathResult.ORDERED_NODE_SNAPSHOT_TYPE, null);
            const nodes = [];
            for (let index = 0; index < found.snapshotLength && (all || index < 1); index++) nodes.push(found.snapshotItem(index));
            return nodes;
          }
          return all ? Array.from(root.querySelectorAll(selector)) : [root.querySelector(selector)].filter((node) => node);
        };
        const read = (node, field) => {
          let value;
          if (node.nodeType === 2) {
            value = ["href", "src", "action"].includes(node.name) ? absolute(node.value) : node.value;
          } else if (field.attribute) {
            value = node.getAttribute?.(field.attribute) ?? null;
            if (value !== null && ["href", "src", "action"].includes(field.attribute)) value = absolute(value);
          } else {
            value = field.as === "html" && node.nodeType === 1 ? node.innerHTML : clean(node.textContent);
          }
          if (value === null) return null;
          if (field.as === "number") {
            const match = String(value).replace(/,/g, "").match(/-?\\d+(\\.\\d+)?/);
            return match ? Number(match[0]) : null;
          }
          return field.as === "url" ? absolute(value) : value;
        };
        const empty = (value) => value === null || value === "" || (Array.isArray(value) && value.length === 0);
        const fieldsOf = (root, fields) => {
          const item = {};
          for (const [name, field, required] of fields) {
            let value;
            if (field.fields) {
              value = listOf(root, field);
            } else {
              const nodes = find(root, field.selector, field.all || field.as === "bool");
              value = field.as === "bool" ? nodes.length > 0
                : field.all ? nodes.map((node) => read(node, field)).filter((value) => !empty(value))
                : nodes.length ? read(nodes[0], field) : null;
            }
            if (required && empty(value)) return null;
            item[name] = value;
          }
          return item;
        };
        // A nested list leaves out its items that lack a required field; the top list has null in their place, which
        // webparse counts and takes out.
        const listOf = (root, extraction, marksLeftOut) => {
          const items = find(root, extraction.items, true).map((node) => fieldsOf(node, extraction.fields));
          return marksLeftOut ? items : items.filter((item) => item !== null);
        };
        // One object of the whole document is there once one of its fields is: before, the page has not rendered it.
        const whole = (item) => item !== null && Object.values(item).every((value) => empty(value) || value === false) ? null : item;
        return spec.items === null ? whole(fieldsOf(document, spec.fields)) : listOf(document, spec, true);
        """
}
