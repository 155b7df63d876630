import FoundationEssentials

/// Where a work queue is: `redis://[:PASSWORD@]HOST[:PORT][/DB]?queue=NAME`, as redis-cli and most clients write
/// it (a user name is Redis 6's ACL user; the password is percent-decoded).
public struct RedisURL: Sendable, Equatable, CustomStringConvertible {
    /// The server's host name or address.
    public let host: String
    /// The server's port, 6379 by default.
    public let port: Int
    /// The database number (`SELECT`), 0 by default.
    public let database: Int
    /// The ACL user to authenticate as, if any.
    public let user: String?
    /// The password to authenticate with, if any.
    public let password: String?
    /// The name of the queue's list; its other keys start with it (`NAME:results`, `NAME:failed`…).
    public let queue: String

    /// Reads `text`.
    /// - Throws: `RedisURL.Problem` saying what is wrong: not a redis:// URL, no host, a port or database that is
    ///   not a number in range, no `queue`, or a parameter webparse does not know.
    public init(_ text: String) throws(Problem) {
        guard let components = URLComponents(string: text), components.scheme?.lowercased() == "redis" else {
            throw Problem("\(Self.redacted(text)) is not a redis:// URL (redis://[:PASSWORD@]HOST[:PORT][/DB]?queue=NAME)")
        }
        guard let host = components.host, !host.isEmpty else { throw Problem("\(Self.redacted(text)) names no host") }
        self.host = host
        port = components.port ?? 6379
        guard (1...65535).contains(port) else { throw Problem("the port \(port) is not between 1 and 65535") }
        let path = components.path.drop { $0 == "/" }
        guard let database = path.isEmpty ? 0 : Int(path), database >= 0 else {
            throw Problem("the database \"\(path)\" is not a number (redis://HOST/DB, DB from 0)")
        }
        self.database = database
        user = components.user.flatMap { $0.isEmpty ? nil : $0 }
        password = components.password
        var queue: String?
        for item in components.queryItems ?? [] {
            guard item.name == "queue" else { throw Problem("unknown parameter \"\(item.name)\" (the one parameter is queue=NAME)") }
            queue = item.value
        }
        guard let queue, !queue.isEmpty else { throw Problem("no queue: add ?queue=NAME to the URL") }
        self.queue = queue
    }

    /// The URL without its password, for messages.
    public var description: String {
        let credentials = password == nil ? user.map { "\($0)@" } ?? "" : "\(user ?? ""):***@"
        return "redis://\(credentials)\(host):\(port)/\(database)?queue=\(queue)"
    }

    /// `text` with what looks like a password replaced, for a message about a URL that does not parse.
    private static func redacted(_ text: String) -> String {
        text.replacing(/:[^:@\/]*@/, with: ":***@")
    }

    /// What is wrong with a queue's URL.
    public struct Problem: Error, CustomStringConvertible, Sendable {
        /// What is wrong, in words.
        public let description: String

        init(_ description: String) {
            self.description = description
        }
    }
}
