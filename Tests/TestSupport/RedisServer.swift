import Foundation
import Glibc

/// Debian's `redis-server`, started for a test on a free port with its data in a folder of its own (appended to a
/// file at every write, so that a restart keeps it), and stopped by its PID.
public final class RedisServer: @unchecked Sendable {
    /// The port it listens on, on 127.0.0.1.
    public let port: Int
    /// The password clients must give, if any.
    public let password: String?
    private let folder: URL
    /// The running server's PID.
    private var pid: pid_t?

    /// Starts a server on a free port, asking for `password` when given.
    /// - Throws: when redis-server cannot start or does not answer within 10 s.
    public init(password: String? = nil) throws {
        self.password = password
        port = try LocalPort.free()
        folder = FileManager.default.temporaryDirectory.appending(path: "webparse-redis-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try start()
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(at: folder)
    }

    /// A queue URL of this server for the queue `queue`.
    public func url(queue: String, password: String? = nil) -> String {
        let given = password ?? self.password
        return "redis://\(given.map { ":\($0)@" } ?? "")127.0.0.1:\(port)/0?queue=\(queue)"
    }

    /// Starts the server again, on the same port with the same data, after `stop`. It runs as a daemon of its own
    /// (its PID in its folder's pid file), so that the test stops it by its PID.
    public func start() throws {
        var arguments = [
            "/usr/bin/redis-server", "--port", String(port), "--bind", "127.0.0.1", "--dir", folder.path, "--save", "", "--appendonly", "yes",
            "--appendfsync", "always", "--daemonize", "yes", "--pidfile", pidFile.path, "--logfile", folder.appending(path: "redis.log").path
        ]
        if let password { arguments += ["--requirepass", password] }
        var launcher: pid_t = 0
        var status: Int32 = 0
        let copies = arguments.map { strdup($0) }
        defer { copies.forEach { free($0) } }
        // With no signal blocked or ignored, whatever the test process's threads block: the server must hear SIGTERM.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        var all = sigset_t()
        sigemptyset(&none)
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        guard posix_spawn(&launcher, arguments[0], nil, &attributes, copies + [nil], environ) == 0 else {
            throw Failure("cannot start redis-server")
        }
        // The launcher ends once the server has daemonized.
        waitpid(launcher, &status, 0)
        let deadline = Date().addingTimeInterval(10)
        while (try? cli(["PING"])) != "PONG" {
            guard Date() < deadline else { throw Failure("redis-server did not answer on port \(port)") }
            usleep(50_000)
        }
        pid = pid_t(try String(contentsOf: pidFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// Stops the server (SIGTERM: it writes its data and ends) and waits until it has ended.
    public func stop() {
        guard let pid else { return }
        kill(pid, SIGTERM)
        let deadline = Date().addingTimeInterval(10)
        while kill(pid, 0) == 0, Date() < deadline { usleep(10_000) }
        self.pid = nil
    }

    private var pidFile: URL { folder.appending(path: "redis.pid") }

    /// Why the server could not start.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String

        init(_ description: String) {
            self.description = description
        }
    }

    /// What `redis-cli` prints for `arguments`, trimmed.
    @discardableResult
    public func cli(_ arguments: [String]) throws -> String {
        let arguments = ["-p", String(port), "--no-auth-warning"] + (password.map { ["-a", $0] } ?? []) + arguments
        let data = try ProcessRunner(path: "/usr/bin/redis-cli").output(arguments).stdout
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
