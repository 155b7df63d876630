import FoundationEssentials

/// Cookie files: the Netscape `cookies.txt` format of curl, wget and yt-dlp (with `#HttpOnly_` lines), a JSON
/// list of cookies (`name`, `value`, `domain`, `path`, `expires`, `secure`, `httpOnly`, `sameSite`), and the
/// cookies of a Playwright storage state (`StorageState`). Messages about a file never quote a cookie's value.
public enum CookieFile {
    /// A line of a cookie file that cannot be read, and why.
    public struct Problem: Error, Sendable, Equatable, CustomStringConvertible {
        /// The line, from 1; for JSON, the position of the cookie in the list, from 1.
        public var line: Int
        /// What is wrong with the line.
        public var message: String
        /// `line N: message`.
        public var description: String { "line \(line): \(message)" }
    }

    /// The cookies in `text`: a storage state's when it is a JSON object, a JSON list when it starts with `[`, the
    /// Netscape format otherwise; expired ones are left out.
    /// - Throws: `CookieFile.Problem` for the first line (or JSON entry) that is not a cookie.
    public static func parse(_ text: String, now: Date = Date()) throws(Problem) -> [WebParserCookie] {
        if StorageState.isStorageState(text) { return try StorageState.parse(text, now: now).cookies }
        let cookies =
            text.trimmingWhitespace().hasPrefix("[")
            ? try parseJSON(text)
            : try parseNetscape(text)
        return cookies.filter { !$0.hasExpired(at: now) }
    }

    /// Why a cookie file could not be read: it cannot be opened or is too large, is not UTF-8 text, or a line of
    /// it is not a cookie.
    public struct ReadFailure: Error, Sendable, Equatable, CustomStringConvertible {
        /// Why, in words: `no such file`, `not UTF-8 text`, `line 3: expected 7 tab-separated fields…`.
        public var reason: String
        /// The reason.
        public var description: String { reason }
    }

    /// The cookies in the file at `path`, as `parse(_:now:)` reads them: the one reader of every cookie file
    /// webparse is given or keeps.
    /// - Throws: `CookieFile.ReadFailure` saying why the file cannot be read.
    public static func read(contentsOf path: String, now: Date = Date()) throws(ReadFailure) -> [WebParserCookie] {
        let text = try text(contentsOf: path)
        do throws(Problem) {
            return try parse(text, now: now)
        } catch {
            throw ReadFailure(reason: error.description)
        }
    }

    /// The text of the cookie file at `path`.
    /// - Throws: `CookieFile.ReadFailure` when it cannot be read or is not UTF-8.
    static func text(contentsOf path: String) throws(ReadFailure) -> String {
        let bytes: Data
        do {
            bytes = try InputFile.read(path, what: "cookie file")
        } catch {
            throw ReadFailure(reason: error.reason)
        }
        guard let text = String(data: bytes, encoding: .utf8) else { throw ReadFailure(reason: "not UTF-8 text") }
        return text
    }

    /// `cookies` in the Netscape format.
    public static func netscape(_ cookies: [WebParserCookie]) -> String {
        "# Netscape HTTP Cookie File\n# Written by webparse.\n\n"
            + cookies.map { cookie in
                let domain = (cookie.httpOnly ? "#HttpOnly_" : "") + cookie.domain
                let expires = cookie.expires.map { String(Int64($0.timeIntervalSince1970)) } ?? "0"
                return [
                    domain, cookie.domain.hasPrefix(".") ? "TRUE" : "FALSE", cookie.path, cookie.secure ? "TRUE" : "FALSE",
                    expires, cookie.name, cookie.value
                ].joined(separator: "\t")
            }.joined(separator: "\n") + "\n"
    }

    /// `cookies` as a JSON list, `expires` in seconds since 1970.
    public static func json(_ cookies: [WebParserCookie]) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .secondsSince1970
        return ((try? encoder.encode(cookies)) ?? Data("[]".utf8)) + Data("\n".utf8)
    }

    private static func parseNetscape(_ text: String) throws(Problem) -> [WebParserCookie] {
        var cookies: [WebParserCookie] = []
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            var line = rawLine.hasSuffix("\r") ? rawLine.dropLast() : rawLine
            var httpOnly = false
            if line.hasPrefix("#HttpOnly_") {
                httpOnly = true
                line = line.dropFirst("#HttpOnly_".count)
            } else if line.hasPrefix("#") || line.trimmingSpaces().isEmpty {
                continue
            }
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard fields.count == 7 else {
                throw Problem(
                    line: index + 1, message: "expected 7 tab-separated fields (domain, subdomains, path, secure, expires, name, value), got \(fields.count)")
            }
            guard !fields[0].isEmpty, !fields[5].isEmpty else {
                throw Problem(line: index + 1, message: "a cookie needs a domain and a name")
            }
            guard let seconds = Int64(fields[4]) else {
                throw Problem(line: index + 1, message: "expected the expiry in seconds since 1970, or 0 for a session cookie")
            }
            let subdomains = fields[1].uppercased() == "TRUE"
            let domain = subdomains && !fields[0].hasPrefix(".") ? "." + fields[0] : fields[0]
            cookies.append(
                WebParserCookie(
                    name: fields[5], value: fields[6], domain: domain,
                    path: fields[2].isEmpty ? "/" : fields[2],
                    expires: seconds > 0 ? Date(timeIntervalSince1970: TimeInterval(seconds)) : nil,
                    secure: fields[3].uppercased() == "TRUE", httpOnly: httpOnly))
        }
        return cookies
    }

    private static func parseJSON(_ text: String) throws(Problem) -> [WebParserCookie] {
        guard let list = try? JSONNode.parse(Array(text.utf8), rules: .lenient), list.array != nil else {
            throw Problem(line: 1, message: "expected a JSON list of cookies")
        }
        return try cookies(inJSON: list)
    }

    /// The cookies of `value`, a JSON list of cookie objects; `field` names the list in messages (a storage
    /// state's `cookies`).
    static func cookies(inJSON value: JSONNode, in field: String? = nil) throws(Problem) -> [WebParserCookie] {
        guard let list = value.array else { throw Problem(line: 1, message: (field.map { $0 + ": " } ?? "") + "expected a JSON list of cookies") }
        var cookies: [WebParserCookie] = []
        for (index, entry) in list.enumerated() {
            func problem(_ message: String) -> Problem { Problem(line: index + 1, message: (field.map { $0 + ": " } ?? "") + message) }
            guard entry.isObject else { throw problem("expected a cookie object") }
            guard let name = entry["name"]?.string, !name.isEmpty, let value = entry["value"]?.string,
                let domain = entry["domain"]?.string, !domain.isEmpty
            else {
                throw problem("a cookie needs a string name, value and domain")
            }
            var expires: Date?
            switch entry["expires"]?.value {
            case nil, .null: break
            case .number(let seconds): expires = seconds > 0 ? Date(timeIntervalSince1970: seconds) : nil
            case .string(let text):
                guard let date = try? Date(text, strategy: .iso8601) else {
                    throw problem("expected expires in seconds since 1970 or as an ISO 8601 date")
                }
                expires = date
            default: throw problem("expected expires in seconds since 1970 or as an ISO 8601 date")
            }
            var sameSite = WebParserCookie.SameSite.lax
            if let text = entry["sameSite"]?.string {
                guard let policy = WebParserCookie.SameSite.allCases.first(where: { $0.rawValue.lowercased() == text.lowercased() }) else {
                    throw problem("expected sameSite None, Lax or Strict")
                }
                sameSite = policy
            }
            cookies.append(
                WebParserCookie(
                    name: name, value: value, domain: domain, path: entry["path"]?.string ?? "/",
                    expires: expires, secure: entry["secure"]?.bool ?? false,
                    httpOnly: entry["httpOnly"]?.bool ?? false, sameSite: sameSite))
        }
        return cookies
    }
}
