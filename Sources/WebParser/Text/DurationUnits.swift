extension Duration {
    /// The duration in whole milliseconds, rounded toward zero.
    package var milliseconds: Int64 {
        components.seconds * 1000 + components.attoseconds / 1_000_000_000_000_000
    }

    /// "1.5 s", "30 s", "250 ms".
    package var secondsText: String {
        if milliseconds < 1000 { return "\(milliseconds) ms" }
        if milliseconds % 1000 == 0 { return "\(milliseconds / 1000) s" }
        return "\(Double(milliseconds) / 1000) s"
    }
}
