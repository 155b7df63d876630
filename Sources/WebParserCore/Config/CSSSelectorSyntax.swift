/// Whether a text is a CSS selector list as browsers parse it, checked without a browser so that a config's
/// selectors are refused before any page loads. It follows the grammar of Selectors Level 4 (type, universal,
/// id, class and attribute selectors, namespaces, pseudo-classes and pseudo-elements with their arguments,
/// combinators, comments), and leaves only the meaning of names to the browser: an unknown pseudo-class is accepted
/// here, and so is anything in the forgiving lists of `:is()` and `:where()`.
enum CSSSelectorSyntax {
    /// Nil when `text` is a selector list; else what is wrong, in words.
    static func problem(in text: String) -> String? {
        var parser = Parser(Array(text.unicodeScalars))
        do {
            try parser.selectorList(relative: false)
            parser.skipSpace()
            guard parser.atEnd else { throw Failure("unexpected \(parser.peekDescription)") }
            return nil
        } catch let failure as Failure {
            return failure.message
        } catch {
            return "not a CSS selector"
        }
    }

    private struct Failure: Error {
        var message: String
        init(_ message: String) { self.message = message }
    }

    /// The pseudo-classes whose argument is itself a selector list (relative, for `:has`).
    private static let selectorArguments: Set<String> = ["not", "matches", "-webkit-any", "any", "has", "host", "host-context", "slotted", "cue"]

    private struct Parser {
        let scalars: [Unicode.Scalar]
        var position = 0

        init(_ scalars: [Unicode.Scalar]) { self.scalars = scalars }

        var atEnd: Bool { position >= scalars.count }
        var peek: Unicode.Scalar? { atEnd ? nil : scalars[position] }
        var peekDescription: String { peek.map { "\"\(Character($0))\"" } ?? "end" }

        /// Skips white space and comments.
        mutating func skipSpace() {
            while let scalar = peek {
                if scalar == " " || scalar == "\t" || scalar == "\n" || scalar == "\r" || scalar == "\u{0C}" {
                    position += 1
                } else if scalar == "/", position + 1 < scalars.count, scalars[position + 1] == "*" {
                    position += 2
                    while position < scalars.count, !(scalars[position] == "*" && position + 1 < scalars.count && scalars[position + 1] == "/") {
                        position += 1
                    }
                    position = min(position + 2, scalars.count)
                } else {
                    return
                }
            }
        }

        /// A type or attribute name with its namespace, if any: `name`, `*|name`, `|name` (and `*` where `star`
        /// allows it); a named prefix (`ns|name`) is refused, as a page's `querySelector` refuses it.
        mutating func qualifiedName(star: Bool) throws {
            if peek == "|" {
                position += 1
            } else {
                if take("*") {
                    guard peek == "|", position + 1 < scalars.count, scalars[position + 1] != "=" else {
                        if star { return }
                        throw Failure("expected a name, got \"*\"")
                    }
                } else {
                    try identifier()
                    guard peek == "|", position + 1 < scalars.count, scalars[position + 1] != "=" else { return }
                    // A page's querySelector knows no namespace prefix: only "*|" and "|" work there.
                    throw Failure("a namespace prefix is never declared for a page's selectors; write *| or | instead")
                }
                position += 1
            }
            if star && take("*") { return }
            guard startsIdentifier else { throw Failure("expected a name after \"|\"") }
            try identifier()
        }

        mutating func selectorList(relative: Bool) throws {
            repeat {
                skipSpace()
                try complexSelector(relative: relative)
                skipSpace()
            } while take(",")
        }

        mutating func take(_ scalar: Unicode.Scalar) -> Bool {
            guard peek == scalar else { return false }
            position += 1
            return true
        }

        mutating func complexSelector(relative: Bool) throws {
            if relative, let scalar = peek, ">+~".unicodeScalars.contains(scalar) {
                position += 1
                skipSpace()
            }
            try compoundSelector()
            while true {
                let before = position
                skipSpace()
                if let scalar = peek, ">+~".unicodeScalars.contains(scalar) {
                    position += 1
                    skipSpace()
                    try compoundSelector()
                } else if let scalar = peek, scalar != ",", scalar != ")", position > before {
                    try compoundSelector()
                } else {
                    position = before
                    return
                }
            }
        }

        mutating func compoundSelector() throws {
            var parts = 0
            if peek == "*" || peek == "|" || startsIdentifier {
                try qualifiedName(star: true)
                parts += 1
            }
            while let scalar = peek {
                switch scalar {
                case "#":
                    position += 1
                    guard startsName else { throw Failure("expected a name after \"#\"") }
                    try name()
                case ".":
                    position += 1
                    guard startsIdentifier else { throw Failure("expected a class name after \".\"") }
                    try identifier()
                case "[":
                    position += 1
                    try attribute()
                case ":":
                    position += 1
                    _ = take(":")
                    try pseudo()
                default:
                    guard parts > 0 else { throw Failure(atEnd ? "a selector is missing" : "unexpected \(peekDescription)") }
                    return
                }
                parts += 1
            }
            guard parts > 0 else { throw Failure("a selector is missing") }
        }

        mutating func attribute() throws {
            skipSpace()
            guard peek == "*" || peek == "|" || startsIdentifier else { throw Failure("expected an attribute name after \"[\"") }
            try qualifiedName(star: false)
            skipSpace()
            if take("]") { return }
            if let scalar = peek, "~|^$*".unicodeScalars.contains(scalar) { position += 1 }
            guard take("=") else { throw Failure("expected \"=\" or \"]\" in an attribute selector, got \(peekDescription)") }
            skipSpace()
            if peek == "\"" || peek == "'" {
                try string()
            } else if startsIdentifier {
                try identifier()
            } else {
                throw Failure("expected a value in an attribute selector, got \(peekDescription)")
            }
            skipSpace()
            if let scalar = peek, "iIsS".unicodeScalars.contains(scalar) {
                position += 1
                skipSpace()
            }
            guard take("]") else { throw Failure("expected \"]\", got \(peekDescription)") }
        }

        mutating func pseudo() throws {
            guard startsIdentifier else { throw Failure("expected a name after \":\"") }
            let start = position
            try identifier()
            let pseudoName = String(String.UnicodeScalarView(scalars[start..<position])).lowercased()
            guard take("(") else { return }
            if CSSSelectorSyntax.selectorArguments.contains(pseudoName) {
                try selectorList(relative: pseudoName == "has")
                guard take(")") else { throw Failure("expected \")\" after the selectors of :\(pseudoName)(), got \(peekDescription)") }
            } else {
                try balanced()
            }
        }

        /// Anything up to the matching ")", strings and brackets balanced.
        mutating func balanced() throws {
            var depth = 1
            while let scalar = peek {
                switch scalar {
                case "\"", "'": try string(); continue
                case "\\": position += 2; continue
                case "(": depth += 1
                case ")":
                    depth -= 1
                    if depth == 0 {
                        position += 1
                        return
                    }
                default: break
                }
                position += 1
            }
            throw Failure("a \"(\" is not closed")
        }

        mutating func string() throws {
            let quote = scalars[position]
            position += 1
            while let scalar = peek {
                position += 1
                if scalar == "\\" { position += 1 } else if scalar == quote { return }
            }
            throw Failure("a string is not closed")
        }

        var startsIdentifier: Bool {
            guard let first = peek else { return false }
            if first == "-" {
                guard position + 1 < scalars.count else { return false }
                let second = scalars[position + 1]
                return second == "-" || isNameStart(second) || second == "\\"
            }
            return isNameStart(first) || first == "\\"
        }

        var startsName: Bool { peek.map { isNameCharacter($0) || $0 == "\\" } ?? false }

        mutating func identifier() throws {
            if peek == "-" { position += 1 }
            try name()
        }

        mutating func name() throws {
            var count = 0
            while let scalar = peek {
                if scalar == "\\" {
                    try escape()
                } else if isNameCharacter(scalar) {
                    position += 1
                } else {
                    break
                }
                count += 1
            }
            guard count > 0 else { throw Failure("expected a name, got \(peekDescription)") }
        }

        /// A backslash and what it escapes: up to six hex digits and one white space after them, or one character.
        mutating func escape() throws {
            position += 1
            guard let first = peek, first != "\n" else { throw Failure("a \"\\\" escapes nothing") }
            guard first.properties.isASCIIHexDigit else {
                position += 1
                return
            }
            var digits = 0
            while digits < 6, let digit = peek, digit.properties.isASCIIHexDigit {
                position += 1
                digits += 1
            }
            if let space = peek, space == " " || space == "\t" || space == "\n" { position += 1 }
        }

        func isNameStart(_ scalar: Unicode.Scalar) -> Bool {
            scalar == "_" || (scalar >= "a" && scalar <= "z") || (scalar >= "A" && scalar <= "Z") || scalar.value >= 0x80
        }

        func isNameCharacter(_ scalar: Unicode.Scalar) -> Bool {
            isNameStart(scalar) || scalar == "-" || (scalar >= "0" && scalar <= "9")
        }
    }
}
