extension Duration {
    /// The duration in seconds, as Redis' timeouts and hiredis' take them.
    var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
