import FoundationEssentials
import WebParser

/// Sends what a run found through Apprise (`--notify URL`, Debian's `apprise`: mail, ntfy, Telegram, Slack,
/// Matrix and 80 more services): one message per job with news, a line per item; for a result that is not a list,
/// how it changed; and one when a job starts failing, one when it recovers.
package struct Notifier: Sendable {
    /// Apprise URLs, such as `ntfy://topic` or `mailto://user:password@example.com`.
    package let urls: [String]
    /// Apprise configuration files (`--notify-config`), which keep the URLs and their tokens out of command lines.
    package let configs: [String]
    /// Whether Apprise's own defaults are used too (`--notify-env`): its variables, or its configuration files.
    package let fromEnvironment: Bool
    /// A line per item: `{job}`, `{item}` (its JSON) and `{FIELD}` or `{FIELD.PATH}` of an object item; nil
    /// for the default (a title or name, then a URL, of what the item has).
    package let format: String?
    private let apprise: String

    /// A notifier through the `apprise` on the PATH webparse was started with (WebKit may be changing the
    /// environment while the run is set up), to `urls`, the services of `configs`, and with `fromEnvironment`
    /// those of Apprise's own defaults (`APPRISE_URLS`, `APPRISE_CONFIG` or `APPRISE_CONFIG_PATH`, else its
    /// default configuration files).
    /// - Throws: `DeliveryFailure` (`.usage`) naming the package to install when there is no `apprise`, or the
    ///   configuration file that cannot be read.
    package init(urls: [String], configs: [String], fromEnvironment: Bool = false, format: String?) throws(DeliveryFailure) {
        guard let path = ExecutableSearch.path(named: "apprise", searchPath: LaunchEnvironment.variables["PATH"]) else {
            throw DeliveryFailure.usage("--notify needs Apprise, which is not installed: install the Debian package apprise (apt install apprise)")
        }
        for config in configs where !FileManager.default.isReadableFile(atPath: config) {
            let reason = FileManager.default.fileExists(atPath: config) ? "it cannot be read (permission denied)" : "no such file"
            throw DeliveryFailure.usage("--notify-config: cannot read \(config): \(reason)")
        }
        self.urls = urls
        self.configs = configs
        self.fromEnvironment = fromEnvironment
        self.format = format
        apprise = path
    }

    /// The services of one Apprise call each, and how to name them: Apprise ignores configuration files when it
    /// is given URLs, and its own defaults when it is given either, so each kind is a call of its own.
    private var services: [(arguments: [String], name: String)] {
        (urls.isEmpty ? [] : [(urls, "the URLs given")]) + configs.map { (["--config", $0], "--notify-config \($0)") }
            + (fromEnvironment ? [([], "Apprise's variables and configuration files")] : [])
    }

    /// Asks Apprise, without sending anything (its dry run), whether it can use every URL and configuration.
    /// - Throws: `DeliveryFailure` (`.usage`) with Apprise's reason when it cannot, even for one URL among several.
    package func check() async throws(DeliveryFailure) {
        for service in services {
            let (status, said) = try await apprise(["--dry-run", "--body", "webparse"] + service.arguments, input: nil)
            // With several URLs, Apprise's dry run succeeds when one of them works, and logs an error for the others.
            guard status == 0, !said.contains(" - ERROR - ") else {
                throw DeliveryFailure.usage("--notify: Apprise cannot send with \(service.name): \(Self.reason(in: said, status: status))")
            }
        }
    }

    /// What one message says of a job: its new items, those that changed, those removed; for a result that is not a
    /// list, how it changed (`diff`).
    package struct News {
        package var added: [Data] = []
        package var changed: [Data] = []
        package var removed: [Data] = []
        package var diff: String?

        package var isEmpty: Bool { added.isEmpty && changed.isEmpty && removed.isEmpty && diff == nil }

        /// The news of `added`, `changed` and `removed` items, or of a value's `diff`.
        package init(added: [Data] = [], changed: [Data] = [], removed: [Data] = [], diff: String? = nil) {
            self.added = added
            self.changed = changed
            self.removed = removed
            self.diff = diff
        }
    }

    /// Sends `news` of the job `job`: a line per item (`changed: …` and `removed: …` for those), or the diff.
    /// - Throws: `DeliveryFailure` (`.failed`) with what Apprise said when it could not send.
    package func send(_ news: News, of job: String) async throws(DeliveryFailure) {
        let counts = [(news.added.count, "new"), (news.changed.count, "changed"), (news.removed.count, "removed")].filter { $0.0 > 0 }
        let title = news.diff == nil ? "webparse: \(job): " + counts.map { "\($0.0) \($0.1)" }.joined(separator: ", ") : "webparse: \(job): changed"
        let lines =
            news.added.map { line(for: $0, of: job) } + news.changed.map { "changed: " + line(for: $0, of: job) }
            + news.removed.map { "removed: " + line(for: $0, of: job) }
        try await send(title: title, body: news.diff ?? lines.joined(separator: "\n"), about: "the news of \(job)")
    }

    /// Says that the job `job` fails (`failing`, after `runs` runs in a row), or that it recovered from `failing`.
    /// - Throws: `DeliveryFailure` (`.failed`) with what Apprise said when it could not send.
    package func sendHealth(of job: String, failing: StateFile.Failing, runs: Int?) async throws(DeliveryFailure) {
        let title: String
        let body: String
        if let runs {
            title = "webparse: \(job) is failing"
            body = "\(job) failed \(runs) run\(runs == 1 ? "" : "s") in a row (\(failing.code), since \(failing.since)): \(failing.message)"
        } else {
            title = "webparse: \(job) recovered"
            body = "\(job) works again; it failed (\(failing.code)) since \(failing.since): \(failing.message)"
        }
        try await send(title: title, body: body, about: "the health of \(job)")
    }

    /// Sends one message, titled `title`, to every service.
    private func send(title: String, body: String, about: String) async throws(DeliveryFailure) {
        for service in services {
            let (status, said) = try await apprise(["--verbose", "--title", title] + service.arguments, input: body)
            guard status == 0 else {
                throw DeliveryFailure(
                    message: "--notify: Apprise could not send \(about) with \(service.name): " + Self.reason(in: said, status: status), kind: .failed)
            }
        }
    }

    /// What Apprise said went wrong: its error and warning lines, without their time stamps.
    package static func reason(in said: String, status: Int32) -> String {
        let lines = said.split(separator: "\n").compactMap { line -> String? in
            for level in [" - ERROR - ", " - WARNING - "] {
                if let range = line.firstRange(of: level) { return String(line[range.upperBound...]) }
            }
            return nil
        }
        return lines.isEmpty ? "exit status \(status)" : lines.joined(separator: "; ")
    }

    /// Runs Apprise with `arguments`, writing `input` (if any) as the message body, and returns its exit status
    /// and what it wrote on stdout and stderr together.
    /// - Throws: `DeliveryFailure` (`.failed`) when it cannot be started.
    private func apprise(_ arguments: [String], input body: String?) async throws(DeliveryFailure) -> (Int32, String) {
        do throws(ChildProcess.StartFailure) {
            let outcome = try await ChildProcess.run(apprise, arguments: arguments, environment: LaunchEnvironment.variables, input: body)
            return (outcome.status, outcome.output)
        } catch {
            throw DeliveryFailure(message: "--notify: cannot start \(apprise): \(error)", kind: .failed)
        }
    }

    /// The message line for `item`.
    package func line(for item: Data, of job: String) -> String {
        let value = try? JSONNode.parse(Array(item), rules: .lenient)
        guard let format else { return Self.summary(of: value) ?? String(decoding: item, as: UTF8.self) }
        // One pass over the template: what a placeholder is replaced with is never read as a template again.
        var line = ""
        var rest = format[...]
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            line += rest[..<open]
            let name = String(rest[rest.index(after: open)..<close])
            switch name {
            case "job": line += job
            case "item": line += String(decoding: item, as: UTF8.self)
            default: line += Self.text(at: name, in: value) ?? ""
            }
            rest = rest[rest.index(after: close)...]
        }
        return line + rest
    }

    /// A title or name (or the first text) of an object item, and its URL; a text item as it is.
    private static func summary(of value: JSONNode?) -> String? {
        if let text = value?.string { return text }
        guard let value, case .object(let members) = value.value else { return nil }
        let label =
            ["title", "name", "text"].lazy.compactMap { value[$0]?.string }.first
            ?? members.map(\.key).sorted().lazy.compactMap { value[$0]?.string }.first
        let url = ["url", "link", "href"].lazy.compactMap { value[$0]?.string }.first
        let parts = [label, url == label ? nil : url].compactMap { $0 }
        return parts.isEmpty ? nil : parts.joined(separator: " ")
    }

    /// The value at the dot-separated `path` of an object item, as text.
    private static func text(at path: String, in value: JSONNode?) -> String? {
        var current = value
        for key in path.split(separator: ".") { current = current?[String(key)] }
        switch current?.value {
        case .string(let text): return text
        case .number(let number): return JSONNode.written(number)
        case nil: return nil
        case _?: return current.map(CanonicalJSON.text)
        }
    }
}
