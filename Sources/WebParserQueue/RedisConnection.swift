internal import CRedis
import FoundationEssentials
import Glibc

/// One connection to a Redis server (hiredis, through the CRedis shim): commands sent and their replies read, one
/// at a time. A connection that fails is made again with a growing pause (`retrying`), so that a server restarted
/// during a run is found again; what a command means to the queue is `WorkQueue`'s.
public final class RedisConnection {
    /// A reply, as Redis gave it.
    public enum Reply: Equatable, Sendable {
        /// A bulk string.
        case string(Data)
        /// An integer.
        case integer(Int)
        /// An array of replies.
        case array([Reply])
        /// A status line, such as `OK`.
        case status(String)
        /// No value.
        case nil_

        /// The text of a string or status reply.
        public var text: String? {
            switch self {
            case .string(let data): String(decoding: data, as: UTF8.self)
            case .status(let text): text
            default: nil
            }
        }
    }

    /// Why a command failed: the connection (which `retrying` makes again) or the server's answer (an error reply,
    /// such as WRONGTYPE or NOAUTH, which a retry cannot help).
    public enum Failure: Error, CustomStringConvertible, Sendable {
        /// The connection failed, for this reason.
        case connection(String)
        /// The server answered with this error.
        case server(String)

        /// The failure, in words.
        public var description: String {
            switch self {
            case .connection(let reason): "the connection to Redis failed: \(reason)"
            case .server(let message): "Redis answered: \(message)"
            }
        }
    }

    private let url: RedisURL
    private var connection: OpaquePointer?
    /// How long a connection and each reply may take.
    private let timeout: Double

    /// Connects to the server `url` names, logs in with its password and selects its database.
    /// - Throws: `Failure.connection` when the server cannot be reached, `Failure.server` when it refuses the
    ///   password or the database.
    public init(_ url: RedisURL, timeout: Duration = .seconds(5)) throws(Failure) {
        self.url = url
        self.timeout = timeout.seconds
        try connect()
    }

    deinit {
        if let connection { wr_close(connection) }
    }

    private func connect() throws(Failure) {
        if let connection { wr_close(connection) }
        connection = nil
        var error: UnsafeMutablePointer<CChar>?
        guard let made = wr_connect(url.host, Int32(url.port), timeout, &error) else {
            defer { free(error) }
            throw .connection("\(url.host):\(url.port): " + (error.map { String(cString: $0) } ?? "cannot connect"))
        }
        connection = made
        if let password = url.password {
            _ = try send(url.user.map { ["AUTH", $0, password] } ?? ["AUTH", password])
        }
        if url.database != 0 { _ = try send(["SELECT", String(url.database)]) }
    }

    /// Sends `arguments` (binary-safe) and returns the reply.
    /// - Throws: `Failure.connection` when the connection failed (it is closed; the next call connects again),
    ///   `Failure.server` for an error reply.
    @discardableResult
    public func send(_ arguments: [String]) throws(Failure) -> Reply {
        try send(arguments.map { Data($0.utf8) })
    }

    /// Sends `arguments`, each any bytes, and returns the reply.
    /// - Throws: as `send(_:)` with strings.
    @discardableResult
    public func send(_ arguments: [Data]) throws(Failure) -> Reply {
        if connection == nil { try connect() }
        guard let connection else { throw .connection("not connected") }
        let reply = Self.withArguments(arguments) { pointers, lengths in
            wr_command(connection, Int32(arguments.count), pointers, lengths)
        }
        guard let reply else {
            let reason = wr_error(connection).map { String(cString: $0) } ?? "no reply"
            wr_close(connection)
            self.connection = nil
            throw .connection(reason)
        }
        defer { wr_reply_free(reply) }
        return try Self.read(reply)
    }

    /// Sends `arguments` until the connection carries them: a failed connection is made again after 0.1 s, then
    /// twice as long each time, up to 5 s, for `within` at most (`onRetry` hears each failure).
    /// - Throws: `Failure.server` at once; `Failure.connection` once `within` is over.
    @discardableResult
    public func retrying(
        _ arguments: [Data], within: Duration = .seconds(60), onRetry: (Failure) -> Void = { _ in }
    ) throws(Failure) -> Reply {
        let end = ContinuousClock.now + within
        var pause = Duration.milliseconds(100)
        while true {
            do throws(Failure) {
                return try send(arguments)
            } catch {
                guard case .connection = error, ContinuousClock.now + pause < end else { throw error }
                onRetry(error)
                usleep(useconds_t(pause.seconds * 1_000_000))
                pause = min(pause * 2, .seconds(5))
            }
        }
    }

    private static func read(_ reply: OpaquePointer) throws(Failure) -> Reply {
        var length = 0
        switch wr_reply_kind(reply) {
        case WR_REPLY_STRING:
            let bytes = wr_reply_text(reply, &length)!
            return .string(Data(bytes: bytes, count: length))
        case WR_REPLY_STATUS:
            return .status(String(cString: wr_reply_text(reply, &length)))
        case WR_REPLY_ERROR:
            throw .server(String(cString: wr_reply_text(reply, &length)))
        case WR_REPLY_INTEGER:
            return .integer(Int(wr_reply_integer(reply)))
        case WR_REPLY_ARRAY:
            var elements: [Reply] = []
            for index in 0..<wr_reply_count(reply) {
                elements.append(try read(wr_reply_element(reply, index)!))
            }
            return .array(elements)
        default:
            return .nil_
        }
    }

    /// Calls `body` with the arguments' bytes and lengths, which live during the call.
    private static func withArguments<Result>(
        _ arguments: [Data], _ body: (UnsafeMutablePointer<UnsafePointer<CChar>?>, UnsafePointer<Int>) -> Result
    ) -> Result {
        let copies = arguments.map { data -> UnsafeMutablePointer<CChar> in
            let copy = UnsafeMutablePointer<CChar>.allocate(capacity: max(data.count, 1))
            data.withUnsafeBytes { bytes in
                if let base = bytes.baseAddress { copy.update(from: base.assumingMemoryBound(to: CChar.self), count: data.count) }
            }
            return copy
        }
        defer { copies.forEach { $0.deallocate() } }
        var pointers = copies.map { UnsafePointer<CChar>?($0) }
        let lengths = arguments.map(\.count)
        return pointers.withUnsafeMutableBufferPointer { pointers in
            lengths.withUnsafeBufferPointer { lengths in body(pointers.baseAddress!, lengths.baseAddress!) }
        }
    }
}
