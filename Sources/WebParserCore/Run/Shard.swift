import WebParser

/// `--shard K/N`: the jobs whose stable hash falls in shard K of N.
package struct Shard: Sendable, Equatable {
    /// From 1 to `count`.
    package let index: Int
    package let count: Int

    /// The shard written `K/N`, with 1 ≤ K ≤ N ≤ 1000; nil for any other text.
    package init?(parsing text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false).map { Int($0) }
        guard parts.count == 2, let index = parts[0], let count = parts[1], (1...1000).contains(count), (1...count).contains(index) else {
            return nil
        }
        self.index = index
        self.count = count
    }

    /// Whether the job named `name` belongs to this shard: the first 8 bytes of the SHA-256 of its name, modulo
    /// `count`, are `index - 1`. The same name always lands in the same shard, on every host.
    package func contains(_ name: String) -> Bool {
        let prefix = SHA256.digest(name.utf8).prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        return Int(prefix % UInt64(count)) == index - 1
    }
}
