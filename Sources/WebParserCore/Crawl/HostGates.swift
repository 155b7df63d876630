import FoundationEssentials

/// The pages of each host loaded at once (`perHost`), and the least time between two of them starting (the crawl's
/// `delay`, or the site's longer `Crawl-delay`).
actor HostGates {
    private let perHost: Int
    private var gates: [String: PageSlots] = [:]
    private var nextStart: [String: ContinuousClock.Instant] = [:]

    init(perHost: Int) {
        self.perHost = perHost
    }

    /// Runs `work`, a load of `url`, once its host has room for it and `delay` has passed since its last start.
    func run<T: Sendable>(_ url: URL, delay: Duration, _ work: @escaping @Sendable () async throws -> T) async throws -> T {
        let host = url.host()?.lowercased() ?? ""
        let gate = gates[host] ?? PageSlots(perHost)
        gates[host] = gate
        return try await gate.run { [self] in
            try await self.waitForTurn(host, delay: delay)
            return try await work()
        }
    }

    /// Waits until `delay` has passed since the host's last start.
    private func waitForTurn(_ host: String, delay: Duration) async throws {
        guard delay > .zero else { return }
        let now = ContinuousClock.now
        let start = max(now, nextStart[host] ?? now)
        nextStart[host] = start + delay
        try await Task.sleep(until: start)
    }
}
