extension StringProtocol {
    /// The text followed by spaces up to `width` characters, or cut to `width` when longer: the columns of a help
    /// table, as Foundation's `padding(toLength:withPad:startingAt:)` gives them.
    package func padded(to width: Int) -> String {
        count >= width ? String(prefix(width)) : self + String(repeating: " ", count: width - count)
    }
}
