import FoundationEssentials

/// A browser's logged-in state in Playwright's `storage_state` format (also shot-scraper's `auth` file): the
/// cookies, and each origin's `localStorage`.
///
///     {"cookies": [{"name", "value", "domain", "path", "expires" (-1: a session cookie), "httpOnly", "secure",
///                   "sameSite"}, …],
///      "origins": [{"origin": "https://example.com", "localStorage": [{"name", "value"}, …]}, …]}
public struct StorageState: Sendable, Equatable {
    /// One origin's stored items, encoded with Playwright's names.
    public struct Origin: Sendable, Equatable, Encodable {
        /// The origin: scheme, host and port if any, as `https://example.com` or `http://127.0.0.1:8000`.
        public var origin: String
        /// Its `localStorage` items, as name and value, in the order given.
        public var localStorage: [Item]

        /// An origin's items.
        public init(origin: String, localStorage: [Item]) {
            self.origin = origin
            self.localStorage = localStorage
        }
    }

    /// A `localStorage` item, encoded with Playwright's names.
    public struct Item: Sendable, Equatable, Encodable {
        /// The item's key.
        public var name: String
        /// The item's value.
        public var value: String

        /// An item named `name` holding `value`.
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// The cookies.
    public var cookies: [WebParserCookie]
    /// The origins with stored items.
    public var origins: [Origin]

    /// A state of these cookies and origins.
    public init(cookies: [WebParserCookie] = [], origins: [Origin] = []) {
        self.cookies = cookies
        self.origins = origins
    }

    /// Whether `text` is a storage state (a JSON object) rather than a list of cookies or a cookies.txt file.
    public static func isStorageState(_ text: String) -> Bool {
        text.trimmingWhitespace().hasPrefix("{")
    }

    /// The state in `text`, a JSON object of `cookies` and `origins` (either may be missing); expired cookies are
    /// left out.
    /// - Throws: `CookieFile.Problem` naming the first cookie or origin that is not one (its position from 1).
    public static func parse(_ text: String, now: Date = Date()) throws(CookieFile.Problem) -> StorageState {
        guard let object = try? JSONNode.parse(Array(text.utf8), rules: .lenient), object.isObject else {
            throw CookieFile.Problem(line: 1, message: "expected a storage state: {\"cookies\": […], \"origins\": […]}")
        }
        let cookies = try object["cookies"].map { cookies throws(CookieFile.Problem) in try CookieFile.cookies(inJSON: cookies, in: "cookies") } ?? []
        guard let origins = object["origins"].map(\.array) ?? [] else {
            throw CookieFile.Problem(line: 1, message: "origins: expected a list of {\"origin\", \"localStorage\"}")
        }
        var read: [Origin] = []
        for (index, entry) in origins.enumerated() {
            func problem(_ message: String) -> CookieFile.Problem { CookieFile.Problem(line: index + 1, message: "origins: " + message) }
            guard let origin = entry["origin"]?.string,
                let url = URL(string: origin), ["http", "https"].contains(url.scheme?.lowercased() ?? ""), url.host() != nil
            else {
                throw problem("expected {\"origin\": \"https://…\", \"localStorage\": […]}")
            }
            guard let items = entry["localStorage"].map(\.array) ?? [], items.allSatisfy(\.isObject) else {
                throw problem("expected localStorage as a list of {name, value}")
            }
            read.append(
                Origin(
                    origin: origin,
                    localStorage: try items.map { item throws(CookieFile.Problem) in
                        guard let name = item["name"]?.string, let value = item["value"]?.string else {
                            throw problem("a localStorage item needs a string name and value")
                        }
                        return Item(name: name, value: value)
                    }))
        }
        return StorageState(cookies: cookies.filter { !$0.hasExpired(at: now) }, origins: read)
    }

    /// The state in Playwright's format, `expires` -1 for a session cookie, keys sorted. A cookie set without a
    /// SameSite attribute, which WebKit reports as None, is written as Lax unless it is secure: Chromium treats it
    /// so, and refuses None without Secure.
    public func json() -> Data {
        let written = Written(
            cookies: cookies.map { cookie in
                Written.Cookie(
                    name: cookie.name, value: cookie.value, domain: cookie.domain, path: cookie.path,
                    expires: cookie.expires.map { $0.timeIntervalSince1970 } ?? -1, httpOnly: cookie.httpOnly, secure: cookie.secure,
                    sameSite: (cookie.sameSite == .none && !cookie.secure ? WebParserCookie.SameSite.lax : cookie.sameSite).rawValue)
            },
            origins: origins)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return ((try? encoder.encode(written)) ?? Data("{}".utf8)) + Data("\n".utf8)
    }

    /// The file's layout, in Playwright's names.
    private struct Written: Encodable {
        struct Cookie: Encodable {
            let name, value, domain, path: String
            let expires: Double
            let httpOnly, secure: Bool
            let sameSite: String
        }
        let cookies: [Cookie]
        let origins: [Origin]
    }

    /// The state in the file at `path`: a storage state, or a cookie file (cookies.txt or a JSON list; no origins).
    /// - Throws: `CookieFile.ReadFailure` saying why the file cannot be read.
    public static func read(contentsOf path: String, now: Date = Date()) throws(CookieFile.ReadFailure) -> StorageState {
        let text = try CookieFile.text(contentsOf: path)
        do throws(CookieFile.Problem) {
            return isStorageState(text) ? try parse(text, now: now) : StorageState(cookies: try CookieFile.parse(text, now: now))
        } catch {
            throw CookieFile.ReadFailure(reason: error.description)
        }
    }
}
