import FoundationEssentials
import WebParserCore

/// The hosts' limits of a work queue's workers, kept in its Redis (`WorkQueue+Hosts`).
package struct QueueHostBook: HostBook {
    package let queue: WorkQueue

    package func enter(_ host: String, perHost: Int, as holder: String) async throws {
        try await queue.enterHost(host, perHost: perHost, as: holder)
    }

    package func leave(_ host: String, as holder: String) async {
        await queue.leaveHost(host, as: holder)
    }

    package func turn(_ host: String, delay: Duration) async throws -> Duration? {
        try await queue.hostTurn(host, delay: delay, startingLimit: Self.startingLimit, startingPoll: Self.startingPoll)
    }

    package func started(_ host: String, delay: Duration) async throws {
        try await queue.hostStarted(host, delay: delay)
    }

    package func pause(_ host: String, for pause: Duration) async throws {
        try await queue.pauseHost(host, for: pause)
    }

    package func strike(_ host: String) async throws -> Int {
        try await queue.strikeHost(host)
    }

    package func forgive(_ host: String) async throws {
        try await queue.forgiveHost(host)
    }
}
