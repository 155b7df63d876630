import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A real HTTP/1.1 server on 127.0.0.1 for tests, with routes that misbehave on purpose.
///
/// Every connection is served on its own thread and closed after one response. Requests are logged, so a
/// test can check what reached the server.
public final class TestHTTPServer: Sendable {
    /// What the server does with a request for a path.
    public enum Route: Sendable {
        /// Answers with `status`, `body` and extra `headers`.
        case respond(status: Int = 200, contentType: String = "text/html; charset=utf-8", headers: [String: String] = [:], body: String)
        /// Accepts the connection, reads the request and never answers.
        case hang
        /// Answers the n-th request for the path with the n-th route; the last one repeats.
        case sequence([Route])
        /// Waits, then answers as `route`.
        indirect case delayed(Duration, Route)
        /// Answers with whatever the closure returns for the request number (from 1): status and body.
        case dynamic(@Sendable (Int) -> (status: Int, body: String))
        /// Answers with whatever the closure makes of the request.
        case handle(@Sendable (Request) -> Response)
        /// Sends the headers for `body` and its first half, then nothing more.
        case stallMidBody(body: String)
        /// Sends the headers for `body` and its first half, then resets the connection.
        case resetMidBody(body: String)
        /// Sends `head`, then `chunk` again and again, without a length, until the client goes away.
        case endless(contentType: String = "text/html; charset=utf-8", head: String, chunk: String)
        /// Sends `parts` one after another, `pause` apart, without a length, then closes: a document that streams.
        case inParts([String], pause: Duration)
        /// Sends `body`, bytes as they are, with extra `headers` (such as a `Content-Encoding`).
        case bytes(contentType: String = "text/html; charset=utf-8", headers: [String: String], body: [UInt8])
    }

    /// A request the server received.
    public struct Request: Sendable {
        public var method: String
        /// The request target: a path, or a whole URL for a request sent to a proxy.
        public var path: String
        /// Header names in lower case.
        public var headers: [String: String]
        public var body: String
        /// When the server had read it.
        public var received = ContinuousClock.now

        /// The value of the cookie `name` the request carries.
        public func cookie(_ name: String) -> String? {
            (headers["cookie"] ?? "").split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
                .first { $0.hasPrefix(name + "=") }.map { String($0.dropFirst(name.count + 1)) }
        }
    }

    /// What a `.handle` route answers.
    public struct Response: Sendable {
        public var status: Int
        public var headers: [String: String]
        public var body: String

        public init(status: Int = 200, headers: [String: String] = [:], body: String) {
            self.status = status
            self.headers = headers
            self.body = body
        }
    }

    /// The server's port on 127.0.0.1.
    public let port: Int
    private let core: Core

    /// Starts a server with `routes`, keyed by path (`/data.json`); the route `*` answers every other request
    /// (such as a proxy's, whose target is a whole URL); without it, other paths get 404.
    /// - Throws: `POSIXError` when no socket can be bound.
    public init(routes: [String: Route]) throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard listener >= 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(listener, 64) == 0 else {
            close(listener)
            throw POSIXError(.init(rawValue: errno) ?? .EIO)
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        port = Int(UInt16(bigEndian: address.sin_port))
        let core = Core(listener: listener, routes: routes)
        self.core = core
        Thread { core.acceptLoop() }.start()
    }

    deinit { core.stop() }

    /// A URL on 127.0.0.1 where nothing listens: the port of a server that was started and stopped.
    public static func refusingURL() throws -> URL {
        let server = try TestHTTPServer(routes: [:])
        server.stop()
        return server.url("/")
    }

    /// The URL of `path` on this server.
    public func url(_ path: String) -> URL {
        URL(string: "http://127.0.0.1:\(port)\(path)")!
    }

    /// Every request received so far, in order.
    public var requests: [Request] { core.requests }

    /// The requests received for `path`.
    public func requests(for path: String) -> [Request] { requests.filter { $0.path == path } }

    /// The most requests the server was answering at the same moment.
    public var mostConcurrentRequests: Int { core.mostConcurrent }

    /// Stops accepting, and closes every connection, hanging ones included. Also done when the server is
    /// released.
    public func stop() { core.stop() }
}

/// The listening socket, the routes and the request log, shared by the server's threads.
private final class Core: Sendable {
    private let listener: Int32
    private let state: Mutex<State>

    private struct State {
        var routes: [String: TestHTTPServer.Route]
        var requests: [TestHTTPServer.Request] = []
        var openConnections: Set<Int32> = []
        var answering = 0
        var mostConcurrent = 0
        var stopped = false
    }

    init(listener: Int32, routes: [String: TestHTTPServer.Route]) {
        self.listener = listener
        state = Mutex(State(routes: routes))
    }

    var requests: [TestHTTPServer.Request] { state.withLock { $0.requests } }

    var mostConcurrent: Int { state.withLock { $0.mostConcurrent } }

    func stop() {
        let connections = state.withLock { state -> Set<Int32> in
            guard !state.stopped else { return [] }
            state.stopped = true
            shutdown(listener, Int32(SHUT_RDWR))
            return state.openConnections
        }
        for connection in connections { shutdown(connection, Int32(SHUT_RDWR)) }
    }

    func acceptLoop() {
        while true {
            let connection = accept(listener, nil, nil)
            if connection < 0 {
                if errno == EINTR { continue }
                break
            }
            let accepted = state.withLock { state in
                guard !state.stopped else { return false }
                state.openConnections.insert(connection)
                return true
            }
            guard accepted else {
                close(connection)
                break
            }
            Thread { self.serve(connection) }.start()
        }
        close(listener)
    }

    private func serve(_ connection: Int32) {
        defer {
            state.withLock { _ = $0.openConnections.remove(connection) }
            close(connection)
        }
        guard let request = readRequest(connection) else { return }
        defer { state.withLock { $0.answering -= 1 } }
        let resolved = state.withLock { state -> TestHTTPServer.Route? in
            state.requests.append(request)
            state.answering += 1
            state.mostConcurrent = max(state.mostConcurrent, state.answering)
            let count = state.requests.count { $0.path == request.path }
            return (state.routes[request.path] ?? state.routes["*"]).map { Self.resolve($0, requestNumber: count) }
        }
        var route = resolved ?? .respond(status: 404, contentType: "text/plain", body: "not found")
        if case .delayed(let delay, let next) = route {
            Self.sleep(delay)
            route = next
        }
        if case .handle(let answer) = route {
            let response = answer(request)
            route = .respond(status: response.status, headers: response.headers, body: response.body)
        }
        if case .dynamic(let make) = route {
            let count = state.withLock { state in state.requests.count { $0.path == request.path } }
            let (status, body) = make(count)
            route = .respond(status: status, body: body)
        }
        switch route {
        case .respond(let status, let contentType, let headers, let body):
            let bytes = Array(body.utf8)
            var head = "HTTP/1.1 \(status) \(Self.reason(status))\r\nContent-Type: \(contentType)\r\n"
            head += "Content-Length: \(bytes.count)\r\nConnection: close\r\n"
            if !headers.keys.contains(where: { $0.lowercased() == "cache-control" }) { head += "Cache-Control: no-store\r\n" }
            for (name, value) in headers { head += "\(name): \(value)\r\n" }
            writeAll(connection, Array((head + "\r\n").utf8) + bytes)
        case .hang:
            waitForClose(connection)
        case .stallMidBody(let body), .resetMidBody(let body):
            let bytes = Array(body.utf8)
            let head = "HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: \(bytes.count)\r\n\r\n"
            writeAll(connection, Array(head.utf8) + bytes.prefix(bytes.count / 2))
            if case .resetMidBody = route {
                var linger = linger(l_onoff: 1, l_linger: 0)
                setsockopt(connection, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<linger>.size))
            } else {
                waitForClose(connection)
            }
        case .endless(let contentType, let head, let chunk):
            writeAll(connection, Array("HTTP/1.1 200 OK\r\nContent-Type: \(contentType)\r\nConnection: close\r\n\r\n\(head)".utf8))
            let bytes = Array(chunk.utf8)
            while send(connection, bytes, bytes.count, Int32(MSG_NOSIGNAL)) > 0 {}
        case .inParts(let parts, let pause):
            writeAll(connection, Array("HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\nConnection: close\r\n\r\n".utf8))
            for (index, part) in parts.enumerated() {
                if index > 0 { Self.sleep(pause) }
                writeAll(connection, Array(part.utf8))
            }
        case .bytes(let contentType, let headers, let body):
            var head = "HTTP/1.1 200 OK\r\nContent-Type: \(contentType)\r\nContent-Length: \(body.count)\r\nConnection: close\r\n"
            for (name, value) in headers { head += "\(name): \(value)\r\n" }
            writeAll(connection, Array((head + "\r\n").utf8) + body)
        case .sequence, .delayed, .dynamic, .handle:
            preconditionFailure("resolved before serving")
        }
    }

    /// Blocks the serving thread for `duration`.
    private static func sleep(_ duration: Duration) {
        Thread.sleep(forTimeInterval: Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18)
    }

    /// Reads until the client closes the connection or the server stops.
    private func waitForClose(_ connection: Int32) {
        var byte: UInt8 = 0
        while recv(connection, &byte, 1, 0) > 0 {}
    }

    private static func resolve(_ route: TestHTTPServer.Route, requestNumber: Int) -> TestHTTPServer.Route {
        guard case .sequence(let routes) = route, let last = routes.last else { return route }
        return resolve(requestNumber <= routes.count ? routes[requestNumber - 1] : last, requestNumber: requestNumber)
    }

    private func readRequest(_ connection: Int32) -> TestHTTPServer.Request? {
        var data: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        let end: [UInt8] = Array("\r\n\r\n".utf8)
        while data.firstRange(of: end) == nil {
            let count = recv(connection, &buffer, buffer.count, 0)
            guard count > 0, data.count < 65_536 else { return nil }
            data.append(contentsOf: buffer[0..<count])
        }
        let headEnd = data.firstRange(of: end)!.upperBound
        let lines = String(decoding: data[..<headEnd], as: UTF8.self).components(separatedBy: "\r\n")
        let parts = lines.first?.split(separator: " ") ?? []
        guard parts.count >= 2 else { return nil }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        var body = Array(data[headEnd...])
        let length = Int(headers["content-length"] ?? "") ?? 0
        while body.count < length {
            let count = recv(connection, &buffer, buffer.count, 0)
            guard count > 0 else { break }
            body.append(contentsOf: buffer[0..<count])
        }
        return TestHTTPServer.Request(
            method: String(parts[0]), path: String(parts[1]), headers: headers,
            body: String(decoding: body, as: UTF8.self))
    }

    private func writeAll(_ connection: Int32, _ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard written > 0 else { return }
            offset += written
        }
    }

    private static func reason(_ status: Int) -> String {
        [
            200: "OK", 301: "Moved Permanently", 302: "Found", 401: "Unauthorized", 403: "Forbidden", 404: "Not Found",
            410: "Gone", 429: "Too Many Requests", 500: "Internal Server Error", 502: "Bad Gateway",
            503: "Service Unavailable"
        ][status] ?? "Status"
    }
}
