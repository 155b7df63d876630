import FoundationEssentials

/// Whether bytes are exactly one JSON value (RFC 8259), checked in one pass without building it.
///
/// A result's JSON text comes from the page's `JSON.stringify`, which the page can replace, so it is checked
/// before anyone gets it. The check has no depth limit (a stack of container kinds, not recursion) and accepts
/// what `JSON.stringify` writes for any string: escaped lone surrogates (`"\ud83d"`, from a string cut in the
/// middle of an emoji) are valid JSON text, even though some decoders refuse them.
package enum JSONTextCheck {
    /// True when `text` is valid UTF-8 holding one JSON value and nothing but whitespace around it.
    static func isJSON(_ text: Data) -> Bool {
        scan(text) != nil
    }

    /// The number of elements of `text` when it is a JSON array; nil when it is another value or not JSON.
    static func arrayLength(of text: Data) -> Int? {
        scan(text).flatMap { $0.isArray ? $0.items.count : nil }
    }

    /// The elements of `text` when it is a JSON array, each as it is written there (for joining lists exactly);
    /// nil when it is another value or not JSON.
    package static func arrayItems(of text: Data) -> [Data]? {
        guard let scanner = scan(text), scanner.isArray else { return nil }
        return scanner.items.map { Data(scanner.bytes[$0]) }
    }

    private static func scan(_ text: Data) -> Scanner? {
        let bytes = [UInt8](text)
        guard String(validating: bytes, as: UTF8.self) != nil else { return nil }
        var scanner = Scanner(bytes: bytes)
        return scanner.scanDocument() ? scanner : nil
    }

    private struct Scanner {
        let bytes: [UInt8]
        var index = 0
        /// The open containers, innermost last: true for an object, false for an array.
        var open: [Bool] = []
        /// Whether the document is an array, and where each of its elements is written.
        var isArray = false
        var items: [Range<Int>] = []
        /// Where the top-level element being read starts, while one is read.
        private var itemStart: Int?

        init(bytes: [UInt8]) {
            self.bytes = bytes
        }

        mutating func scanDocument() -> Bool {
            // Whether a value must come next: at the start, after "[", ",", or an object key's ":".
            var expectsValue = true
            while true {
                let valueEnd = index
                skipWhitespace()
                if expectsValue {
                    guard index < bytes.count else { return false }
                    if open.count == 1 && isArray { itemStart = index }
                    if open.isEmpty { isArray = bytes[index] == UInt8(ascii: "[") }
                    switch bytes[index] {
                    case UInt8(ascii: "{"), UInt8(ascii: "["):
                        let isObject = bytes[index] == UInt8(ascii: "{")
                        index += 1
                        open.append(isObject)
                        skipWhitespace()
                        if index < bytes.count && bytes[index] == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                            expectsValue = false
                        } else if isObject && !scanKey() {
                            return false
                        }
                    default:
                        guard scanScalar() else { return false }
                        expectsValue = false
                    }
                    continue
                }
                guard let isObject = open.last else { return index == bytes.count }
                guard index < bytes.count else { return false }
                let byte = bytes[index]
                if open.count == 1, let start = itemStart, byte == UInt8(ascii: ",") || byte == UInt8(ascii: "]") {
                    items.append(start..<valueEnd)
                    itemStart = nil
                }
                index += 1
                if byte == UInt8(ascii: ",") {
                    if isObject && !scanKey() { return false }
                    expectsValue = true
                } else if byte == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                    open.removeLast()
                } else {
                    return false
                }
            }
        }

        /// A string, number, `true`, `false` or `null`.
        private mutating func scanScalar() -> Bool {
            switch bytes[index] {
            case UInt8(ascii: "\""): scanString()
            case UInt8(ascii: "t"): scanWord("true")
            case UInt8(ascii: "f"): scanWord("false")
            case UInt8(ascii: "n"): scanWord("null")
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): scanNumber()
            default: false
            }
        }

        /// An object's key and the colon after it.
        private mutating func scanKey() -> Bool {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\""), scanString() else { return false }
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return false }
            index += 1
            return true
        }

        private mutating func skipWhitespace() {
            while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
        }

        private mutating func scanWord(_ word: StaticString) -> Bool {
            let length = word.utf8CodeUnitCount
            guard bytes.count - index >= length else { return false }
            let matches = word.withUTF8Buffer { expected in bytes[index..<index + length].elementsEqual(expected) }
            index += length
            return matches
        }

        private mutating func scanString() -> Bool {
            index += 1
            while index < bytes.count {
                let byte = bytes[index]
                index += 1
                switch byte {
                case UInt8(ascii: "\""):
                    return true
                case UInt8(ascii: "\\"):
                    guard index < bytes.count else { return false }
                    let escape = bytes[index]
                    index += 1
                    if escape == UInt8(ascii: "u") {
                        guard bytes.count - index >= 4, bytes[index..<index + 4].allSatisfy(Self.isHexDigit) else { return false }
                        index += 4
                    } else if !Array("\"\\/bfnrt".utf8).contains(escape) {
                        return false
                    }
                case 0..<0x20:
                    return false
                default:
                    continue
                }
            }
            return false
        }

        private mutating func scanNumber() -> Bool {
            if bytes[index] == UInt8(ascii: "-") { index += 1 }
            let integerStart = index
            let integerDigits = scanDigits()
            guard integerDigits > 0, integerDigits == 1 || bytes[integerStart] != UInt8(ascii: "0") else { return false }
            if index < bytes.count && bytes[index] == UInt8(ascii: ".") {
                index += 1
                guard scanDigits() > 0 else { return false }
            }
            if index < bytes.count && (bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E")) {
                index += 1
                if index < bytes.count && (bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-")) { index += 1 }
                guard scanDigits() > 0 else { return false }
            }
            return true
        }

        private mutating func scanDigits() -> Int {
            let start = index
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
            return index - start
        }

        private static func isHexDigit(_ byte: UInt8) -> Bool {
            (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
                || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(byte)
        }
    }
}
