import Foundation

/// Builds JSON text around results that must be passed through byte for byte.
enum JSONText {
    /// A value in built JSON text.
    enum Value {
        case string(String)
        case integer(Int)
        case bool(Bool)
        case null
        /// JSON text inserted as it is.
        case raw(Data)
    }

    /// `{"key": value, …}` in the given order.
    static func object(_ members: [(key: String, value: Value)]) -> Data {
        var text = Data("{".utf8)
        for (index, member) in members.enumerated() {
            if index > 0 { text.append(UInt8(ascii: ",")) }
            text.append(quoted(member.key))
            text.append(UInt8(ascii: ":"))
            switch member.value {
            case .string(let string): text.append(quoted(string))
            case .integer(let number): text.append(Data(String(number).utf8))
            case .bool(let flag): text.append(Data((flag ? "true" : "false").utf8))
            case .null: text.append(Data("null".utf8))
            case .raw(let json): text.append(json)
            }
        }
        text.append(UInt8(ascii: "}"))
        return text
    }

    /// `string` as a JSON string literal.
    static func quoted(_ string: String) -> Data {
        var text = "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "\n": text += "\\n"
            case "\r": text += "\\r"
            case "\t": text += "\\t"
            case _ where scalar.value < 0x20: text += String(format: "\\u%04x", scalar.value)
            default: text.unicodeScalars.append(scalar)
            }
        }
        return Data((text + "\"").utf8)
    }
}
