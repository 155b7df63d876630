import Foundation
import WebParser

/// Reads typed values out of config nodes, recording a problem (with its place) for every value that is not
/// what the field needs.
package struct FieldReader {
    /// Paths in the config are resolved against this folder.
    let directory: URL
    package private(set) var problems: [ConfigError.Problem] = []
    /// The problems already reported, so that one is said once, in constant time.
    private var reported: Set<ConfigError.Problem> = []

    package init(directory: URL) {
        self.directory = directory
    }

    /// Records that `node`, at `path`, is wrong; the same problem is recorded once.
    mutating func problem(_ path: String, at node: JSONNode, _ message: String) {
        let place = node.line > 0 ? (node.line, node.column) : nil
        let problem = ConfigError.Problem(path: path, message: message, line: place?.0, column: place?.1)
        if reported.insert(problem).inserted { problems.append(problem) }
    }

    mutating func string(_ path: String, _ node: JSONNode) -> String? {
        guard case .string(let text) = node.value, !text.unicodeScalars.allSatisfy(\.properties.isWhitespace) else {
            problem(path, at: node, "expected a non-empty string, got \(node.excerpt)")
            return nil
        }
        return text
    }

    mutating func bool(_ path: String, _ node: JSONNode) -> Bool? {
        guard case .bool(let flag) = node.value else {
            problem(path, at: node, "expected true or false, got \(node.excerpt)")
            return nil
        }
        return flag
    }

    mutating func seconds(_ path: String, _ node: JSONNode, in range: ClosedRange<Double>) -> Duration? {
        guard case .number(let number) = node.value, range.contains(number) else {
            let bounds = "from \(String(format: "%g", range.lowerBound)) to \(String(format: "%g", range.upperBound))"
            problem(path, at: node, "expected a number of seconds \(bounds), got \(node.excerpt)")
            return nil
        }
        return .milliseconds(Int64((number * 1000).rounded()))
    }

    mutating func integer(_ path: String, _ node: JSONNode, in range: ClosedRange<Int>, what: String) -> Int? {
        guard case .number(let number) = node.value, number == number.rounded(),
              number >= Double(range.lowerBound), number <= Double(range.upperBound) else {
            problem(path, at: node, "expected \(what) from \(range.lowerBound) to \(range.upperBound), got \(node.excerpt)")
            return nil
        }
        return Int(number)
    }

    /// A list of strings, written as a JSON array or as one comma-separated string.
    mutating func stringList(_ path: String, _ node: JSONNode, what: String) -> [String]? {
        let items: [String]
        switch node.value {
        case .string(let text):
            items = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        case .array(let elements):
            var strings: [String] = []
            for (index, element) in elements.enumerated() {
                guard let text = string("\(path)[\(index)]", element) else { continue }
                strings.append(text)
            }
            guard strings.count == elements.count else { return nil }
            items = strings
        default:
            problem(path, at: node, "expected \(what) as an array of strings or a comma-separated string, got \(node.excerpt)")
            return nil
        }
        guard !items.isEmpty, !items.contains(where: \.isEmpty) else {
            problem(path, at: node, "expected \(what), at least one and none empty, got \(node.excerpt)")
            return nil
        }
        return items
    }

    /// `{"width": 1280, "height": 800}` or `"1280x800"`.
    mutating func viewport(_ path: String, _ node: JSONNode) -> Viewport? {
        let expected = "{\"width\": …, \"height\": …} or \"WIDTHxHEIGHT\""
        switch node.value {
        case .string(let text):
            let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
            let sides = parts.compactMap { part in part.allSatisfy(\.isASCII) && part.allSatisfy(\.isNumber) ? Int(part) : nil }
            guard parts.count == 2, sides.count == 2, sides.allSatisfy({ (1...16_384).contains($0) }) else {
                problem(path, at: node, "expected \(expected) with sides from 1 to 16384, got \(node.excerpt)")
                return nil
            }
            return Viewport(width: sides[0], height: sides[1])
        case .object(let members):
            var size: [String: Int] = [:]
            for (key, value) in members {
                guard key == "width" || key == "height" else {
                    problem(path + "." + key, at: value, "unknown key; a viewport has \"width\" and \"height\"")
                    continue
                }
                size[key] = integer(path + "." + key, value, in: 1...16_384, what: "a number of pixels")
            }
            for key in ["width", "height"] where !members.contains(where: { $0.key == key }) {
                problem(path + "." + key, at: node, "required")
            }
            guard let width = size["width"], let height = size["height"] else { return nil }
            return Viewport(width: width, height: height)
        default:
            problem(path, at: node, "expected \(expected), got \(node.excerpt)")
            return nil
        }
    }

    /// HTTP header names to values.
    mutating func headers(_ path: String, _ node: JSONNode) -> [String: String]? {
        guard case .object(let members) = node.value else {
            problem(path, at: node, "expected an object of header names to values, got \(node.excerpt)")
            return nil
        }
        let tokenCharacters = CharacterSet(charactersIn: "!#$%&'*+-.^_`|~").union(.alphanumerics)
        var headers: [String: String] = [:]
        for (name, value) in members {
            guard !name.isEmpty, name.unicodeScalars.allSatisfy({ $0.isASCII && tokenCharacters.contains($0) }) else {
                problem(path + "." + name, at: value, "not a valid header name")
                continue
            }
            guard case .string(let text) = value.value, !text.contains(where: { $0 == "\r" || $0 == "\n" }) else {
                problem(path + "." + name, at: value, "expected a header value on one line, got \(value.excerpt)")
                continue
            }
            guard !headers.keys.contains(where: { $0.caseInsensitiveCompare(name) == .orderedSame }) else {
                problem(path + "." + name, at: value, "header given twice")
                continue
            }
            headers[name] = text
        }
        return headers.count == members.count ? headers : nil
    }

    /// Resource kinds to block: names from `WebParserJob.Resource`; an empty list blocks nothing.
    mutating func resources(_ path: String, _ node: JSONNode) -> Set<WebParserJob.Resource>? {
        let known = WebParserJob.Resource.allCases.map(\.rawValue).joined(separator: ", ")
        guard case .array(let elements) = node.value else {
            problem(path, at: node, "expected an array of resource kinds (\(known)), got \(node.excerpt)")
            return nil
        }
        var resources: Set<WebParserJob.Resource> = []
        for (index, element) in elements.enumerated() {
            guard case .string(let name) = element.value, let resource = WebParserJob.Resource(rawValue: name) else {
                problem("\(path)[\(index)]", at: element, "expected one of \(known), got \(element.excerpt)")
                continue
            }
            resources.insert(resource)
        }
        return resources
    }

    /// URL patterns for WebKit's content blocker: regular expressions without alternation or counted
    /// repetition, which WebKit's URL filters do not take.
    mutating func urlPatterns(_ path: String, _ node: JSONNode) -> [String]? {
        guard case .array(let elements) = node.value else {
            problem(path, at: node, "expected an array of URL patterns, got \(node.excerpt)")
            return nil
        }
        var patterns: [String] = []
        for (index, element) in elements.enumerated() {
            let place = "\(path)[\(index)]"
            guard let pattern = string(place, element) else { continue }
            guard pattern.allSatisfy(\.isASCII), !pattern.contains("|"), !pattern.contains("{"),
                  (try? NSRegularExpression(pattern: pattern)) != nil else {
                problem(place, at: element, "expected a WebKit URL filter (an ASCII regular expression without | or {n}), got \(element.excerpt)")
                continue
            }
            patterns.append(pattern)
        }
        return patterns.count == elements.count ? patterns : nil
    }

    /// The cookies in the cookie file named by `node` (Netscape `cookies.txt` or a JSON list), relative to the
    /// config's folder. Problems name the file's line, never a cookie's value.
    mutating func cookies(_ path: String, _ node: JSONNode) -> [WebParserCookie]? {
        guard let text = fileContents(path, node) else { return nil }
        do throws(CookieFile.Problem) {
            return try CookieFile.parse(text)
        } catch {
            problem(path, at: node, "\(error) of the cookie file")
            return nil
        }
    }

    /// A proxy: `"http://host:port"` (also https, socks, socks4, socks5), or `{"url": …, "noProxy": [hosts]}`.
    package mutating func proxy(_ path: String, _ node: JSONNode) -> WebParserSession.Proxy? {
        var urlNode = node
        var bypass: [String] = []
        if case .object(let members) = node.value {
            for (key, value) in members where key != "url" && key != "noProxy" {
                problem(path + "." + key, at: value, "unknown key; a proxy has \"url\" and \"noProxy\"")
            }
            guard let url = members.first(where: { $0.key == "url" })?.value else {
                problem(path + ".url", at: node, "required")
                return nil
            }
            urlNode = url
            if let hosts = members.first(where: { $0.key == "noProxy" })?.value {
                guard let list = stringList(path + ".noProxy", hosts, what: "host names") else { return nil }
                bypass = list
            }
        }
        guard let text = string(path, urlNode) else { return nil }
        let schemes: Set<String> = ["http", "https", "socks", "socks4", "socks4a", "socks5", "socks5h"]
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), schemes.contains(scheme), url.host() != nil else {
            problem(path, at: urlNode, "expected a proxy URL such as http://proxy.example:3128 or socks5://127.0.0.1:1080, got \(urlNode.excerpt)")
            return nil
        }
        return WebParserSession.Proxy(url: url, bypass: bypass)
    }

    /// HTTP credentials: `{"user": …, "password": …}`, or `{"user": …, "passwordEnv": "VARIABLE"}` to take the
    /// password from the environment. Messages never show the password.
    mutating func credentials(_ path: String, _ node: JSONNode) -> WebParserJob.Credentials? {
        guard case .object(let members) = node.value else {
            problem(path, at: node, "expected {\"user\": …, \"password\": …} or {\"user\": …, \"passwordEnv\": …}")
            return nil
        }
        var fields: [String: JSONNode] = [:]
        for (key, value) in members {
            guard ["user", "password", "passwordEnv"].contains(key) else {
                problem(path + "." + key, at: value, "unknown key; auth has \"user\" and \"password\" or \"passwordEnv\"")
                continue
            }
            fields[key] = value
        }
        guard let userNode = fields["user"] else {
            problem(path + ".user", at: node, "required")
            return nil
        }
        guard let user = string(path + ".user", userNode) else { return nil }
        switch (fields["password"], fields["passwordEnv"]) {
        case (let password?, nil):
            guard case .string(let text) = password.value else {
                problem(path + ".password", at: password, "expected a string")
                return nil
            }
            return .init(user: user, password: text)
        case (nil, let variable?):
            guard let name = string(path + ".passwordEnv", variable) else { return nil }
            guard let password = ProcessInfo.processInfo.environment[name] else {
                problem(path + ".passwordEnv", at: variable, "the environment variable \(name) is not set")
                return nil
            }
            return .init(user: user, password: password)
        default:
            problem(path, at: node, "give password or passwordEnv, one of them")
            return nil
        }
    }

    /// One of `Choice`'s raw values.
    mutating func choice<Choice: RawRepresentable & CaseIterable>(_ path: String, _ node: JSONNode, _ type: Choice.Type) -> Choice?
        where Choice.RawValue == String
    {
        guard case .string(let text) = node.value, let choice = Choice(rawValue: text) else {
            problem(path, at: node, "expected \(Choice.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: " or ")), got \(node.excerpt)")
            return nil
        }
        return choice
    }
}
