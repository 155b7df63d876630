/// A JSON parser that keeps what a config's error messages need: the line and column of every value, the
/// order of object keys, and duplicate keys. Strict RFC 8259: no comments, no trailing commas.
package struct JSONNode: Sendable {
    /// A JSON value; objects keep their members in file order.
    package indirect enum Value: Sendable {
        case null
        case bool(Bool)
        case number(Double)
        case string(String)
        case array([JSONNode])
        case object([(key: String, value: JSONNode)])
    }

    package var value: Value
    /// Where the value starts, from 1; 0 for values that are not from a text.
    package var line: Int
    package var column: Int
    /// The bytes of the parsed text the value spans, so that it can be passed on as it was written.
    package var span: Range<Int> = 0..<0

    package init(value: Value, line: Int, column: Int, span: Range<Int> = 0..<0) {
        self.value = value
        self.line = line
        self.column = column
        self.span = span
    }

    /// What a parse accepts beyond strict JSON, and how deep it goes.
    package struct Rules: Sendable {
        /// The deepest nesting accepted; deeper text is refused with a message that says so.
        package var maximumDepth: Int
        /// Whether an escaped lone surrogate (`"\ud83d"`, valid JSON text that `JSON.stringify` writes for a
        /// string cut inside an emoji) is read instead of refused: as a character of Supplementary Private Use
        /// Area-A of its own (U+F0000 + the code unit − U+D800), so that strings with different lone surrogates
        /// stay different.
        package var replacesLoneSurrogates: Bool
        /// Whether an object may repeat a key (a config may not: the second would silently win).
        package var allowsDuplicateKeys: Bool

        /// Rules with these limits.
        package init(maximumDepth: Int, replacesLoneSurrogates: Bool, allowsDuplicateKeys: Bool) {
            self.maximumDepth = maximumDepth
            self.replacesLoneSurrogates = replacesLoneSurrogates
            self.allowsDuplicateKeys = allowsDuplicateKeys
        }

        /// For configs: 200 levels, strict Unicode, no repeated keys.
        package static let config = Rules(maximumDepth: 200, replacesLoneSurrogates: false, allowsDuplicateKeys: false)
        /// For JSON text other programs wrote (cookie files, a page's results): 512 levels, lone surrogates read,
        /// the last of repeated keys wins.
        package static let lenient = Rules(maximumDepth: 512, replacesLoneSurrogates: true, allowsDuplicateKeys: true)
    }

    /// Parses `bytes` as one JSON document under `rules`.
    /// - Throws: `JSONSyntaxError` at the first place the text is not JSON or breaks a rule.
    package static func parse(_ bytes: [UInt8], rules: Rules = .config) throws(JSONSyntaxError) -> JSONNode {
        var parser = JSONParser(bytes: bytes, rules: rules)
        parser.skipWhitespace()
        let node = try parser.parseValue(depth: 0)
        parser.skipWhitespace()
        guard parser.atEnd else { throw parser.error("unexpected text after the JSON value") }
        return node
    }

    /// `text` as a number when it is written as JSON writes one (`5`, `-0.5`, `2e3`), and nothing else.
    package static func number(writtenAs text: String) -> Double? {
        var parser = JSONParser(bytes: Array(text.utf8), rules: .config)
        guard !parser.atEnd, let number = try? parser.parseNumber(), parser.atEnd else { return nil }
        return number
    }

    /// `number` as a message writes it: whole numbers without a fraction (`5`, not `5.0`).
    package static func written(_ number: Double) -> String {
        number == number.rounded() && abs(number) < 1e15 ? String(Int(number)) : String(number)
    }

    /// The kind of value, for messages: "a string", "an array"…
    package var kindDescription: String {
        switch value {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }

    /// The value as it would be written in the file, shortened for messages.
    package var excerpt: String {
        switch value {
        case .null: "null"
        case .bool(let flag): String(flag)
        case .number(let number): Self.written(number)
        case .string(let text):
            "\""
                + String(
                    (text.count > 40 ? text.prefix(40) + "…" : text).flatMap { character -> String in
                        switch character {
                        case "\n": "\\n"
                        case "\r", "\r\n": "\\r"
                        case "\t": "\\t"
                        case _ where character.unicodeScalars.contains(where: { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }):
                            character.unicodeScalars.map { "\\u" + $0.value.hexDigits(4) }.joined()
                        default: String(character)
                        }
                    }) + "\""
        case .array: "an array"
        case .object: "an object"
        }
    }
}

/// Where and why a text is not valid JSON.
public struct JSONSyntaxError: Error, Sendable {
    /// What is wrong, such as "duplicate key \"url\"".
    public var message: String
    /// The line of the text where it is wrong, from 1.
    public var line: Int
    /// The column in that line, in characters from 1.
    public var column: Int
}

private struct JSONParser {
    let bytes: [UInt8]
    let rules: JSONNode.Rules
    var index = 0
    var line = 1
    var lineStart = 0

    init(bytes: [UInt8], rules: JSONNode.Rules) {
        self.bytes = bytes
        self.rules = rules
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3; lineStart = 3; counted.index = 3 }
    }

    /// A column already counted, so that counting the next one only reads the bytes in between.
    private var counted = (index: 0, column: 1)

    var atEnd: Bool { index >= bytes.count }

    /// The column of `index` in characters, from 1: UTF-8 continuation bytes do not count.
    mutating func column() -> Int {
        if counted.index < lineStart || counted.index > index { counted = (lineStart, 1) }
        let end = min(index, bytes.count)
        counted.column += bytes[counted.index..<end].count { $0 & 0xC0 != 0x80 }
        counted.index = end
        return counted.column
    }

    mutating func error(_ message: String) -> JSONSyntaxError {
        JSONSyntaxError(message: message, line: line, column: column())
    }

    mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"):
                index += 1
            case UInt8(ascii: "\n"):
                index += 1
                line += 1
                lineStart = index
            default:
                return
            }
        }
    }

    mutating func parseValue(depth: Int) throws(JSONSyntaxError) -> JSONNode {
        guard depth < rules.maximumDepth else { throw error("nesting deeper than \(rules.maximumDepth) levels") }
        guard !atEnd else { throw error("unexpected end of file; a value was expected") }
        let (startLine, startColumn, start) = (line, column(), index)
        let value: JSONNode.Value
        switch bytes[index] {
        case UInt8(ascii: "{"): value = try parseObject(depth: depth)
        case UInt8(ascii: "["): value = try parseArray(depth: depth)
        case UInt8(ascii: "\""): value = .string(try parseString())
        case UInt8(ascii: "t"): try expectWord("true"); value = .bool(true)
        case UInt8(ascii: "f"): try expectWord("false"); value = .bool(false)
        case UInt8(ascii: "n"): try expectWord("null"); value = .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): value = .number(try parseNumber())
        case let byte: throw error("unexpected \(describe(byte)); a value was expected")
        }
        return JSONNode(value: value, line: startLine, column: startColumn, span: start..<index)
    }

    private func describe(_ byte: UInt8) -> String {
        switch byte {
        case UInt8(ascii: "'"): "single quote (JSON strings use double quotes)"
        case UInt8(ascii: "/"): "'/' (JSON has no comments)"
        case 0x21...0x7E: "'\(Character(UnicodeScalar(byte)))'"
        default: "byte 0x\(String(byte, radix: 16))"
        }
    }

    private mutating func expectWord(_ word: String) throws(JSONSyntaxError) {
        let utf8 = Array(word.utf8)
        guard bytes.count - index >= utf8.count, Array(bytes[index..<index + utf8.count]) == utf8 else {
            throw error("unexpected text; a value was expected (strings need double quotes)")
        }
        index += utf8.count
    }

    private mutating func parseObject(depth: Int) throws(JSONSyntaxError) -> JSONNode.Value {
        index += 1
        var members: [(key: String, value: JSONNode)] = []
        var seen = Set<String>()
        skipWhitespace()
        if !atEnd && bytes[index] == UInt8(ascii: "}") {
            index += 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            guard !atEnd else { throw error("unexpected end of file inside an object") }
            guard bytes[index] == UInt8(ascii: "\"") else {
                throw error(
                    bytes[index] == UInt8(ascii: "}")
                        ? "trailing comma before '}'"
                        : "unexpected \(describe(bytes[index])); a key in double quotes was expected")
            }
            let keyPlace = error("")
            let key = try parseString()
            guard seen.insert(key).inserted || rules.allowsDuplicateKeys else {
                throw JSONSyntaxError(message: "duplicate key \"\(key)\"", line: keyPlace.line, column: keyPlace.column)
            }
            skipWhitespace()
            guard !atEnd, bytes[index] == UInt8(ascii: ":") else { throw error("':' expected after the key \"\(key)\"") }
            index += 1
            skipWhitespace()
            members.append((key, try parseValue(depth: depth + 1)))
            skipWhitespace()
            guard !atEnd else { throw error("unexpected end of file; ',' or '}' expected") }
            switch bytes[index] {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "}"): index += 1; return .object(members)
            default: throw error("',' or '}' expected after the value of \"\(key)\"")
            }
        }
    }

    private mutating func parseArray(depth: Int) throws(JSONSyntaxError) -> JSONNode.Value {
        index += 1
        var elements: [JSONNode] = []
        skipWhitespace()
        if !atEnd && bytes[index] == UInt8(ascii: "]") {
            index += 1
            return .array(elements)
        }
        while true {
            skipWhitespace()
            if !atEnd && bytes[index] == UInt8(ascii: "]") { throw error("trailing comma before ']'") }
            elements.append(try parseValue(depth: depth + 1))
            skipWhitespace()
            guard !atEnd else { throw error("unexpected end of file; ',' or ']' expected") }
            switch bytes[index] {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "]"): index += 1; return .array(elements)
            default: throw error("',' or ']' expected after an array element")
            }
        }
    }

    private mutating func parseString() throws(JSONSyntaxError) -> String {
        index += 1
        var output = ""
        var raw: [UInt8] = []
        func flush() throws(JSONSyntaxError) {
            guard !raw.isEmpty else { return }
            guard let text = String(validating: raw, as: UTF8.self) else { throw error("invalid UTF-8 inside a string") }
            output += text
            raw.removeAll(keepingCapacity: true)
        }
        while true {
            guard !atEnd else { throw error("unexpected end of file inside a string") }
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                try flush()
                index += 1
                return output
            case UInt8(ascii: "\\"):
                try flush()
                index += 1
                guard !atEnd else { throw error("unexpected end of file inside a string") }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "\""): output.unicodeScalars.append("\"")
                case UInt8(ascii: "\\"): output.unicodeScalars.append("\\")
                case UInt8(ascii: "/"): output.unicodeScalars.append("/")
                case UInt8(ascii: "b"): output.unicodeScalars.append("\u{8}")
                case UInt8(ascii: "f"): output.unicodeScalars.append("\u{C}")
                case UInt8(ascii: "n"): output.unicodeScalars.append("\n")
                case UInt8(ascii: "r"): output.unicodeScalars.append("\r")
                case UInt8(ascii: "t"): output.unicodeScalars.append("\t")
                case UInt8(ascii: "u"): output.unicodeScalars.append(try parseUnicodeEscape())
                default: index -= 1; throw error("invalid escape '\\\(Character(UnicodeScalar(escape)))' in a string")
                }
            case 0..<0x20:
                throw error(byte == UInt8(ascii: "\n") ? "line break inside a string (write \\n)" : "control character inside a string")
            default:
                // The run of plain bytes up to the next quote, backslash or control character, at once.
                let start = index
                index += 1
                while index < bytes.count, bytes[index] >= 0x20, bytes[index] != UInt8(ascii: "\""), bytes[index] != UInt8(ascii: "\\") {
                    index += 1
                }
                raw.append(contentsOf: bytes[start..<index])
            }
        }
    }

    private mutating func parseUnicodeEscape() throws(JSONSyntaxError) -> UnicodeScalar {
        let high = try parseHex4()
        if (0xD800..<0xDC00).contains(high) {
            let escapeStart = index
            if bytes.count - index >= 6, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") {
                index += 2
                let low = try parseHex4()
                if (0xDC00..<0xE000).contains(low) { return UnicodeScalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))! }
                // Not a pair: the second escape is read again on its own.
                index = escapeStart
            }
            return try loneSurrogate(high)
        }
        guard let scalar = UnicodeScalar(high) else { return try loneSurrogate(high) }
        return scalar
    }

    private mutating func loneSurrogate(_ unit: UInt32) throws(JSONSyntaxError) -> UnicodeScalar {
        guard rules.replacesLoneSurrogates else { throw error("unpaired surrogate in a \\u escape") }
        return UnicodeScalar(0xF0000 + unit - 0xD800)!
    }

    private mutating func parseHex4() throws(JSONSyntaxError) -> UInt32 {
        let digits = bytes.count - index >= 4 ? bytes[index..<index + 4] : []
        guard digits.count == 4, digits.allSatisfy({ Character(UnicodeScalar($0)).isHexDigit }),
            let value = UInt32(String(decoding: digits, as: UTF8.self), radix: 16)
        else { throw error("\\u must be followed by four hex digits") }
        index += 4
        return value
    }

    mutating func parseNumber() throws(JSONSyntaxError) -> Double {
        let start = index
        let startColumn = column()
        func digits() -> Int {
            let from = index
            while !atEnd, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
            return index - from
        }
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        let integerStart = index
        let integerDigits = digits()
        guard integerDigits > 0 else { throw error("a digit was expected") }
        if integerDigits > 1 && bytes[integerStart] == UInt8(ascii: "0") {
            throw JSONSyntaxError(message: "numbers cannot start with 0", line: line, column: startColumn)
        }
        if !atEnd && bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard digits() > 0 else { throw error("a digit was expected after '.'") }
        }
        if !atEnd && (bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E")) {
            index += 1
            if !atEnd && (bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-")) { index += 1 }
            guard digits() > 0 else { throw error("a digit was expected in the exponent") }
        }
        guard let number = Double(String(decoding: bytes[start..<index], as: UTF8.self)), number.isFinite else {
            throw JSONSyntaxError(message: "number out of range", line: line, column: startColumn)
        }
        return number
    }
}
