/// The pages a run may have at once (`-j`), shared by its jobs and the detail pages they follow: a page runs while
/// it holds a slot, and the slots are taken in the order they were asked for.
actor PageSlots {
    private var free: Int
    private var waiting: [CheckedContinuation<Void, Never>] = []

    /// `count` slots (at least one).
    init(_ count: Int) {
        free = max(count, 1)
    }

    /// Runs `work` once a slot is free, holding it meanwhile.
    func run<T: Sendable>(_ work: @Sendable () async throws -> T) async rethrows -> T {
        if free > 0 {
            free -= 1
        } else {
            await withCheckedContinuation { waiting.append($0) }
        }
        defer { release() }
        return try await work()
    }

    private func release() {
        if waiting.isEmpty {
            free += 1
        } else {
            waiting.removeFirst().resume()
        }
    }
}
