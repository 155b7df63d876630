import Foundation
import TestSupport
import Testing

/// A login kept as Playwright keeps it (`storage_state`: cookies and each origin's localStorage), read by
/// `--cookies` and a config's `cookies`, written by `--save-storage` and by `--save-cookies` into such a file.
@Suite(.serialized) struct StorageStateCommandTests: CommandLineTest {
    /// An app that is logged in when its token is in localStorage (as single-page apps keep it) and its session
    /// cookie comes with the request; it stores what it saw, and a preference of its own.
    func app() throws -> TestHTTPServer {
        try TestHTTPServer(routes: [
            "/app": .handle { request in
                let cookie = request.headers["cookie"] ?? ""
                return TestHTTPServer.Response(
                    body: """
                        <p id=out></p><script>
                        const token = localStorage.getItem("token");
                        out.textContent = token === "t0k3n" && \(cookie.contains("sid=abc123") ? "true" : "false") ? "welcome " + localStorage.getItem("theme") : "please log in";
                        localStorage.setItem("theme", "dark");
                        document.cookie = "seen=1; path=/";
                        </script>
                        """)
            }
        ])
    }

    func state(_ server: TestHTTPServer) -> String {
        """
        {"cookies": [{"name": "sid", "value": "abc123", "domain": "127.0.0.1", "path": "/", "expires": -1, "httpOnly": true, "secure": false, "sameSite": "Lax"}],
         "origins": [{"origin": "http://127.0.0.1:\(server.port)", "localStorage": [{"name": "token", "value": "t0k3n"}, {"name": "theme", "value": "light"}]}]}
        """
    }

    @Test func aPlaywrightLoginWorksAndIsSavedBackInItsFormat() async throws {
        let server = try app()
        let directory = try folder()
        let login = try write(state(server), "state.json", in: directory)
        let url = server.url("/app").absoluteString
        let without = try await webparse.run(["eval", url, "out.textContent"], environment: headless)
        #expect(without.stdoutText == "\"please log in\"\n", "\(without.stderr)")

        let saved = directory.appending(path: "saved.json").path
        let with = try await webparse.run(["eval", url, "out.textContent", "--cookies", login, "--save-storage", saved], environment: headless)
        #expect(with.stdoutText == "\"welcome light\"\n", "\(with.stderr)")
        let written = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: saved))) as? [String: Any])
        let cookies = try #require(written["cookies"] as? [[String: Any]])
        #expect(Set(cookies.compactMap { $0["name"] as? String }) == ["sid", "seen"])
        #expect(cookies.first { $0["name"] as? String == "sid" }?["expires"] as? Int == -1)
        let origins = try #require(written["origins"] as? [[String: Any]])
        #expect(origins.count == 1 && origins[0]["origin"] as? String == "http://127.0.0.1:\(server.port)")
        let items = (origins[0]["localStorage"] as? [[String: String]] ?? []).reduce(into: [String: String]()) { $0[$1["name"]!] = $1["value"] }
        #expect(items == ["token": "t0k3n", "theme": "dark"], "the page's own change is kept")
        let mode = try FileManager.default.attributesOfItem(atPath: saved)[.posixPermissions] as? Int
        #expect(mode == 0o600)

        // The saved file logs in again, through a config's cookies too; --save-cookies into a storage state keeps it one.
        let config = try write(#"{"url": "\#(url)", "script": "out.textContent", "cookies": "saved.json"}"#, "app.json", in: directory)
        let again = try await webparse.run(["run", config, "--save-cookies", saved], environment: headless)
        #expect(again.stdoutText == "\"welcome dark\"\n", "\(again.stderr)")
        let rewritten = try String(contentsOfFile: saved, encoding: .utf8)
        #expect(rewritten.hasPrefix("{") && rewritten.contains("\"origins\"") && rewritten.contains("\"theme\""))

        let broken = try write(#"{"cookies": [], "origins": [{"origin": "ftp://x", "localStorage": []}]}"#, "broken.json", in: directory)
        let refused = try await webparse.run(["eval", url, "1", "--cookies", broken], environment: headless)
        #expect(refused.status == 2 && refused.stderr.contains("--cookies \(broken): line 1: origins:"), "\(refused.stderr)")
    }
}
