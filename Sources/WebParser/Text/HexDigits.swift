extension BinaryInteger {
    /// The number in hexadecimal, zero-padded to `digits` digits: what `String(format: "%04x")` writes, without
    /// Foundation's formatter (which would link ICU into the binary).
    package func hexDigits(_ digits: Int, uppercase: Bool = false) -> String {
        let text = String(self, radix: 16, uppercase: uppercase)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }
}
