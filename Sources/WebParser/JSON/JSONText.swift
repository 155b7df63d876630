import FoundationEssentials

/// The one JSON writer: builds compact JSON text, in the order given, around results that must be passed
/// through byte for byte. (Codable model types, such as a state file, are written by `JSONEncoder`.)
package enum JSONText {
    /// A value in built JSON text.
    package enum Value {
        case string(String)
        case integer(Int)
        case bool(Bool)
        case null
        case array([Value])
        case object([(key: String, value: Value)])
        /// JSON text inserted as it is.
        case raw(Data)
    }

    /// `{"key": value, …}` in the given order.
    package static func object(_ members: [(key: String, value: Value)]) -> Data {
        var text = Data()
        write(.object(members), to: &text)
        return text
    }

    /// `[item, …]` of items that are JSON text already, inserted as they are.
    package static func array(_ items: [Data]) -> Data {
        var text = Data()
        write(.array(items.map(Value.raw)), to: &text)
        return text
    }

    /// `value` as JSON text.
    package static func text(_ value: Value) -> String {
        var text = Data()
        write(value, to: &text)
        return String(decoding: text, as: UTF8.self)
    }

    private static func write(_ value: Value, to text: inout Data) {
        switch value {
        case .string(let string): text.append(quoted(string))
        case .integer(let number): text.append(Data(String(number).utf8))
        case .bool(let flag): text.append(Data((flag ? "true" : "false").utf8))
        case .null: text.append(Data("null".utf8))
        case .raw(let json): text.append(json)
        case .array(let elements):
            text.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { text.append(UInt8(ascii: ",")) }
                write(element, to: &text)
            }
            text.append(UInt8(ascii: "]"))
        case .object(let members):
            text.append(UInt8(ascii: "{"))
            for (index, member) in members.enumerated() {
                if index > 0 { text.append(UInt8(ascii: ",")) }
                text.append(quoted(member.key))
                text.append(UInt8(ascii: ":"))
                write(member.value, to: &text)
            }
            text.append(UInt8(ascii: "}"))
        }
    }

    /// `string` as a JSON string literal (also a JavaScript one): quotes, backslashes and control characters
    /// escaped, everything else as it is.
    package static func quoted(_ string: String) -> Data {
        var text = "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "\n": text += "\\n"
            case "\r": text += "\\r"
            case "\t": text += "\\t"
            case _ where scalar.value < 0x20: text += "\\u" + scalar.value.hexDigits(4)
            default: text.unicodeScalars.append(scalar)
            }
        }
        return Data((text + "\"").utf8)
    }
}
