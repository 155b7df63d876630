import Foundation
import Testing
import TestSupport

/// Every place webparse creates, locks or writes a file (`-o`, `--state`, `--save-cookies`, `--session`, a
/// job's `screenshot`, `snapshot --png/--html`, and its own files under TMPDIR), walked with a read-only
/// folder, a missing folder, a file where a folder should be, and a full disk: each says what it tried, on which
/// path, and the system's reason in words; no Foundation or WebKit wording reaches the user.
@Suite(.serialized) struct FilePlaceTests: CommandLineTest {
    /// One way a place can be wrong: its name, the path given to webparse for it, and the words its message must
    /// hold (beside the path).
    struct Fault: CustomStringConvertible {
        var name: String
        var path: String
        var reason: String
        var description: String { name }
    }

    /// The places: the arguments (with PATH where the path goes) and whether the config's screenshot takes it.
    static let places: [(name: String, arguments: [String])] = [
        ("-o", ["run", "-o", "PATH", "CONFIG"]),
        ("--state", ["run", "--state", "PATH", "CONFIG"]),
        ("--save-cookies", ["run", "--save-cookies", "PATH", "CONFIG"]),
        ("--session", ["run", "--session", "PATH", "CONFIG"]),
        ("screenshot", ["run", "SHOT"]),
        ("snapshot --png", ["snapshot", "--png", "PATH", "URL"]),
        ("snapshot --html", ["snapshot", "--html", "PATH", "URL"])
    ]

    /// Words of Foundation's, GLib's or WebKit's own error texts, which must not reach the user unexplained.
    static let rawWords = [
        "Error Domain", "NSCocoaErrorDomain", "UserInfo", "The operation could not be completed",
        "Unspecified error", "libsoup", "(null)"
    ]

    /// Runs webparse in `directory` as a user for whom its read-only folders cannot be written (as nobody, when
    /// the tests run as root, who may write anywhere).
    func runAsUser(_ arguments: [String], in directory: URL, environment: [String: String?] = [:]) async throws -> ProcessRunner.Outcome {
        var command = [webparse.executable.path] + arguments
        if getuid() == 0 {
            let copy = directory.appending(path: "webparse").path
            if !FileManager.default.fileExists(atPath: copy) { try FileManager.default.copyItem(atPath: webparse.executable.path, toPath: copy) }
            _ = try await ProcessRunner(path: "/usr/bin/chown").run(["-R", "65534:65534", directory.path])
            command = ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", copy] + arguments
        }
        return try await ProcessRunner(path: command[0]).run(
            Array(command.dropFirst()),
            environment: headless.merging(["HOME": directory.path]) { $1 }.merging(environment) { $1 })
    }

    @Test func everyPlaceSaysWhatItTriedWhereAndWhy() async throws {
        let server = try TestHTTPServer(routes: ["/": .respond(body: "<title>t</title><p>x</p>")])
        let directory = try folder()
        chmod(directory.path, 0o755)
        let config = try write(#"{"url": "\#(server.url("/"))", "script": "document.title"}"#, "c.json", in: directory)
        try FileManager.default.createDirectory(at: directory.appending(path: "readonly"), withIntermediateDirectories: true)
        chmod(directory.appending(path: "readonly").path, 0o555)
        try write("x", "file", in: directory)
        // /dev/full takes no byte: a full disk for what is written in place. A session folder is a folder: on a
        // tiny file system of its own, where the machine lets the tests mount one.
        let session = directory.appending(path: "fullsession")
        try FileManager.default.createDirectory(at: session, withIntermediateDirectories: true)
        let mounted =
            try await ProcessRunner(path: "/usr/bin/mount").run(["-t", "tmpfs", "-o", "size=64k,mode=0700,uid=65534", "tmpfs", session.path]).status == 0
        defer { if mounted { _ = umount(session.path) } }
        let faults = [
            Fault(name: "read-only folder", path: directory.appending(path: "readonly/out").path, reason: "Permission denied"),
            Fault(name: "missing folder", path: directory.appending(path: "missing/deeper/out").path, reason: "no folder"),
            Fault(name: "file as folder", path: directory.appending(path: "file/out").path, reason: "is a file, not a folder"),
            Fault(name: "full disk", path: "/dev/full", reason: "No space left on device")
        ]
        for place in Self.places {
            for fault in faults {
                var path = fault.path
                var reason = fault.reason
                switch (place.name, fault.name) {
                case ("--session", "missing folder"):
                    continue  // created, as `mkdir -p` would
                case ("--session", "full disk"):
                    guard mounted else { continue }
                    path = session.path
                case ("--state", "full disk"):
                    reason = "cannot lock /dev/full.lock: Permission denied"  // its lock goes beside it, in /dev
                case ("screenshot", "missing folder"):
                    reason = "no such folder for the screenshot"
                default: break
                }
                let shot = try write(#"{"url": "\#(server.url("/"))", "script": "1", "screenshot": "\#(path)"}"#, "shot.json", in: directory)
                let arguments = place.arguments.map { ["PATH": path, "CONFIG": config, "SHOT": shot, "URL": server.url("/").absoluteString][$0] ?? $0 }
                let outcome = try await runAsUser(arguments, in: directory)
                let what = "\(place.name), \(fault): \(outcome.stderr)"
                #expect(outcome.status == 1 || outcome.status == 2, "\(what)")
                #expect(outcome.stderr.contains(reason), "\(what)")
                #expect(outcome.stderr.contains(fault.name == "full disk" && place.name == "--session" ? session.path : "/"), "\(what)")
                #expect(!Self.rawWords.contains { outcome.stderr.contains($0) }, "\(what)")
            }
        }
    }

    /// webparse's own files under TMPDIR (the display's cookie, the content filter it compiles): a read-only,
    /// missing or file TMPDIR is named with the system's reason, exit 3.
    @Test func aTemporaryFolderThatCannotBeUsedIsNamed() async throws {
        let directory = try folder()
        chmod(directory.path, 0o755)
        try FileManager.default.createDirectory(at: directory.appending(path: "readonly"), withIntermediateDirectories: true)
        chmod(directory.appending(path: "readonly").path, 0o555)
        try write("x", "file", in: directory)
        let config = try write(#"{"url": "http://127.0.0.1:9/", "script": "1", "block": ["image"]}"#, "c.json", in: directory)
        for (temporary, reason) in [("readonly", "Permission denied"), ("file", "Not a directory")] {
            let path = directory.appending(path: temporary).path
            let outcome = try await runAsUser(["run", config], in: directory, environment: ["TMPDIR": path])
            #expect(outcome.status == 3, "\(temporary): \(outcome.stderr)")
            #expect(outcome.stderr.contains(path + " (TMPDIR): " + reason), "\(temporary): \(outcome.stderr)")
            #expect(!Self.rawWords.contains { outcome.stderr.contains($0) }, "\(temporary): \(outcome.stderr)")
        }
    }
}
