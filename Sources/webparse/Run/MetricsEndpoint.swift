import FoundationEssentials
import Glibc
import WebParser

/// `webparse work --metrics HOST:PORT`: a small HTTP server, on a thread of its own, that answers `GET /metrics` with
/// Prometheus' text format and `GET /healthz` with 200 while the worker is healthy, 503 otherwise; one request a
/// connection, as Prometheus and Kubernetes' probes send them.
final class MetricsEndpoint: Sendable {
    /// What the endpoint serves: the metrics' text, and whether the worker is healthy.
    struct Content: Sendable {
        let metrics: @Sendable () -> String
        let healthy: @Sendable () -> Bool
    }

    private let listener: Int32

    /// Listens on `address` (`HOST:PORT`, or `:PORT` for every interface) and serves `content`.
    /// - Throws: `CommandFailure` (usage) naming the address when it is not `HOST:PORT`, or cannot be listened on (in
    ///   use, a host that is not this machine's).
    init(address: String, content: Content) throws(CommandFailure) {
        guard let colon = address.lastIndex(of: ":"), let port = UInt16(address[address.index(after: colon)...]) else {
            throw CommandFailure.usage("--metrics: expected HOST:PORT (or :PORT for every interface), got '\(address)'")
        }
        var host = address[..<colon]
        if host.hasPrefix("[") && host.hasSuffix("]") { host = host.dropFirst().dropLast() }
        var hints = addrinfo()
        hints.ai_flags = AI_PASSIVE
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var found: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host.isEmpty ? nil : String(host), String(port), &hints, &found) == 0, let first = found else {
            throw CommandFailure.usage("--metrics: \(address): no such host")
        }
        defer { freeaddrinfo(first) }
        var problem = "no address to listen on"
        var bound: Int32 = -1
        var info: UnsafeMutablePointer<addrinfo>? = first
        while let candidate = info, bound < 0 {
            info = candidate.pointee.ai_next
            let socket = Glibc.socket(candidate.pointee.ai_family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard socket >= 0 else { continue }
            var on: Int32 = 1
            setsockopt(socket, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size))
            if bind(socket, candidate.pointee.ai_addr, candidate.pointee.ai_addrlen) == 0, listen(socket, 16) == 0 {
                bound = socket
            } else {
                problem = String(cString: strerror(errno))
                close(socket)
            }
        }
        guard bound >= 0 else { throw CommandFailure.usage("--metrics: cannot listen on \(address): \(problem)") }
        listener = bound
        let listener = bound
        SystemThread.start(name: "webparse-metrics") { Self.serve(listener, content) }
    }

    /// Stops listening; a request being answered ends on its own.
    func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
    }

    /// Answers each connection to `listener` until it is shut down.
    private static func serve(_ listener: Int32, _ content: Content) {
        defer { close(listener) }
        while true {
            let connection = accept(listener, nil, nil)
            if connection < 0 {
                if errno == EINTR || errno == ECONNABORTED { continue }
                return
            }
            _ = fcntl(connection, F_SETFD, FD_CLOEXEC)
            answer(connection, content)
            close(connection)
        }
    }

    /// Reads one request's head from `connection` (2 s at most) and answers it.
    private static func answer(_ connection: Int32, _ content: Content) {
        var timeout = timeval(tv_sec: 2, tv_usec: 0)
        setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(connection, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var head: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 2048)
        while head.count < 8192, !head.ends(with: Array("\r\n\r\n".utf8)) {
            let count = recv(connection, &buffer, buffer.count, 0)
            guard count > 0 else { break }
            head += buffer[..<count]
        }
        let line = String(decoding: head.prefix { $0 != 13 && $0 != 10 }, as: UTF8.self).split(separator: " ")
        let (status, type, body): (Int, String, String)
        switch (line.first, line.dropFirst().first?.split(separator: "?").first) {
        case ("GET", "/metrics"):
            (status, type, body) = (200, "text/plain; version=0.0.4; charset=utf-8", content.metrics())
        case ("GET", "/healthz"):
            (status, type, body) = content.healthy() ? (200, "text/plain", "ok\n") : (503, "text/plain", "unhealthy\n")
        case ("GET", _):
            (status, type, body) = (404, "text/plain", "webparse serves /metrics and /healthz\n")
        default:
            (status, type, body) = (405, "text/plain", "GET only\n")
        }
        let reason = [200: "OK", 404: "Not Found", 405: "Method Not Allowed", 503: "Service Unavailable"][status] ?? ""
        let bytes = Array(body.utf8)
        let response =
            Array("HTTP/1.1 \(status) \(reason)\r\nContent-Type: \(type)\r\nContent-Length: \(bytes.count)\r\nConnection: close\r\n\r\n".utf8) + bytes
        var sent = 0
        while sent < response.count {
            let count = response[sent...].withUnsafeBytes { send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard count > 0 else { return }
            sent += count
        }
    }
}

extension Array where Element == UInt8 {
    fileprivate func ends(with suffix: [UInt8]) -> Bool {
        count >= suffix.count && Array(self[(count - suffix.count)...]) == suffix
    }
}
