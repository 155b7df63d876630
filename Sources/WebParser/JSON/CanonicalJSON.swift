/// One way of writing each JSON value, whatever the page's key order or number spelling: object keys
/// sorted by their UTF-8 bytes, no whitespace, numbers in their shortest form. Equal values, equal text.
package enum CanonicalJSON {
    package static func text(_ node: JSONNode) -> String {
        var output = ""
        write(node, to: &output)
        return output
    }

    /// `node` in canonical form, one value or member per line, indented by two spaces: what a diff compares.
    package static func lines(_ node: JSONNode) -> [String] {
        var lines: [String] = []
        writeLines(node, prefix: "", suffix: "", indent: "", into: &lines)
        return lines
    }

    private static func writeLines(_ node: JSONNode, prefix: String, suffix: String, indent: String, into lines: inout [String]) {
        switch node.value {
        case .array(let elements) where !elements.isEmpty:
            lines.append(indent + prefix + "[")
            for (index, element) in elements.enumerated() {
                writeLines(element, prefix: "", suffix: index < elements.count - 1 ? "," : "", indent: indent + "  ", into: &lines)
            }
            lines.append(indent + "]" + suffix)
        case .object(let members) where !members.isEmpty:
            lines.append(indent + prefix + "{")
            let sorted = sortedByKey(members)
            for (index, member) in sorted.enumerated() {
                let key = String(decoding: JSONText.quoted(member.key), as: UTF8.self) + ": "
                writeLines(member.value, prefix: key, suffix: index < sorted.count - 1 ? "," : "", indent: indent + "  ", into: &lines)
            }
            lines.append(indent + "}" + suffix)
        default:
            lines.append(indent + prefix + text(node) + suffix)
        }
    }

    private static func write(_ node: JSONNode, to output: inout String) {
        switch node.value {
        case .null: output += "null"
        case .bool(let flag): output += flag ? "true" : "false"
        case .number(let number):
            output += number == number.rounded(.towardZero) && abs(number) < 1e15 ? String(Int64(number)) : "\(number)"
        case .string(let text): output += String(decoding: JSONText.quoted(text), as: UTF8.self)
        case .array(let elements):
            output += "["
            for (index, element) in elements.enumerated() {
                if index > 0 { output += "," }
                write(element, to: &output)
            }
            output += "]"
        case .object(let members):
            output += "{"
            for (index, member) in sortedByKey(members).enumerated() {
                if index > 0 { output += "," }
                output += String(decoding: JSONText.quoted(member.key), as: UTF8.self) + ":"
                write(member.value, to: &output)
            }
            output += "}"
        }
    }

    /// An object's members in canonical order: keys sorted by their UTF-8 bytes.
    private static func sortedByKey(_ members: [(key: String, value: JSONNode)]) -> [(key: String, value: JSONNode)] {
        members.sorted { Array($0.key.utf8).lexicographicallyPrecedes(Array($1.key.utf8)) }
    }
}
