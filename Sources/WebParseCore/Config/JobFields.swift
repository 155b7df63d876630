import Foundation
import WebParser

/// A job as its config fields are read.
package struct JobDraft {
    var job = WebParserJob(url: URL(fileURLWithPath: "/"), script: "")
    var name: String?
    var url: URL?
    var script: String?
    var tracking = Tracking()
}

/// One field a job can have: its key, what it means, how `webparse eval` spells it, and how it is read.
/// Config files, `defaults`, `eval`'s options and the JSON Schema all follow this table.
package struct JobField: Sendable {
    /// How the command line gives a field: `--timeout 5`, `--header 'A: b'` (repeatable), `--no-javascript`.
    package struct Option: Sendable {
        package let name: String
        /// The value's placeholder in help; nil for a flag.
        package let valueName: String?
        /// Whether the option may be given more than once, each adding a value.
        package let repeatable: Bool
        /// What the option does, in its own terms, for `webparse help eval`.
        package let help: String
        /// Turns the option's values (one per use; empty for a flag) into the field's config value.
        package let node: @Sendable ([String]) throws(UsageError) -> JSONNode.Value
    }

    package let key: String
    /// What the field does, for `webparse help`.
    package let summary: String
    package let option: Option?
    let read: @Sendable (inout FieldReader, String, JSONNode, inout JobDraft) -> Void
}

package enum JobFields {
    /// Every job field, in the order help lists them.
    package static let all: [JobField] = [
        JobField(key: "name", summary: "the key of the job's result in a \"jobs\" config; unique (default: from the URL)",
                 option: nil) { reader, path, node, draft in draft.name = reader.string(path, node) },
        JobField(key: "url", summary: "the page: an http(s) or file URL, a path relative to the config, or a host name",
                 option: nil) { reader, path, node, draft in draft.url = reader.url(path, node) },
        JobField(key: "script", summary: "the JavaScript that returns the data: an expression, an IIFE or a function",
                 option: nil) { reader, path, node, draft in draft.script = reader.string(path, node) },
        JobField(key: "scriptFile", summary: "a file holding the script, relative to the config (instead of script)",
                 option: nil) { reader, path, node, draft in draft.script = reader.fileContents(path, node) },
        JobField(key: "waitFor", summary: "JavaScript that must be truthy before the script is evaluated; the script's result is then final, empty included",
                 option: .text("wait-for", "SCRIPT", "wait until SCRIPT is truthy before taking the result (then final, empty included)")) { reader, path, node, draft in
            draft.job.evaluation.waitFor = reader.string(path, node)
        },
        JobField(key: "waitForSelector", summary: "a CSS selector that must match an element before the script is evaluated; the result is then final, empty included",
                 option: .text("wait-for-selector", "SELECTOR", "wait until an element matches SELECTOR before taking the result (then final, empty included)")) { reader, path, node, draft in
            draft.job.evaluation.waitForSelector = reader.string(path, node)
        },
        JobField(key: "timeout", summary: "seconds one attempt may take, loading and waiting together (default \(seconds(WebParserJob.defaultTimeout)))",
                 option: .number("timeout", "SECONDS", "the limit for loading and waiting together (default \(seconds(WebParserJob.defaultTimeout)))")) { reader, path, node, draft in
            if let value = reader.seconds(path, node, in: 0.1...86_400) { draft.job.timeout = value }
        },
        JobField(key: "pollInterval", summary: "seconds between evaluations while the result is empty (default \(seconds(Evaluation.defaultPollInterval)))",
                 option: .number("poll-interval", "SECONDS", "time between evaluations while the result is empty (default \(seconds(Evaluation.defaultPollInterval)))")) { reader, path, node, draft in
            if let value = reader.seconds(path, node, in: 0.01...3600) { draft.job.evaluation.pollInterval = value }
        },
        JobField(key: "retries", summary: "attempts after a transient failure, 0 to 10 (default \(RetryPolicy.defaultRetries))",
                 option: .number("retries", "COUNT", "attempts after a transient failure, 0 to 10 (default \(RetryPolicy.defaultRetries))")) { reader, path, node, draft in
            if let value = reader.integer(path, node, in: 0...10, what: "a number of retries") { draft.job.retry.retries = value }
        },
        JobField(key: "retryDelay", summary: "seconds before the first retry, doubling for each next one (default \(seconds(RetryPolicy.defaultDelay)))",
                 option: .number("retry-delay", "SECONDS", "wait before the first retry, doubling after (default \(seconds(RetryPolicy.defaultDelay)))")) { reader, path, node, draft in
            if let value = reader.seconds(path, node, in: 0...3600) { draft.job.retry.delay = value }
        },
        JobField(key: "retryMissingData", summary: "also retry when the page loaded but the script's data never came (default false)",
                 option: .flag("retry-missing-data", .bool(true), "also retry when the page loaded but the data never came")) { reader, path, node, draft in
            if let value = reader.bool(path, node) { draft.job.retry.retriesMissingData = value }
        },
        JobField(key: "userAgent", summary: "the user agent the page sees (default: WebKit's)",
                 option: .text("user-agent", "TEXT", "the user agent the page sees")) { reader, path, node, draft in
            draft.job.page.userAgent = reader.string(path, node)
        },
        JobField(key: "viewport", summary: "the window size, {\"width\": 1280, \"height\": 800} or \"1280x800\"",
                 option: .text("viewport", "WIDTHxHEIGHT", "the window size (default 1280x800)")) { reader, path, node, draft in
            if let value = reader.viewport(path, node) { draft.job.page.viewport = value }
        },
        JobField(key: "language", summary: "languages to ask for, best first: \"fr-FR\" or [\"fr-FR\", \"fr\"]",
                 option: .text("language", "LANGUAGES", "languages to ask for, best first: fr-FR,fr")) { reader, path, node, draft in
            if let value = reader.stringList(path, node, what: "language tags") { draft.job.page.languages = value }
        },
        JobField(key: "headers", summary: "extra HTTP headers for the page's own request, {\"Name\": \"value\"}",
                 option: .headers) { reader, path, node, draft in
            if let value = reader.headers(path, node) { draft.job.load.headers = value }
        },
        JobField(key: "block", summary: "resource kinds never requested (default [\"image\", \"media\", \"font\"]; [] for none)",
                 option: .list("block", "KINDS", "resource kinds never requested, comma-separated, or none (default image,media,font)")) { reader, path, node, draft in
            if let value = reader.resources(path, node) { draft.job.page.blockedResources = value }
        },
        JobField(key: "blockURLs", summary: "URL patterns (WebKit URL filters, regular expressions) whose requests are never made",
                 option: .patterns) { reader, path, node, draft in
            if let value = reader.urlPatterns(path, node) { draft.job.page.blockedURLs = value }
        },
        JobField(key: "auth", summary: "HTTP authentication: {\"user\": …, \"password\": …} or {\"user\": …, \"passwordEnv\": \"VARIABLE\"}",
                 option: .user) { reader, path, node, draft in
            draft.job.load.credentials = reader.credentials(path, node)
        },
        JobField(key: "ignoreTLSErrors", summary: "accept the server's untrusted certificate (default false: fail at once)",
                 option: .flag("ignore-tls-errors", .bool(true), "accept the server's untrusted certificate")) { reader, path, node, draft in
            if let value = reader.bool(path, node) { draft.job.load.ignoresTLSErrors = value }
        },
        JobField(key: "cache", summary: "\"reload\" fetches the page and all it loads from the server; \"default\" uses the HTTP cache",
                 option: .text("cache", "POLICY", "reload: fetch everything from the server; default: use the HTTP cache")) { reader, path, node, draft in
            guard let text = reader.string(path, node) else { return }
            guard let policy = WebParserJob.CachePolicy(rawValue: text) else {
                reader.problem(path, at: node, "expected \"default\" or \"reload\", got \(node.excerpt)")
                return
            }
            draft.job.load.cachePolicy = policy
        },
        JobField(key: "userScripts", summary: "user scripts (.user.js, Tampermonkey headers) to run in the page, relative to the config",
                 option: .repeated("user-script", "FILE", "run the user script FILE (a .user.js) in the page; repeatable")) { reader, path, node, draft in
            if let value = reader.userScripts(path, node) { draft.job.page.userScripts = value }
        },
        JobField(key: "collect", summary: "\"result\": the script's result (default); \"emitted\": what user scripts pass to webparse.emit",
                 option: .text("collect", "WHAT", "result (default), or emitted: the values user scripts pass to webparse.emit")) { reader, path, node, draft in
            if let value = reader.choice(path, node, WebParserJob.Collect.self) { draft.job.evaluation.collect = value }
        },
        JobField(key: "logConsole", summary: "print the page's console lines and uncaught errors on stderr (default false)",
                 option: .flag("log-console", .bool(true), "print the page's console lines and uncaught errors on stderr")) { reader, path, node, draft in
            if let value = reader.bool(path, node) { draft.job.page.capturesConsole = value }
        },
        JobField(key: "popups", summary: "\"follow\" loads a window the page opens in its place (default); \"ignore\" does not",
                 option: .text("popups", "POLICY", "follow (default): load a window the page opens in its place; ignore")) { reader, path, node, draft in
            if let value = reader.choice(path, node, WebParserJob.PopupPolicy.self) { draft.job.page.popups = value }
        },
        JobField(key: "screenshot", summary: "a PNG of the page once the result is ready: \"out.png\" or {\"file\": …, \"fullPage\": true}",
                 option: .text("screenshot", "FILE", "write a PNG of the page to FILE once the result is ready")) { reader, path, node, draft in
            draft.job.evaluation.screenshot = reader.screenshot(path, node)
        },
        JobField(key: "key", summary: "with --state: the field that identifies an item of a list result, such as \"id\" or \"link.href\"",
                 option: nil) { reader, path, node, draft in
            draft.tracking.key = reader.string(path, node)
        },
        JobField(key: "remember", summary: "with --state: how many items to remember, oldest forgotten first (default \(Tracking.defaultRemember))",
                 option: nil) { reader, path, node, draft in
            if let value = reader.integer(path, node, in: 1...1_000_000, what: "a number of items") { draft.tracking.remember = value }
        },
        JobField(key: "javaScript", summary: "false stops the page's own scripts; the job's script still runs (default true)",
                 option: .flag("no-javascript", .bool(false), "stop the page's own scripts (webparse's JavaScript still runs)")) { reader, path, node, draft in
            if let value = reader.bool(path, node) { draft.job.page.pageScripts = value }
        },
    ]

    /// The width of the key column when fields are listed: the longest key and two spaces.
    package static let keyWidth = (all.map(\.key.count).max() ?? 0) + 2

    /// The field named `key`.
    static func field(_ key: String) -> JobField? { all.first { $0.key == key } }
}

private extension JobField.Option {
    static func text(_ name: String, _ valueName: String, _ help: String) -> Self {
        Self(name: name, valueName: valueName, repeatable: false, help: help) { values in .string(values[0]) }
    }

    /// A number written as JSON writes it, or the text itself so that the field's check can say what is
    /// wrong with it.
    static func number(_ name: String, _ valueName: String, _ help: String) -> Self {
        Self(name: name, valueName: valueName, repeatable: false, help: help) { values in
            guard let node = try? JSONNode.parse(Array(values[0].utf8)), case .number = node.value else { return .string(values[0]) }
            return node.value
        }
    }

    /// A comma-separated list; `none` for an empty one.
    static func list(_ name: String, _ valueName: String, _ help: String) -> Self {
        Self(name: name, valueName: valueName, repeatable: false, help: help) { values in
            let items = values[0] == "none" ? [] : values[0].split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            return .array(items.map { JSONNode(value: .string($0), line: 0, column: 0) })
        }
    }

    static func flag(_ name: String, _ value: JSONNode.Value, _ help: String) -> Self {
        Self(name: name, valueName: nil, repeatable: false, help: help) { _ in value }
    }

    /// `--user USER`, with the password from the environment variable WEBPARSE_PASSWORD (never on a command
    /// line, where other users see it).
    static let user = Self(name: "user", valueName: "USER", repeatable: false,
                           help: "HTTP authentication as USER; the password comes from $WEBPARSE_PASSWORD") { values in
        .object([("user", JSONNode(value: .string(values[0]), line: 0, column: 0)),
                 ("passwordEnv", JSONNode(value: .string("WEBPARSE_PASSWORD"), line: 0, column: 0))])
    }

    /// An option given once per value, each adding one to the field's array.
    static func repeated(_ name: String, _ valueName: String, _ help: String) -> Self {
        Self(name: name, valueName: valueName, repeatable: true, help: help) { values in
            .array(values.map { JSONNode(value: .string($0), line: 0, column: 0) })
        }
    }

    /// `--block-url PATTERN`, once per pattern.
    static let patterns = Self(name: "block-url", valueName: "PATTERN", repeatable: true,
                               help: "never request subresources whose URL matches PATTERN (a WebKit URL filter); repeatable") { values in
        .array(values.map { JSONNode(value: .string($0), line: 0, column: 0) })
    }

    /// `--header 'Name: value'`, once per header.
    static let headers = Self(name: "header", valueName: "'NAME: VALUE'", repeatable: true,
                              help: "an extra HTTP header for the page's own request; repeatable") { values throws(UsageError) in
        var members: [(key: String, value: JSONNode)] = []
        for value in values {
            guard let colon = value.firstIndex(of: ":") else {
                throw UsageError(message: "--header: expected 'Name: value', got '\(value)'")
            }
            let text = value[value.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            members.append((String(value[..<colon]).trimmingCharacters(in: .whitespaces),
                            JSONNode(value: .string(text), line: 0, column: 0)))
        }
        return .object(members)
    }
}

/// `duration` in seconds as help writes it: "30", "0.1".
private func seconds(_ duration: Duration) -> String {
    let value = Double(duration.milliseconds) / 1000
    return value == value.rounded() ? String(Int(value)) : String(value)
}
