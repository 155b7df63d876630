import FoundationEssentials
import WebParser

/// Reads typed values out of config nodes, recording a problem (with its place) for every value that is not
/// what the field needs.
package struct FieldReader {
    /// Paths in the config are resolved against this folder.
    let directory: URL
    /// Where `passwordEnv` and `{"env": NAME}` values are looked up.
    let environment: [String: String]
    /// Whether a variable that is not set is left for the run to require (in `unsetVariables`) rather than a
    /// problem: a config is checked without its secrets, and a job needs them only when it runs.
    let defersUnsetVariables: Bool
    package private(set) var problems: [ConfigError.Problem] = []
    /// How many problems were found, each time one was (a problem found again is recorded once): a part read is
    /// valid when the count did not grow while it was read.
    private(set) var problemsFound = 0
    /// The well-formed references to variables that are not set, when `defersUnsetVariables`: the problem each is
    /// for a job that runs.
    package private(set) var unsetVariables: [ConfigError.Problem] = []
    /// The variables read so far, in order: their values are secrets (passwords a step types), kept out of what
    /// webparse writes (a HAR file).
    package private(set) var variablesRead: [(name: String, value: String)] = []
    /// The problems already reported, so that one is said once, in constant time.
    private var reported: Set<ConfigError.Problem> = []
    /// What the fields may do with files.
    package var fileAccess = FileAccess.config

    /// What a config's fields may do with the files of the user who runs webparse.
    package enum FileAccess: Sendable {
        /// A config's (or the command line's): its fields read and write the files they name.
        case config
        /// A work queue's item's, pushed by whoever can push to the queue, who is not the worker's owner: its fields
        /// read no file, and write only a file name of theirs in `folder`, the one the worker's config names for
        /// items' files (none: they write nothing).
        case item(folder: URL?)
    }

    package init(directory: URL, environment: [String: String] = ProcessInfo.processInfo.environment, defersUnsetVariables: Bool = false) {
        self.directory = directory
        self.environment = environment
        self.defersUnsetVariables = defersUnsetVariables
    }

    /// The value of the environment variable `name`, referred to at `path`: when it is not set, a problem, or with
    /// `defersUnsetVariables` an empty value and an entry in `unsetVariables`.
    mutating func variable(_ name: String, _ path: String, at input: FieldInput) -> String? {
        if let value = environment[name] {
            variablesRead.append((name, value))
            return value
        }
        let problem = ConfigError.Problem(
            path: path, message: "the environment variable \(name) is not set", line: input.place?.line, column: input.place?.column)
        guard defersUnsetVariables else {
            self.problem(path, at: input, problem.message)
            return nil
        }
        if !unsetVariables.contains(problem) { unsetVariables.append(problem) }
        return ""
    }

    /// True once more problems were found than `ConfigError` shows: details that cost time to work out, such as
    /// near misses among thousands of job names, are then left out.
    var isFull: Bool { problems.count >= ConfigError.shownProblems }

    /// Records that `input`, at `path`, is wrong; the same problem is recorded once.
    mutating func problem(_ path: String, at input: FieldInput, _ message: String) {
        problemsFound += 1
        let problem = ConfigError.Problem(path: path, message: message, line: input.place?.line, column: input.place?.column)
        if reported.insert(problem).inserted { problems.append(problem) }
    }

    /// Records each key of `members`, an object at `path`, that is not one of `keys`, with the nearest as a
    /// suggestion; false when there was one.
    mutating func knownKeysOnly(_ members: [(key: String, value: JSONNode)], _ keys: [String], at path: String) -> Bool {
        var known = true
        for (key, value) in members where !keys.contains(key) {
            problem(path + "." + key, at: .node(value), "unknown key" + ConfigReader.suggestion(for: key, among: keys))
            known = false
        }
        return known
    }

    mutating func string(_ path: String, _ input: FieldInput) -> String? {
        guard let text = input.text, !text.unicodeScalars.allSatisfy(\.properties.isWhitespace) else {
            problem(path, at: input, "expected a non-empty string, got \(input.excerpt)")
            return nil
        }
        return text
    }

    mutating func bool(_ path: String, _ input: FieldInput) -> Bool? {
        guard let flag = input.flag else {
            problem(path, at: input, "expected true or false, got \(input.excerpt)")
            return nil
        }
        return flag
    }

    mutating func seconds(_ path: String, _ input: FieldInput, in range: ClosedRange<Double>) -> Duration? {
        guard let number = input.number, range.contains(number) else {
            let bounds = "from \(JSONNode.written(range.lowerBound)) to \(JSONNode.written(range.upperBound))"
            problem(path, at: input, "expected a number of seconds \(bounds), got \(input.excerpt)")
            return nil
        }
        return .milliseconds(Int64((number * 1000).rounded()))
    }

    mutating func integer(_ path: String, _ input: FieldInput, in range: ClosedRange<Int>, what: String) -> Int? {
        guard let number = input.number, number == number.rounded(),
            number >= Double(range.lowerBound), number <= Double(range.upperBound)
        else {
            problem(path, at: input, "expected \(what) from \(range.lowerBound) to \(range.upperBound), got \(input.excerpt)")
            return nil
        }
        return Int(number)
    }

    /// A list of strings, written as a JSON array or as one comma-separated string (an option's value is one).
    mutating func stringList(_ path: String, _ input: FieldInput, what: String) -> [String]? {
        let items: [String]
        if let elements = input.elements {
            var strings: [String] = []
            for (index, element) in elements.enumerated() {
                guard let text = string("\(path)[\(index)]", .node(element)) else { continue }
                strings.append(text)
            }
            guard strings.count == elements.count else { return nil }
            items = strings
        } else if let text = input.text {
            items = text.split(separator: ",").map { $0.trimmingSpaces() }
        } else {
            problem(path, at: input, "expected \(what) as an array of strings or a comma-separated string, got \(input.excerpt)")
            return nil
        }
        guard !items.isEmpty, !items.contains(where: \.isEmpty) else {
            problem(path, at: input, "expected \(what), at least one and none empty, got \(input.excerpt)")
            return nil
        }
        return items
    }

    /// `{"width": 1280, "height": 800}` or `"1280x800"`.
    mutating func viewport(_ path: String, _ input: FieldInput) -> Viewport? {
        let expected = "{\"width\": …, \"height\": …} or \"WIDTHxHEIGHT\""
        if let text = input.text {
            let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
            let sides = parts.compactMap { part in part.allSatisfy(\.isASCII) && part.allSatisfy(\.isNumber) ? Int(part) : nil }
            guard parts.count == 2, sides.count == 2, sides.allSatisfy({ (1...16_384).contains($0) }) else {
                problem(path, at: input, "expected \(expected) with sides from 1 to 16384, got \(input.excerpt)")
                return nil
            }
            return Viewport(width: sides[0], height: sides[1])
        }
        guard input.members != nil else {
            problem(path, at: input, "expected \(expected), got \(input.excerpt)")
            return nil
        }
        guard
            let size = object(
                path, input, fields: SettingsObjects.viewport, into: SettingsObjects.Size(), example: expected,
                required: ["width": "required", "height": "required"]),
            let width = size.width, let height = size.height
        else { return nil }
        return Viewport(width: width, height: height)
    }

    /// HTTP header names to values: a config's object, or an option's `Name: value` per use.
    mutating func headers(_ path: String, _ input: FieldInput) -> [String: String]? {
        var given: [(name: String, value: FieldInput)] = []
        switch input {
        case .node:
            guard let members = input.members else {
                problem(path, at: input, "expected an object of header names to values, got \(input.excerpt)")
                return nil
            }
            given = members.map { ($0.key, .node($0.value)) }
        case .arguments(let values):
            for value in values {
                guard let colon = value.firstIndex(of: ":") else {
                    problem(path, at: input, "expected 'Name: value', got '\(value)'")
                    return nil
                }
                let text = value[value.index(after: colon)...].trimmingSpaces()
                given.append((String(value[..<colon]).trimmingSpaces(), .arguments([text])))
            }
        }
        let tokenCharacters = Set("!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ".unicodeScalars)
        var headers: [String: String] = [:]
        for (name, value) in given {
            guard !name.isEmpty, name.unicodeScalars.allSatisfy(tokenCharacters.contains) else {
                problem(path + "." + name, at: value, "not a valid header name")
                continue
            }
            guard let text = value.text, !text.contains(where: { $0 == "\r" || $0 == "\n" }) else {
                problem(path + "." + name, at: value, "expected a header value on one line, got \(value.excerpt)")
                continue
            }
            guard !headers.keys.contains(where: { $0.lowercased() == name.lowercased() }) else {
                problem(path + "." + name, at: value, "header given twice")
                continue
            }
            headers[name] = text
        }
        return headers.count == given.count ? headers : nil
    }

    /// Resource kinds to block: names from `WebParserJob.Resource`, as a config's array or an option's
    /// comma-separated list (`none` for an empty one); an empty list blocks nothing.
    mutating func resources(_ path: String, _ input: FieldInput) -> Set<WebParserJob.Resource>? {
        let known = WebParserJob.Resource.allCases.map(\.rawValue).joined(separator: ", ")
        let names: [FieldInput]
        switch input {
        case .node:
            guard let elements = input.elements else {
                problem(path, at: input, "expected an array of resource kinds (\(known)), got \(input.excerpt)")
                return nil
            }
            names = elements.map(FieldInput.node)
        case .arguments(let values):
            let list = values.last ?? ""
            names = list == "none" ? [] : list.split(separator: ",").map { .arguments([$0.trimmingSpaces()]) }
        }
        var resources: Set<WebParserJob.Resource> = []
        for (index, name) in names.enumerated() {
            guard let resource = name.text.flatMap(WebParserJob.Resource.init(rawValue:)) else {
                problem("\(path)[\(index)]", at: name, "expected one of \(known), got \(name.excerpt)")
                continue
            }
            resources.insert(resource)
        }
        return resources
    }

    /// URL patterns for WebKit's content blocker, as a config's array or an option's value per use: regular
    /// expressions without alternation or counted repetition, which WebKit's URL filters do not take.
    mutating func urlPatterns(_ path: String, _ input: FieldInput) -> [String]? {
        guard let given = each(path, input, what: "an array of URL patterns") else { return nil }
        var patterns: [String] = []
        for (index, element) in given.enumerated() {
            let place = "\(path)[\(index)]"
            guard let pattern = string(place, element) else { continue }
            guard pattern.allSatisfy(\.isASCII), !pattern.contains("|"), !pattern.contains("{"),
                (try? Regex(pattern)) != nil
            else {
                problem(place, at: element, "expected a WebKit URL filter (an ASCII regular expression without | or {n}), got \(element.excerpt)")
                continue
            }
            patterns.append(pattern)
        }
        return patterns.count == given.count ? patterns : nil
    }

    /// The items of a list field: a config's array elements, or an option's values, one per use.
    func each(_ path: String, _ input: FieldInput) -> [FieldInput]? {
        switch input {
        case .node: input.elements?.map(FieldInput.node)
        case .arguments(let values): values.map { .arguments([$0]) }
        }
    }

    /// `each`, recording a problem when a config gives something other than an array.
    mutating func each(_ path: String, _ input: FieldInput, what: String) -> [FieldInput]? {
        guard let items = each(path, input) else {
            problem(path, at: input, "expected \(what), got \(input.excerpt)")
            return nil
        }
        return items
    }

    /// The cookies (and origins' local storage) in the file named by `input` (Netscape `cookies.txt`, a JSON list,
    /// or a Playwright storage state), relative to the config's folder. Problems name the file's line, never a
    /// cookie's value.
    mutating func cookies(_ path: String, _ input: FieldInput) -> StorageState? {
        guard let name = string(path, input), let file = existingFile(name, path, input, what: "a cookie file") else { return nil }
        do throws(CookieFile.ReadFailure) {
            return try StorageState.read(contentsOf: file.path)
        } catch {
            problem(path, at: input, "\(file.path): \(error)")
            return nil
        }
    }

    /// A proxy: `"http://host:port"` (also https, socks, socks4, socks5), or `{"url": …, "noProxy": [hosts]}`.
    mutating func proxy(_ path: String, _ input: FieldInput) -> WebParserSession.Proxy? {
        var urlInput = input
        var bypass: [String] = []
        if input.members != nil {
            guard
                let read = object(
                    path, input, fields: SettingsObjects.proxy, into: SettingsObjects.ProxyDraft(), example: #"{"url": …, "noProxy": […]}"#,
                    required: ["url": "required"]),
                let url = read.url
            else { return nil }
            urlInput = url
            bypass = read.noProxy
        }
        guard let text = string(path, urlInput) else { return nil }
        let schemes: Set<String> = ["http", "https", "socks", "socks4", "socks4a", "socks5", "socks5h"]
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), schemes.contains(scheme), url.host() != nil else {
            problem(path, at: urlInput, "expected a proxy URL such as http://proxy.example:3128 or socks5://127.0.0.1:1080, got \(urlInput.excerpt)")
            return nil
        }
        return WebParserSession.Proxy(url: url, bypass: bypass)
    }

    /// The variable an option's user takes the password from (never a command line, where other users see it).
    package static let passwordVariable = "WEBPARSE_PASSWORD"

    /// HTTP credentials: `{"user": …, "password": …}`, or `{"user": …, "passwordEnv": "VARIABLE"}` to take the
    /// password from the environment; an option gives the user, and the password comes from
    /// `passwordVariable`. Messages never show the password.
    mutating func credentials(_ path: String, _ input: FieldInput) -> WebParserJob.Credentials? {
        var fields: [String: FieldInput] = [:]
        switch input {
        case .node:
            let example = #"{"user": …, "password": …} or {"user": …, "passwordEnv": …}"#
            guard let given = object(path, input, fields: SettingsObjects.auth, into: [:], example: example) else { return nil }
            fields = given
        case .arguments:
            fields = ["user": input, "passwordEnv": .arguments([Self.passwordVariable])]
        }
        guard let userInput = fields["user"] else {
            problem(path + ".user", at: input, "required")
            return nil
        }
        guard let user = string(path + ".user", userInput) else { return nil }
        switch (fields["password"], fields["passwordEnv"]) {
        case (let password?, nil):
            guard let text = password.text else {
                problem(path + ".password", at: password, "expected a string")
                return nil
            }
            return .init(user: user, password: text)
        case (nil, let variable?):
            guard let name = string(path + ".passwordEnv", variable), let password = self.variable(name, path + ".passwordEnv", at: variable)
            else { return nil }
            return .init(user: user, password: password)
        default:
            problem(path, at: input, "give password or passwordEnv, one of them")
            return nil
        }
    }

    /// One of `Choice`'s raw values.
    mutating func choice<Choice: RawRepresentable & CaseIterable>(_ path: String, _ input: FieldInput, _ type: Choice.Type) -> Choice?
    where Choice.RawValue == String {
        guard let choice = input.text.flatMap(Choice.init(rawValue:)) else {
            problem(path, at: input, "expected \(Choice.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: " or ")), got \(input.excerpt)")
            return nil
        }
        return choice
    }
}
