import Foundation
import Glibc
import TestSupport
import Testing

/// A real web application from PyPI (`Tests/Fixtures/real_apps/requirements.txt`, pinned, installed into
/// `.build/real-apps` by `Scripts/install-packages.sh`), started on a free port of 127.0.0.1 for a test and stopped
/// by `stop()`. Nothing of the application is changed: the fixtures in `Tests/Fixtures/real_apps` are its settings,
/// its data, or a small app written on its framework, as a user's project would have.
final class RealApplication: @unchecked Sendable {
    /// Why an application could not be used: which one, and why.
    struct Unavailable: Error, CustomStringConvertible {
        let description: String
    }

    /// The application's name, as messages say it ("Datasette 0.65.5").
    let name: String
    let port: Int
    /// Its address: `http://127.0.0.1:PORT`.
    var base: String { "http://127.0.0.1:\(port)" }
    private let process = Process()
    private let log: URL

    /// The package's folder.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    /// The folder of the applications' fixtures.
    static let fixtures = root.appending(path: "Tests/Fixtures/real_apps")
    /// The virtual environment the applications are installed in.
    static let environment = root.appending(path: ".build/real-apps")

    /// Starts `name` by running `program` (a file of the virtual environment's `bin`) with the arguments `arguments`
    /// makes of the port, and waits (60 s at most) until it accepts connections.
    /// - Throws: `Unavailable` naming the application when it is not installed, ends, or never listens.
    init(_ name: String, program: String, arguments: (Int) -> [String]) throws {
        self.name = name
        let executable = Self.environment.appending(path: "bin/\(program)")
        guard FileManager.default.isExecutableFile(atPath: executable.path) else {
            throw Unavailable(description: "\(name) is not installed: \(executable.path) is missing (Scripts/install-packages.sh installs it)")
        }
        port = try LocalPort.free()
        log = FileManager.default.temporaryDirectory.appending(path: "webparse-app-\(UUID().uuidString).log")
        FileManager.default.createFile(atPath: log.path, contents: nil)
        let output = try FileHandle(forWritingTo: log)
        process.executableURL = executable
        process.arguments = arguments(port)
        process.currentDirectoryURL = Self.fixtures
        process.standardOutput = output
        process.standardError = output
        process.standardInput = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            throw Unavailable(description: "\(name) cannot start: \(error)")
        }
        let deadline = Date().addingTimeInterval(60)
        while !Self.accepts(port) {
            guard process.isRunning else {
                throw Unavailable(description: "\(name) ended as it started (status \(process.terminationStatus)): \(logTail)")
            }
            guard Date() < deadline else {
                stop()
                throw Unavailable(description: "\(name) did not listen on port \(port) within 60 s: \(logTail)")
            }
            usleep(100_000)
        }
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(at: log)
    }

    /// Stops the application: SIGKILL, which no application can miss (the tests' process blocks SIGTERM, and an
    /// application started from it inherits that).
    func stop() {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// The end of what the application printed.
    var logTail: String {
        let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        return String(text.suffix(2000))
    }

    /// What the application holds, read from itself by `truth.py` (its JSON API, its database), decoded as JSON.
    /// - Throws: when truth.py fails or prints no JSON.
    static func truth(_ arguments: [String]) throws -> Any {
        let (stdout, status) = try ProcessRunner(path: "/usr/bin/python3").output([fixtures.appending(path: "truth.py").path] + arguments)
        guard status == 0 else { throw Unavailable(description: "truth.py \(arguments) failed with status \(status)") }
        return try JSONSerialization.jsonObject(with: stdout, options: .fragmentsAllowed)
    }

    /// Whether something accepts connections on `port` of 127.0.0.1.
    private static func accepts(_ port: Int) -> Bool {
        let client = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard client >= 0 else { return false }
        defer { close(client) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(client, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        } == 0
    }
}
