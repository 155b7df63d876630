import Foundation
import Testing
@testable import WebParser

/// A session folder's one owner: its files, its lock, the session cookies it keeps, read by the one cookie
/// file reader.
@Suite struct SessionFolderTests {
    func folder() -> URL {
        FileManager.default.temporaryDirectory.appending(path: "webparse-folder-\(UUID().uuidString)/session")
    }

    @Test func aFolderIsMadePrivateAndLockedForOneRunAtATime() async throws {
        let url = folder()
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        let session = SessionFolder(url)
        let first = try await session.open(wait: .zero)
        #expect(first.warning == nil)
        let mode = try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? Int
        #expect(mode == 0o700)
        do {
            _ = try await session.open(wait: .milliseconds(100))
            Issue.record("a second run got the folder")
        } catch {
            guard case .busy = error else { Issue.record("not busy: \(error)"); return }
            #expect(error.description.contains("another webparse run is using the session folder \(url.path)"))
        }
        _ = first.lock
    }

    @Test func sessionCookiesAreKeptAndReadBackOrSaidWhyNot() throws {
        let url = folder()
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        let session = SessionFolder(url)
        #expect(try session.keptSessionCookies().isEmpty)
        let login = WebParserCookie(name: "sid", value: "s3cret", domain: "example.test")
        try session.keep(sessionCookies: [login])
        #expect(try session.keptSessionCookies() == [login])
        try Data("[{\"name\": 1}]".utf8).write(to: session.sessionCookies)
        #expect(throws: WebParserError.self) { try session.keptSessionCookies() }
        do {
            _ = try session.keptSessionCookies()
        } catch {
            #expect(error.description.contains("session-cookies.json: line 1: a cookie needs a string name, value and domain; delete the file"))
            #expect(!error.description.contains("s3cret"))
        }
        session.forgetSessionCookies()
        #expect(try session.keptSessionCookies().isEmpty)
    }

    @Test func theOneReaderSaysWhyAFileIsNoCookieFile() throws {
        let url = folder()
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        let binary = url.appending(path: "jar.txt")
        try Data([0xff, 0xfe, 0x00]).write(to: binary)
        #expect(throws: CookieFile.ReadFailure(reason: "not UTF-8 text")) { try CookieFile.read(contentsOf: binary.path) }
        #expect(throws: CookieFile.ReadFailure(reason: "no such file")) { try CookieFile.read(contentsOf: url.appending(path: "none").path) }
        #expect(throws: CookieFile.ReadFailure(reason: "is a directory, not a cookie file")) { try CookieFile.read(contentsOf: url.path) }
    }
}
