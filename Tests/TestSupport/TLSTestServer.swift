import Foundation

/// An HTTPS server on 127.0.0.1 with a self-signed certificate: Python's `ssl` (Debian's python3) and a
/// certificate made by the `openssl` command for this server alone.
public final class TLSTestServer {
    /// The server's port.
    public let port: Int
    private let process: Process
    private let directory: URL
    /// The server's standard input: it exits when this closes, so a test process that dies leaves no server.
    private let lifeline = Pipe()

    /// Starts a server answering every path with `body`, in which `{x-token}` is replaced by the request's
    /// X-Token header (`none` without one).
    /// - Throws: when the certificate cannot be made or the server does not start.
    public init(body: String) throws {
        directory = FileManager.default.temporaryDirectory.appending(path: "webparse-tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let openssl = Process()
        openssl.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        openssl.arguments = [
            "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=127.0.0.1",
            "-keyout", directory.appending(path: "key.pem").path, "-out", directory.appending(path: "cert.pem").path
        ]
        openssl.standardOutput = FileHandle.nullDevice
        openssl.standardError = FileHandle.nullDevice
        try openssl.run()
        openssl.waitUntilExit()
        try body.write(to: directory.appending(path: "index.html"), atomically: true, encoding: .utf8)
        let program = """
            import http.server, ssl, sys, os, threading
            os.chdir(sys.argv[1])
            threading.Thread(target=lambda: (sys.stdin.read(), os._exit(0)), daemon=True).start()
            class Handler(http.server.BaseHTTPRequestHandler):
                def log_message(self, *a): pass
                def do_GET(self):
                    body = open("index.html", "rb").read().replace(b"{x-token}", (self.headers.get("X-Token") or "none").encode())
                    self.send_response(200); self.send_header("Content-Type", "text/html"); self.send_header("Content-Length", str(len(body))); self.end_headers(); self.wfile.write(body)
            server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
            context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER); context.load_cert_chain("cert.pem", "key.pem")
            server.socket = context.wrap_socket(server.socket, server_side=True)
            print(server.server_address[1], flush=True)
            server.serve_forever()
            """
        let server = Process()
        server.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        server.arguments = ["-c", program, directory.path]
        let output = Pipe()
        server.standardOutput = output
        server.standardInput = lifeline
        server.standardError = FileHandle.nullDevice
        try server.run()
        process = server
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            guard !chunk.isEmpty else { break }
            line.append(chunk)
        }
        guard let port = Int(String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) else {
            server.terminate()
            throw CocoaError(.fileReadCorruptFile)
        }
        self.port = port
    }

    deinit {
        // SIGKILL: a child spawned from a task's thread may start with SIGTERM blocked.
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        try? FileManager.default.removeItem(at: directory)
    }

    /// The server's URL for `path`.
    public func url(_ path: String = "/") -> URL { URL(string: "https://127.0.0.1:\(port)\(path)")! }
}
