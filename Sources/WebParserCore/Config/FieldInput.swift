import WebParser

/// A field's value as it was given: a config's JSON node, or the values of the field's command-line option.
/// `FieldReader` reads both, with one check and one message for each field.
package enum FieldInput: Sendable {
    /// The field's value in a config file.
    case node(JSONNode)
    /// The option's values, one per use, in order; a flag gives `true` or `false`.
    case arguments([String])

    /// The value as text: a JSON string, or the option's last value.
    var text: String? {
        switch self {
        case .node(let node): if case .string(let text) = node.value { text } else { nil }
        case .arguments(let values): values.last
        }
    }

    /// The value as a number: a JSON number, or the option's last value when it is written as JSON writes a
    /// number (`5`, `0.5`, `-1`, `2e3`; not `0x3`, `inf` or ` 5`).
    var number: Double? {
        switch self {
        case .node(let node): if case .number(let number) = node.value { number } else { nil }
        case .arguments(let values): values.last.flatMap(JSONNode.number(writtenAs:))
        }
    }

    /// The value as a flag: a JSON boolean, or an option's `true` or `false`.
    var flag: Bool? {
        switch self {
        case .node(let node): if case .bool(let flag) = node.value { flag } else { nil }
        case .arguments(let values): values.last.flatMap(Bool.init)
        }
    }

    /// A config's JSON array.
    var elements: [JSONNode]? {
        guard case .node(let node) = self, case .array(let elements) = node.value else { return nil }
        return elements
    }

    /// A config's JSON object, its members in file order.
    var members: [(key: String, value: JSONNode)]? {
        guard case .node(let node) = self, case .object(let members) = node.value else { return nil }
        return members
    }

    /// The value for messages: as the config wrote it, or the option's last value (as a number when it is one,
    /// else quoted).
    var excerpt: String {
        switch self {
        case .node(let node): node.excerpt
        case .arguments(let values):
            JSONNode(value: number.map(JSONNode.Value.number) ?? .string(values.last ?? ""), line: 0, column: 0).excerpt
        }
    }

    /// Where the value starts in its config, from 1; nil for an option's values.
    var place: (line: Int, column: Int)? {
        guard case .node(let node) = self, node.line > 0 else { return nil }
        return (node.line, node.column)
    }
}
