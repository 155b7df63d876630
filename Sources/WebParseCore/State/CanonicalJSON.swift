import Foundation
import WebParser

/// One way of writing each JSON value, whatever the page's key order or number spelling: object keys
/// sorted by their UTF-8 bytes, no whitespace, numbers in their shortest form. Equal values, equal text.
package enum CanonicalJSON {
    static func text(_ node: JSONNode) -> String {
        var output = ""
        write(node, to: &output)
        return output
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
            for (index, member) in members.sorted(by: { Array($0.key.utf8).lexicographicallyPrecedes(Array($1.key.utf8)) }).enumerated() {
                if index > 0 { output += "," }
                output += String(decoding: JSONText.quoted(member.key), as: UTF8.self) + ":"
                write(member.value, to: &output)
            }
            output += "}"
        }
    }
}
