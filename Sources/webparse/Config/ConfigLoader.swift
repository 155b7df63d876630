import Foundation
import WebParser

/// Reads a config file and checks every field, reporting all problems at once.
///
/// A config is one job, `{"url": …, "script": …}`, or `{"jobs": [{…}, …]}`. Job fields: `name`, `url`,
/// `script`, `timeout`, `retries`, `retryDelay`, `pollInterval`, `userAgent`, `viewport`.
enum ConfigLoader {
    /// The most retries a job may ask for.
    static let maximumRetries = 10

    /// Loads the config at `path`.
    /// - Throws: `ConfigError` naming the file and every problem in it.
    static func load(path: String) throws(ConfigError) -> Config {
        let bytes = try read(path)
        let root: JSONNode
        do {
            root = try JSONNode.parse(bytes)
        } catch {
            throw ConfigError(file: path, problems: [.init(path: "", message: "invalid JSON: \(error.message)",
                                                          line: error.line, column: error.column)])
        }
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent()
        var reader = ConfigReader(directory: directory)
        let config = reader.config(from: root)
        guard let config, reader.problems.isEmpty else { throw ConfigError(file: path, problems: reader.problems) }
        return config
    }

    private static func read(_ path: String) throws(ConfigError) -> [UInt8] {
        func failure(_ message: String) -> ConfigError {
            ConfigError(file: path, problems: [.init(path: "", message: message)])
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw failure("no such file")
        }
        guard !isDirectory.boolValue else { throw failure("is a directory, not a config file") }
        guard let data = FileManager.default.contents(atPath: path) else { throw failure("cannot be read (permission denied?)") }
        guard !data.allSatisfy({ [0x20, 0x09, 0x0A, 0x0D].contains($0) }) else {
            throw failure("is empty; a config is a JSON object such as {\"url\": \"…\", \"script\": \"…\"}")
        }
        return Array(data)
    }
}

/// Walks a parsed config, building jobs and collecting problems.
private struct ConfigReader {
    let directory: URL
    var problems: [ConfigError.Problem] = []

    static let jobKeys = ["name", "url", "script", "timeout", "retries", "retryDelay", "pollInterval",
                          "userAgent", "viewport"]

    mutating func config(from root: JSONNode) -> Config? {
        guard case .object(let members) = root.value else {
            problem("", at: root, "expected a JSON object (one job, or {\"jobs\": […]}), got \(root.kindDescription)")
            return nil
        }
        guard let jobsNode = members.first(where: { $0.key == "jobs" })?.value else {
            return job(from: root, path: "").map { Config(jobs: uniquelyNamed([$0]), isSingleJob: true) }
        }
        for (key, node) in members where key != "jobs" {
            problem(key, at: node, "unknown key; a config with \"jobs\" holds nothing else")
        }
        guard case .array(let elements) = jobsNode.value, !elements.isEmpty else {
            problem("jobs", at: jobsNode, "expected a non-empty array of jobs, got \(jobsNode.excerpt)")
            return nil
        }
        let jobs = elements.enumerated().compactMap { index, node in job(from: node, path: "jobs[\(index)]") }
        var seen: [String: Int] = [:]
        for (index, node) in elements.enumerated() {
            guard let name = nameNode(of: node), case .string(let text) = name.value else { continue }
            if let first = seen[text] {
                problem("jobs[\(index)].name", at: name, "duplicate job name \"\(text)\" (also jobs[\(first)])")
            } else {
                seen[text] = index
            }
        }
        guard jobs.count == elements.count else { return nil }
        return Config(jobs: uniquelyNamed(jobs), isSingleJob: false)
    }

    private func nameNode(of node: JSONNode) -> JSONNode? {
        guard case .object(let members) = node.value else { return nil }
        return members.first { $0.key == "name" }?.value
    }

    /// Gives unnamed jobs distinct names derived from their URLs: `example.com`, `example.com-2`…
    private func uniquelyNamed(_ jobs: [Config.NamedJob]) -> [Config.NamedJob] {
        var taken = Set(jobs.map(\.name).filter { !$0.isEmpty })
        return jobs.map { named in
            guard named.name.isEmpty else { return named }
            let base = named.job.url.isFileURL ? named.job.url.deletingPathExtension().lastPathComponent
                : (named.job.url.host() ?? "job")
            var name = base
            var counter = 2
            while taken.contains(name) {
                name = "\(base)-\(counter)"
                counter += 1
            }
            taken.insert(name)
            return Config.NamedJob(name: name, job: named.job)
        }
    }

    private mutating func job(from node: JSONNode, path: String) -> Config.NamedJob? {
        guard case .object(let members) = node.value else {
            problem(path, at: node, "expected a job object, got \(node.kindDescription)")
            return nil
        }
        let fields = Dictionary(members.map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first })
        for (key, value) in members where !Self.jobKeys.contains(key) {
            problem(join(path, key), at: value, "unknown key" + suggestion(for: key))
        }
        func field(_ key: String) -> (String, JSONNode)? { fields[key].map { (join(path, key), $0) } }

        let name = field("name").flatMap { nonEmptyString($0.0, $0.1) }
        let url = field("url").flatMap { self.url($0.0, $0.1) }
        let script = field("script").flatMap { nonEmptyString($0.0, $0.1) }
        if fields["url"] == nil { problem(join(path, "url"), at: node, "required; the page to load") }
        if fields["script"] == nil {
            problem(join(path, "script"), at: node, "required; the JavaScript expression that extracts the data")
        }
        var job = WebParserJob(url: url ?? URL(fileURLWithPath: "/"), script: script ?? "")
        if let (key, value) = field("timeout"), let seconds = seconds(key, value, in: 0.1...86_400) { job.timeout = seconds }
        if let (key, value) = field("pollInterval"), let seconds = seconds(key, value, in: 0.01...3600) {
            job.pollInterval = seconds
        }
        if let (key, value) = field("retryDelay"), let seconds = seconds(key, value, in: 0...3600) {
            job.retry.delay = seconds
        }
        if let (key, value) = field("retries"),
           let retries = integer(key, value, in: 0...ConfigLoader.maximumRetries, what: "a number of retries") {
            job.retry.retries = retries
        }
        if let (key, value) = field("userAgent") { job.userAgent = nonEmptyString(key, value) }
        if let (key, value) = field("viewport"), let viewport = viewport(key, value) { job.viewport = viewport }
        guard url != nil, script != nil else { return nil }
        return Config.NamedJob(name: name ?? "", job: job)
    }

    private mutating func nonEmptyString(_ path: String, _ node: JSONNode) -> String? {
        guard case .string(let text) = node.value, !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
            problem(path, at: node, "expected a non-empty string, got \(node.excerpt)")
            return nil
        }
        return text
    }

    private mutating func seconds(_ path: String, _ node: JSONNode, in range: ClosedRange<Double>) -> Duration? {
        guard case .number(let number) = node.value, range.contains(number) else {
            let bounds = "from \(String(format: "%g", range.lowerBound)) to \(String(format: "%g", range.upperBound))"
            problem(path, at: node, "expected a number of seconds \(bounds), got \(node.excerpt)")
            return nil
        }
        return .milliseconds(Int64((number * 1000).rounded()))
    }

    private mutating func integer(_ path: String, _ node: JSONNode, in range: ClosedRange<Int>, what: String) -> Int? {
        guard case .number(let number) = node.value, number == number.rounded(),
              number >= Double(range.lowerBound), number <= Double(range.upperBound) else {
            problem(path, at: node, "expected \(what) from \(range.lowerBound) to \(range.upperBound), got \(node.excerpt)")
            return nil
        }
        return Int(number)
    }

    private mutating func viewport(_ path: String, _ node: JSONNode) -> Viewport? {
        guard case .object(let members) = node.value else {
            problem(path, at: node, "expected {\"width\": …, \"height\": …}, got \(node.excerpt)")
            return nil
        }
        var size: [String: Int] = [:]
        for (key, value) in members {
            guard key == "width" || key == "height" else {
                problem(join(path, key), at: value, "unknown key; a viewport has \"width\" and \"height\"")
                continue
            }
            size[key] = integer(join(path, key), value, in: 1...16_384, what: "a number of pixels")
        }
        for key in ["width", "height"] where !members.contains(where: { $0.key == key }) {
            problem(join(path, key), at: node, "required")
        }
        guard let width = size["width"], let height = size["height"] else { return nil }
        return Viewport(width: width, height: height)
    }

    /// Resolves a config URL: `http(s)` URLs as they are; `file` URLs and paths against the config's folder,
    /// checking the file exists; bare host names (`example.com/update`) as `https`, and `localhost` or an
    /// IP address as `http`.
    private mutating func url(_ path: String, _ node: JSONNode) -> URL? {
        guard let text = nonEmptyString(path, node)?.trimmingCharacters(in: .whitespaces) else { return nil }
        if let scheme = Self.scheme(of: text)?.lowercased() {
            guard WebParserJob.supportedSchemes.contains(scheme) else {
                problem(path, at: node, "unsupported scheme \"\(scheme):\"; use http, https or file")
                return nil
            }
            guard let url = URL(string: text), scheme == "file" || url.host() != nil else {
                problem(path, at: node, "not a valid URL: \(node.excerpt)")
                return nil
            }
            return scheme == "file" ? existingFile(url.path(percentEncoded: false), path, node) : url
        }
        let host = text.prefix { $0 != "/" && $0 != ":" }
        if Self.looksLikeFile(text, host: host) || FileManager.default.fileExists(atPath: directory.appending(path: text).path) {
            return existingFile(text, path, node)
        }
        let isLocal = host == "localhost" || host.split(separator: ".").count == 4 && host.allSatisfy { $0.isNumber || $0 == "." }
        guard isLocal || host.contains("."), let url = URL(string: (isLocal ? "http://" : "https://") + text),
              url.host() != nil else {
            problem(path, at: node, "neither a URL, nor a host name, nor a file next to the config: \(node.excerpt)")
            return nil
        }
        return url
    }

    /// True for paths (`/…`, `./…`, `../…`) and for names of web files (`updates.html`), which are not host
    /// names.
    private static func looksLikeFile(_ text: String, host: Substring) -> Bool {
        let fileExtensions: Set<String> = ["html", "htm", "xhtml", "shtml", "svg", "xml", "json", "txt", "php"]
        return text.hasPrefix("/") || text.hasPrefix(".")
            || host.split(separator: ".").last.map { fileExtensions.contains($0.lowercased()) } == true
    }

    /// The file at `filePath`, relative to the config's folder, if it exists and is not a folder.
    private mutating func existingFile(_ filePath: String, _ path: String, _ node: JSONNode) -> URL? {
        let file = filePath.hasPrefix("/") ? URL(fileURLWithPath: filePath) : directory.appending(path: filePath)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: file.path, isDirectory: &isDirectory) else {
            problem(path, at: node, "no such file: \(file.standardizedFileURL.path)")
            return nil
        }
        guard !isDirectory.boolValue else {
            problem(path, at: node, "is a folder, not a page: \(file.standardizedFileURL.path)")
            return nil
        }
        return file.standardizedFileURL
    }

    /// The scheme of `text` if it starts with one (`https:`, `javascript:`), not counting a host's port
    /// (`localhost:8080`).
    private static func scheme(of text: String) -> String? {
        guard let colon = text.firstIndex(of: ":") else { return nil }
        let scheme = text[..<colon]
        guard let first = scheme.first, first.isLetter,
              scheme.allSatisfy({ $0.isLetter || $0.isNumber || "+-.".contains($0) }) else { return nil }
        let rest = text[text.index(after: colon)...]
        let port = rest.prefix { $0 != "/" }
        if !rest.hasPrefix("//") && !port.isEmpty && port.allSatisfy(\.isNumber) { return nil }
        return String(scheme)
    }

    private func suggestion(for key: String) -> String {
        let best = Self.jobKeys.min { editDistance(key, $0) < editDistance(key, $1) }
        guard let best, editDistance(key.lowercased(), best.lowercased()) <= max(2, key.count / 3) else {
            return "; a job has " + Self.jobKeys.joined(separator: ", ")
        }
        return "; did you mean \"\(best)\"?"
    }

    private func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        guard !a.isEmpty, !b.isEmpty else { return max(a.count, b.count) }
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }

    private func join(_ path: String, _ key: String) -> String { path.isEmpty ? key : path + "." + key }

    private mutating func problem(_ path: String, at node: JSONNode, _ message: String) {
        problems.append(.init(path: path, message: message, line: node.line, column: node.column))
    }
}
