import Foundation
import WebParser

/// Settings of a whole run: a config may give them at its top level, and `run`'s options override them.
package struct RunSettings: Equatable {
    package var concurrency: Int?
    package var recycleAfter: Int?
    package var memoryLimit: Int?
}

/// The run settings' keys, ranges and command-line spellings, in one place.
package enum RunSettingsField: String, CaseIterable {
    case concurrency, recycleAfter, memoryLimit

    var range: ClosedRange<Int> {
        switch self {
        case .concurrency: 1...64
        case .recycleAfter: 1...100_000
        case .memoryLimit: 0...1_048_576
        }
    }

    var what: String {
        switch self {
        case .concurrency: "a number of pages"
        case .recycleAfter: "a number of loads"
        case .memoryLimit: "a number of MiB (0: no limit)"
        }
    }

    var option: String {
        switch self {
        case .concurrency: "--concurrency"
        case .recycleAfter: "--recycle-after"
        case .memoryLimit: "--memory-limit"
        }
    }

    /// The value of the option, checked like the config field.
    package func parse(_ text: String) throws(UsageError) -> Int {
        guard let value = Int(text), range.contains(value) else {
            throw UsageError(message: "\(option): expected \(what) from \(range.lowerBound) to \(range.upperBound), got '\(text)'")
        }
        return value
    }

    /// Reads the field from a config node into `settings`.
    func read(_ node: JSONNode, with reader: inout FieldReader, into settings: inout RunSettings) {
        guard let value = reader.integer(rawValue, node, in: range, what: what) else { return }
        switch self {
        case .concurrency: settings.concurrency = value
        case .recycleAfter: settings.recycleAfter = value
        case .memoryLimit: settings.memoryLimit = value
        }
    }
}

/// What a config may say about the run's session, at its top level; `run` and `eval` options override it.
package struct SessionSettings: Equatable {
    /// The folder of a persistent session.
    package var directory: URL?
    /// Cookies every job starts with (those for its host).
    package var cookies: [WebParserCookie]?
    package var proxy: WebParserSession.Proxy?

    package init(directory: URL? = nil, cookies: [WebParserCookie]? = nil, proxy: WebParserSession.Proxy? = nil) {
        self.directory = directory
        self.cookies = cookies
        self.proxy = proxy
    }
}

/// The session settings' keys and how a config gives them.
package enum SessionField: String, CaseIterable {
    case session, cookies, proxy

    /// Reads the field from a config node into `settings`; paths are relative to the config's folder.
    func read(_ node: JSONNode, with reader: inout FieldReader, into settings: inout SessionSettings) {
        switch self {
        case .session:
            guard let path = reader.string(rawValue, node) else { return }
            settings.directory = path.hasPrefix("/") ? URL(fileURLWithPath: path) : reader.directory.appending(path: path)
        case .cookies:
            settings.cookies = reader.cookies(rawValue, node)
        case .proxy:
            settings.proxy = reader.proxy(rawValue, node)
        }
    }
}
