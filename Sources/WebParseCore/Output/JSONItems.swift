import Foundation

/// The items of a JSON array result, as the page wrote them, found without reading them into values: one
/// pass over the bytes at any depth, so that a merged output joins lists exactly.
package enum JSONItems {
    /// The items of `json` when it is an array (valid JSON text, as webparse's results are); nil otherwise.
    package static func split(_ json: Data) -> [Data]? {
        let bytes = [UInt8](json)
        var index = 0
        func skipSpace() { while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 } }
        skipSpace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "[") else { return nil }
        index += 1
        var items: [Data] = []
        var depth = 0
        var inString = false
        var start: Int?
        while index < bytes.count {
            let byte = bytes[index]
            if inString {
                if byte == UInt8(ascii: "\\") { index += 1 } else if byte == UInt8(ascii: "\"") { inString = false }
            } else {
                switch byte {
                case UInt8(ascii: "\""): inString = true
                case UInt8(ascii: "["), UInt8(ascii: "{"): depth += 1
                case UInt8(ascii: "]") where depth == 0, UInt8(ascii: ",") where depth == 0:
                    if let first = start { items.append(trimmed(bytes[first..<index])) }
                    start = nil
                    if byte == UInt8(ascii: "]") { return items }
                    index += 1
                    continue
                case UInt8(ascii: "]"), UInt8(ascii: "}"): depth -= 1
                default: break
                }
            }
            if start == nil && ![0x20, 0x09, 0x0A, 0x0D].contains(byte) { start = index }
            index += 1
        }
        return nil
    }

    private static func trimmed(_ bytes: ArraySlice<UInt8>) -> Data {
        let isSpace: (UInt8) -> Bool = { [0x20, 0x09, 0x0A, 0x0D].contains($0) }
        return Data(bytes.drop(while: isSpace).reversed().drop(while: isSpace).reversed())
    }
}
