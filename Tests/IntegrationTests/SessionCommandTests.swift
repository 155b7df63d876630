import Foundation
import TestSupport
import Testing

/// Sessions from the command line: cookie files in and out, a session folder across runs and its lock, proxy,
/// authentication and TLS from the config.
@Suite(.serialized) struct SessionCommandTests: CommandLineTest {
    /// /members needs the cookie `session=let-me-in`; posting the form at /login sets it for an hour.
    func membersSite(delay: Duration? = nil) throws -> TestHTTPServer {
        let members = TestHTTPServer.Route.handle { request in
            request.cookie("session") == "let-me-in" ? .init(body: "<p>chapter 12</p>") : .init(status: 403, body: "members only")
        }
        return try TestHTTPServer(routes: [
            "/members": delay.map { .delayed($0, members) } ?? members,
            "/login": .handle { request in
                guard request.method == "POST" else { return .init(body: "<form method=post action=/login><input name=u value=me></form>") }
                return .init(status: 303, headers: ["Set-Cookie": "session=let-me-in; Max-Age=3600; Path=/", "Location": "/members"], body: "")
            }
        ])
    }

    func membersConfig(_ server: TestHTTPServer, in directory: URL, extra: String = "") throws -> String {
        try write(#"{"url": "\#(server.url("/members"))", "script": "document.body.textContent", "retries": 0\#(extra)}"#, "members.json", in: directory)
    }

    @Test func aSessionFolderThatCannotBeWrittenCostsNoResultAndSaysWhy() async throws {
        let server = try TestHTTPServer(routes: ["/": .respond(body: "<title>chapter 12</title>")])
        let directory = try folder()
        let config = try write(#"{"url": "\#(server.url("/"))", "script": "document.title", "retries": 0}"#, "c.json", in: directory)
        let session = directory.appending(path: "session")

        // Where the session cookies are kept is taken by a folder: they cannot be read, whoever runs webparse.
        try FileManager.default.createDirectory(at: session.appending(path: "session-cookies.json"), withIntermediateDirectories: true)
        let blocked = try await webparse.run(["run", "--session", session.path, config], environment: headless)
        #expect(blocked.status == 1)
        #expect(
            blocked.stderr.contains("cannot read the session cookies kept in \(session.path)/session-cookies.json: is a directory, not a cookie file"),
            "\(blocked.stderr)")
        #expect(!blocked.stderr.contains("NSCocoaErrorDomain") && !blocked.stderr.contains("load failed"))
        try FileManager.default.removeItem(at: session.appending(path: "session-cookies.json"))

        // A read-only session folder, as its owner sees it (root ignores permissions: the test runs as nobody).
        var command = [webparse.executable.path]
        if getuid() == 0 {
            // A copy nobody can reach, wherever the checkout is.
            let copy = directory.appending(path: "webparse").path
            try FileManager.default.copyItem(atPath: webparse.executable.path, toPath: copy)
            command = [copy]
            chown(directory.path, 65534, 65534)
            chown(config, 65534, 65534)
            _ = try await ProcessRunner(path: "/usr/bin/chown").run(["-R", "65534:65534", session.path])
            command = ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] + command
        }
        chmod(session.path, 0o500)
        defer { chmod(session.path, 0o700) }
        let readOnly = try await ProcessRunner(path: command[0]).run(
            Array(command.dropFirst()) + ["run", "--session", session.path, config],
            environment: headless.merging(["HOME": directory.path]) { $1 })
        #expect(readOnly.status == 1)
        #expect(readOnly.stdoutText == "\"chapter 12\"\n")
        #expect(readOnly.stderr.contains("Permission denied (the folder \(session.path) cannot be written)"), "\(readOnly.stderr)")
    }

    @Test func aCookieFileThatIsNotTextIsRefused() async throws {
        let directory = try folder()
        let cookies = directory.appending(path: "cookies.txt")
        try Data([0x23, 0x20, 0xFF, 0xFE, 0x0A]).write(to: cookies)
        let config = try write(#"{"url": "https://example.com", "script": "1"}"#, "c.json", in: directory)
        let outcome = try await webparse.run(["run", "--cookies", cookies.path, config], environment: headless)
        #expect(outcome.status == 2)
        #expect(outcome.stderr.contains("--cookies \(cookies.path): not UTF-8 text"), "\(outcome.stderr)")
    }

    @Test func aCookieFileOpensTheMembersPageAndSavedCookiesWork() async throws {
        let server = try membersSite()
        let directory = try folder()
        let config = try membersConfig(server, in: directory)
        let without = try await webparse.run(["run", config], environment: headless)
        #expect(without.status == 1)
        #expect(without.stderr.contains("HTTP status 403"))

        let cookies = try write(
            "# Netscape HTTP Cookie File\n127.0.0.1\tFALSE\t/\tFALSE\t0\tsession\tlet-me-in\n.example.org\tTRUE\t/\tFALSE\t0\ttracker\tx1\n",
            "cookies.txt", in: directory)
        let saved = directory.appending(path: "saved.txt").path
        let with = try await webparse.run(["run", "-v", "--cookies", cookies, "--save-cookies", saved, config], environment: headless)
        #expect(with.status == 0, "\(with.stderr)")
        #expect(with.stdoutText == "\"chapter 12\"\n")
        #expect(!with.stderr.contains("let-me-in"), "cookie values never reach stderr")
        #expect(server.requests(for: "/members").last?.cookie("tracker") == nil)
        let attributes = try FileManager.default.attributesOfItem(atPath: saved)
        #expect(attributes[.posixPermissions] as? Int == 0o600)
        let savedText = try String(contentsOfFile: saved, encoding: .utf8)
        #expect(savedText.contains("\tsession\tlet-me-in"))
        #expect(savedText.contains(".example.org\tTRUE\t/\tFALSE\t0\ttracker\tx1"), "a cookie no job used is kept")

        let again = try await webparse.run(["run", "--cookies", saved, config], environment: headless)
        #expect(again.stdoutText == "\"chapter 12\"\n", "the saved cookies open the page again")
    }

    @Test func aLoginThroughAFormLastsInTheSessionFolder() async throws {
        let server = try membersSite()
        let directory = try folder()
        let session = directory.appending(path: "session").path
        let login = try write(
            #"{"url": "\#(server.url("/login"))", "script": "location.pathname === '/members' ? document.body.textContent : (document.forms[0].submit(), null)"}"#,
            "login.json", in: directory)
        let first = try await webparse.run(["run", "--session", session, login], environment: headless)
        #expect(first.stdoutText == "\"chapter 12\"\n", "\(first.stderr)")
        let later = try await webparse.run(["run", try membersConfig(server, in: directory, extra: #", "session": "session""#)], environment: headless)
        #expect(later.status == 0, "\(later.stderr)")
        #expect(later.stdoutText == "\"chapter 12\"\n")
    }

    @Test func twoRunsOnOneSessionFolderTakeTurns() async throws {
        let server = try membersSite(delay: .seconds(12))
        let directory = try folder()
        let session = directory.appending(path: "session").path
        let config = try membersConfig(server, in: directory, extra: #", "timeout": 30"#)
        let holder = try webparse.start(["run", "--session", session, config], environment: headless)
        while server.requests(for: "/members").isEmpty { try await Task.sleep(for: .milliseconds(20)) }
        let start = ContinuousClock.now
        let second = try await webparse.run(["run", "--session", session, config], environment: headless)
        #expect(second.status == 5)
        #expect(second.stderr == "webparse run: another webparse run is using the session folder \(session) (waited 10 s); try again when it has finished\n")
        #expect(ContinuousClock.now - start >= .seconds(10))
        _ = await holder.finish()
        let fast = try membersSite()
        let third = try await webparse.run(["run", "--session", session, try membersConfig(fast, in: directory)], environment: headless)
        #expect(third.status == 1 && third.stderr.contains("HTTP status 403"), "the folder is usable again: \(third.stderr)")
    }

    @Test func proxyAuthenticationAndTLSComeFromTheConfig() async throws {
        let proxy = try TestHTTPServer(routes: ["*": .respond(body: "<p>via proxy</p>")])
        let directory = try folder()
        let proxied = try write(
            #"{"url": "http://comics.invalid/updates", "script": "document.body.textContent", "proxy": {"url": "\#(proxy.url("/"))", "noProxy": ["localhost"]}}"#,
            "proxied.json", in: directory)
        let viaProxy = try await webparse.run(["run", proxied], environment: headless)
        #expect(viaProxy.stdoutText == "\"via proxy\"\n", "\(viaProxy.stderr)")
        #expect(proxy.requests.first?.path == "http://comics.invalid/updates")

        let expected = "Basic " + Data("reader:open sesame".utf8).base64EncodedString()
        let guarded = try TestHTTPServer(routes: [
            "/private": .handle { request in
                request.headers["authorization"] == expected
                    ? .init(body: "<p>inside</p>")
                    : .init(status: 401, headers: ["WWW-Authenticate": "Basic realm=\"comics\""], body: "no")
            }
        ])
        let auth = try write(
            #"{"url": "\#(guarded.url("/private"))", "script": "document.body.textContent", "auth": {"user": "reader", "passwordEnv": "COMICS_PASSWORD"}}"#,
            "auth.json", in: directory)
        let inside = try await webparse.run(["run", "-v", auth], environment: headless.merging(["COMICS_PASSWORD": "open sesame"]) { $1 })
        #expect(inside.stdoutText == "\"inside\"\n", "\(inside.stderr)")
        #expect(!inside.stderr.contains("open sesame"))
        let requestsBefore = guarded.requests.count
        let unset = try await webparse.run(["run", auth], environment: headless.merging(["COMICS_PASSWORD": nil]) { $1 })
        #expect(unset.status == 2)
        #expect(unset.stderr.contains("auth.passwordEnv: the environment variable COMICS_PASSWORD is not set"))
        #expect(guarded.requests.count == requestsBefore, "no page loads without the password")
        let evalInside = try await webparse.run(
            ["eval", guarded.url("/private").absoluteString, "document.body.textContent", "--user", "reader"],
            environment: headless.merging(["WEBPARSE_PASSWORD": "open sesame"]) { $1 })
        #expect(evalInside.stdoutText == "\"inside\"\n")

        let secure = try TLSTestServer(body: "<p>secure</p>")
        let tls = try write(#"{"url": "\#(secure.url())", "script": "document.body.textContent", "ignoreTLSErrors": true}"#, "tls.json", in: directory)
        let trusted = try await webparse.run(["run", tls], environment: headless)
        #expect(trusted.stdoutText == "\"secure\"\n", "\(trusted.stderr)")
        let refused = try await webparse.run(["eval", secure.url().absoluteString, "1"], environment: headless)
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("TLS failed"))
    }
}
