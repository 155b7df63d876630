import Foundation
import Testing
@testable import WebParser

/// Playwright's storage_state files, read and written.
@Suite struct StorageStateTests {
    /// A file as Playwright's `context.storage_state(path=…)` wrote it (Playwright 1.5x, Chromium).
    static let written = """
        {
          "cookies": [
            {"name": "sid", "value": "abc123", "domain": "127.0.0.1", "path": "/", "expires": -1, "httpOnly": true, "secure": false, "sameSite": "Lax"},
            {"name": "prefs", "value": "dark", "domain": ".example.com", "path": "/app", "expires": 1893456000.5, "httpOnly": false, "secure": true, "sameSite": "None"},
            {"name": "old", "value": "x", "domain": "example.com", "path": "/", "expires": 1000, "httpOnly": false, "secure": false, "sameSite": "Strict"}
          ],
          "origins": [
            {"origin": "http://127.0.0.1:8000", "localStorage": [{"name": "token", "value": "t0k3n"}, {"name": "user", "value": "{\\"id\\":7}"}]}
          ]
        }
        """

    @Test func aPlaywrightFileIsReadWithItsLocalStorage() throws {
        let state = try StorageState.parse(Self.written)
        #expect(state.cookies.map(\.name) == ["sid", "prefs"], "the expired cookie is left out")
        #expect(state.cookies[0].expires == nil && state.cookies[0].httpOnly && state.cookies[0].sameSite == .lax)
        #expect(state.cookies[1].expires == Date(timeIntervalSince1970: 1_893_456_000.5) && state.cookies[1].secure && state.cookies[1].path == "/app")
        #expect(
            state.origins == [
                .init(origin: "http://127.0.0.1:8000", localStorage: [.init(name: "token", value: "t0k3n"), .init(name: "user", value: #"{"id":7}"#)])
            ])
        #expect(try CookieFile.parse(Self.written).map(\.name) == ["sid", "prefs"], "--cookies takes a storage state's cookies")
    }

    @Test func whatIsWrittenReadsBackAndKeepsPlaywrightsShape() throws {
        var state = try StorageState.parse(Self.written)
        state.cookies.append(WebParserCookie(name: "plain", value: "1", domain: "127.0.0.1", sameSite: .none))
        let data = state.json()
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let cookies = try #require(object["cookies"] as? [[String: Any]])
        #expect(Set(cookies[0].keys) == ["name", "value", "domain", "path", "expires", "httpOnly", "secure", "sameSite"])
        #expect(cookies[0]["expires"] as? Int == -1)
        #expect(cookies[2]["sameSite"] as? String == "Lax", "None without Secure, which Chromium refuses, is written as Lax")
        #expect(cookies[1]["sameSite"] as? String == "None")
        var back = try StorageState.parse(String(decoding: data, as: UTF8.self))
        back.cookies[2].sameSite = .none
        #expect(back == state)
    }

    @Test func aFileThatIsNotOneSaysWhere() {
        func problem(_ text: String) -> String? {
            do {
                _ = try StorageState.parse(text)
                return nil
            } catch {
                return error.description
            }
        }
        #expect(problem(#"{"origins": {}}"#) == #"line 1: origins: expected a list of {"origin", "localStorage"}"#)
        #expect(problem(#"{"origins": [{"origin": "file:///etc", "localStorage": []}]}"#)?.contains("expected {\"origin\": \"https://…\"") == true)
        #expect(
            problem(#"{"origins": [{"origin": "https://a.test", "localStorage": [{"name": "k"}]}]}"#)
                == "line 1: origins: a localStorage item needs a string name and value")
        #expect(problem(#"{"cookies": [{"name": "a"}]}"#) == "line 1: cookies: a cookie needs a string name, value and domain")
        #expect(problem(#"{"cookies": [{"name": "a", "value": "s3cr3t", "domain": "a.test", "expires": "soon"}]}"#)?.contains("s3cr3t") == false)
    }
}
