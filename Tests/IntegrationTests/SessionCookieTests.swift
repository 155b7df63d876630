import Foundation
import TestSupport
import Testing

/// Logins that last: session cookies kept by a session folder, cookie jars saved without losing what they
/// were given, and the files that hold them private.
@Suite(.serialized) struct SessionCookieTests: CommandLineTest {
    /// A site that logs in the way Flask, PHP and Express do by default: the login sets a cookie without
    /// Expires or Max-Age (a session cookie), behind a form with a CSRF token.
    func loginSite() throws -> TestHTTPServer {
        try TestHTTPServer(routes: [
            "/login": .handle { request in
                guard request.method == "POST" else {
                    return .init(
                        headers: ["Set-Cookie": "csrf=t0k3n; Path=/"],
                        body: "<form method=post action=/login><input type=hidden name=csrf value=t0k3n><input name=u value=me></form>")
                }
                guard request.body.contains("csrf=t0k3n"), request.cookie("csrf") == "t0k3n" else { return .init(status: 403, body: "bad token") }
                return .init(status: 303, headers: ["Set-Cookie": "login=me-123; Path=/; HttpOnly", "Location": "/members"], body: "")
            },
            "/members": .handle { request in
                request.cookie("login") == "me-123" ? .init(body: "<p>chapter 12</p>") : .init(body: "<p>please log in</p>")
            }
        ])
    }

    func loginConfig(_ server: TestHTTPServer, in directory: URL) throws -> String {
        try write(
            #"{"url": "\#(server.url("/login"))", "script": "location.pathname === '/members' ? document.body.textContent : (document.forms[0].submit(), null)"}"#,
            "login.json", in: directory)
    }

    func membersConfig(_ server: TestHTTPServer, in directory: URL) throws -> String {
        try write(#"{"url": "\#(server.url("/members"))", "script": "document.body.textContent"}"#, "members.json", in: directory)
    }

    @Test func aSessionFolderKeepsSessionCookiesAcrossRuns() async throws {
        let server = try loginSite()
        let directory = try folder()
        let session = directory.appending(path: "session").path
        let login = try await webparse.run(["run", "--session", session, try loginConfig(server, in: directory)], environment: headless)
        #expect(login.stdoutText == "\"chapter 12\"\n", "\(login.stderr)")
        let later = try await webparse.run(["run", "--session", session, try membersConfig(server, in: directory)], environment: headless)
        #expect(later.status == 0, "\(later.stderr)")
        #expect(later.stdoutText == "\"chapter 12\"\n", "the next run is still logged in")
        #expect(server.requests(for: "/members").last?.cookie("login") == "me-123")
    }

    @Test func savedCookieFilesCarrySessionCookies() async throws {
        let server = try loginSite()
        let directory = try folder()
        let jar = directory.appending(path: "jar.txt").path
        let json = directory.appending(path: "jar.json").path
        _ = try await webparse.run(["run", "--save-cookies", jar, try loginConfig(server, in: directory)], environment: headless)
        let text = try String(contentsOfFile: jar, encoding: .utf8)
        #expect(text.contains("#HttpOnly_127.0.0.1\tFALSE\t/\tFALSE\t0\tlogin\tme-123"), "\(text)")
        _ = try await webparse.run(["run", "--cookies", jar, "--save-cookies", json, try membersConfig(server, in: directory)], environment: headless)
        let saved = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: json))) as? [[String: Any]])
        #expect(saved.contains { $0["name"] as? String == "login" && $0["value"] as? String == "me-123" && $0["expires"] == nil })
        let members = try await webparse.run(["run", "--cookies", json, try membersConfig(server, in: directory)], environment: headless)
        #expect(members.stdoutText == "\"chapter 12\"\n", "\(members.stderr)")
    }

    @Test func savingAJarOverItselfLosesNothing() async throws {
        let server = try TestHTTPServer(routes: [
            "/": .handle { request in
                .init(
                    headers: ["Set-Cookie": "visits=\(Int(request.cookie("visits") ?? "0")! + 1); Path=/; Max-Age=3600"],
                    body: "<p>\(request.cookie("site") ?? "none")</p>")
            }
        ])
        let directory = try folder()
        let far = Int(Date().timeIntervalSince1970) + 86_400 * 365
        let jar = try write(
            """
            # Netscape HTTP Cookie File
            127.0.0.1\tFALSE\t/\tFALSE\t\(far)\tsite\tlocal-value
            127.0.0.1\tFALSE\t/\tFALSE\t\(far)\tvisits\t41
            .example.org\tTRUE\t/\tTRUE\t\(far)\ttracker\tx1.v=2
            #HttpOnly_shop.example.net\tFALSE\t/cart\tFALSE\t0\tbasket\tb-77
            127.0.0.1\tFALSE\t/\tFALSE\t1000\texpired\tgone

            """, "jar.txt", in: directory)
        let config = try write(#"{"url": "\#(server.url("/"))", "script": "document.body.textContent"}"#, "site.json", in: directory)
        let run = try await webparse.run(["run", "--cookies", jar, "--save-cookies", jar, config], environment: headless)
        #expect(run.stdoutText == "\"local-value\"\n", "\(run.stderr)")
        #expect(server.requests.last?.cookie("tracker") == nil, "a cookie goes only to its own domain")
        let saved = try String(contentsOfFile: jar, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(saved.contains(".example.org\tTRUE\t/\tTRUE\t\(far)\ttracker\tx1.v=2"), "\(saved)")
        #expect(saved.contains("#HttpOnly_shop.example.net\tFALSE\t/cart\tFALSE\t0\tbasket\tb-77"), "\(saved)")
        #expect(saved.contains { $0.hasPrefix("127.0.0.1\tFALSE\t/\tFALSE\t") && $0.hasSuffix("\tsite\tlocal-value") })
        #expect(saved.contains { $0.hasSuffix("\tvisits\t42") }, "the value the site set wins")
        #expect(!saved.contains { $0.contains("expired") })
    }

    @Test func filesThatHoldSecretsArePrivateWhateverTheUmask() async throws {
        let server = try loginSite()
        let directory = try folder()
        let session = directory.appending(path: "deeper/session")
        let previous = umask(0o022)
        defer { umask(previous) }
        let login = try await webparse.run(
            [
                "run", "--session", session.path, "--save-cookies", directory.appending(path: "jar.txt").path,
                "--state", directory.appending(path: "login.state").path,
                try loginConfig(server, in: directory)
            ], environment: headless)
        #expect(login.status == 0, "\(login.stderr)")
        #expect(!login.stderr.contains("warning"))
        func mode(_ url: URL) throws -> Int { try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as! Int }
        #expect(try mode(session) == 0o700)
        #expect(try mode(session.deletingLastPathComponent()) == 0o700, "a folder webparse made for the session")
        #expect(try mode(directory.appending(path: "jar.txt")) == 0o600)
        #expect(try mode(directory.appending(path: "login.state")) == 0o600)
        let items = try #require(FileManager.default.enumerator(at: session, includingPropertiesForKeys: nil)?.allObjects as? [URL])
        #expect(items.contains { $0.lastPathComponent == "session-cookies.json" })
        #expect(items.contains { $0.lastPathComponent == "cookies.sqlite" })
        for item in items {
            var isFolder: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: item.path, isDirectory: &isFolder)
            #expect(try mode(item) == (isFolder.boolValue ? 0o700 : 0o600), "\(item.path)")
        }

        // A run in which every job fails saves nothing, and still leaves what WebKit wrote private.
        let failedSession = directory.appending(path: "failed")
        let failed = try await webparse.run(
            [
                "run", "--session", failedSession.path,
                try write(#"{"url": "\#(server.url("/missing"))", "script": "1", "retries": 0}"#, "missing.json", in: directory)
            ],
            environment: headless)
        #expect(failed.status == 1)
        let failedItems = try #require(FileManager.default.enumerator(at: failedSession, includingPropertiesForKeys: nil)?.allObjects as? [URL])
        #expect(!failedItems.isEmpty)
        for item in failedItems {
            var isFolder: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: item.path, isDirectory: &isFolder)
            #expect(try mode(item) == (isFolder.boolValue ? 0o700 : 0o600), "\(item.path)")
        }

        let open = directory.appending(path: "open")
        try FileManager.default.createDirectory(at: open, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o755])
        let warned = try await webparse.run(["run", "--session", open.path, try membersConfig(server, in: directory)], environment: headless)
        #expect(warned.status == 0)
        #expect(warned.stderr.contains("webparse: warning: \(open.path) can be read by other users (mode 755)"), "\(warned.stderr)")
    }
}
