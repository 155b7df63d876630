/// Trimming without Foundation's character sets (which would link ICU into the binary).
extension StringProtocol {
    /// The text without the white space (spaces, tabs, line breaks, Unicode's other spaces) at either end.
    package func trimmingWhitespace() -> String { trimming(while: \.isWhitespace) }

    /// The text without the spaces and tabs (Unicode's space separators included) at either end; line breaks are
    /// kept.
    package func trimmingSpaces() -> String {
        trimming { character in
            character.unicodeScalars.allSatisfy { $0 == "\t" || $0.properties.generalCategory == .spaceSeparator }
        }
    }

    /// The text without the characters at either end for which `isTrimmed` is true.
    package func trimming(while isTrimmed: (Character) -> Bool) -> String {
        guard let first = firstIndex(where: { !isTrimmed($0) }), let last = lastIndex(where: { !isTrimmed($0) }) else { return "" }
        return String(self[first...last])
    }
}
