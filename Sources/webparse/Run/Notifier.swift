import Foundation
import WebParseCore
import WebParser

/// Sends what a run found new through Apprise (`--notify URL`, Debian's `apprise`: mail, ntfy, Telegram, Slack,
/// Matrix and 80 more services): one message per job with new items, a line per item.
struct Notifier: Sendable {
    /// Apprise URLs, such as `ntfy://topic` or `mailto://user:password@example.com`.
    let urls: [String]
    /// A line per item: `{job}`, `{item}` (its JSON) and `{FIELD}` or `{FIELD.PATH}` of an object item; nil
    /// for the default (a title or name, then a URL, of what the item has).
    let format: String?
    private let apprise: String

    /// A notifier through the `apprise` on the PATH webparse was started with (WebKit may be changing the
    /// environment while the run is set up).
    /// - Throws: `CommandFailure` (exit 2) naming the package to install when there is no `apprise`.
    init(urls: [String], format: String?) throws(CommandFailure) {
        guard let path = ExecutableSearch.path(named: "apprise", searchPath: WebParseCommand.launchEnvironment["PATH"]) else {
            throw CommandFailure.usage("--notify needs Apprise, which is not installed: install the Debian package apprise (apt install apprise)")
        }
        self.urls = urls
        self.format = format
        apprise = path
    }

    /// Sends the new `items` of the job `job`.
    /// - Throws: `CommandFailure` (exit 1) with what Apprise said when it could not send.
    func send(_ items: [Data], of job: String) async throws(CommandFailure) {
        let title = "webparse: \(job): \(items.count) new"
        let body = items.map { line(for: $0, of: job) }.joined(separator: "\n")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: apprise)
        process.arguments = ["--title", title] + urls
        process.environment = WebParseCommand.launchEnvironment
        let input = Pipe()
        let errors = Pipe()
        process.standardInput = input
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors
        let status: Int32
        let said: String
        do {
            // The exit is awaited through the termination handler (waiting on a thread would spin); the body is
            // written and what Apprise says is read on threads of their own, so that neither pipe can fill up
            // and block it, and an Apprise that exits before reading costs a failed write, not a crash.
            let written = Self.onThread { [body] in
                try? input.fileHandleForWriting.write(contentsOf: Data(body.utf8))
                try? input.fileHandleForWriting.close()
            }
            let read = Self.onThread { errors.fileHandleForReading.readDataToEndOfFile() }
            status = try await withCheckedThrowingContinuation { continuation in
                process.terminationHandler = { continuation.resume(returning: $0.terminationStatus) }
                do {
                    try process.run()
                } catch {
                    process.terminationHandler = nil
                    try? input.fileHandleForWriting.close()
                    try? errors.fileHandleForWriting.close()
                    continuation.resume(throwing: error)
                }
            }
            try? errors.fileHandleForWriting.close()
            await written.value
            said = String(decoding: await read.value, as: UTF8.self)
        } catch {
            throw CommandFailure(message: "--notify: cannot start \(apprise): \(error)", code: .jobFailed)
        }
        guard status == 0 else {
            let last = said.split(separator: "\n").last.map(String.init) ?? "exit status \(status)"
            throw CommandFailure(message: "--notify: Apprise could not send the new items of \(job): \(last)", code: .jobFailed)
        }
    }

    /// `work`'s value, computed on a thread of its own (blocking reads and writes stay off the task pool).
    private static func onThread<T: Sendable>(_ work: @escaping @Sendable () -> T) -> Task<T, Never> {
        Task {
            await withCheckedContinuation { continuation in
                Thread { continuation.resume(returning: work()) }.start()
            }
        }
    }

    /// The message line for `item`.
    func line(for item: Data, of job: String) -> String {
        let value = try? JSONSerialization.jsonObject(with: item, options: .fragmentsAllowed)
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
    private static func summary(of value: Any?) -> String? {
        if let text = value as? String { return text }
        guard let object = value as? [String: Any] else { return nil }
        let label = ["title", "name", "text"].lazy.compactMap { object[$0] as? String }.first
            ?? object.keys.sorted().lazy.compactMap { object[$0] as? String }.first
        let url = ["url", "link", "href"].lazy.compactMap { object[$0] as? String }.first
        let parts = [label, url == label ? nil : url].compactMap { $0 }
        return parts.isEmpty ? nil : parts.joined(separator: " ")
    }

    /// The value at the dot-separated `path` of an object item, as text.
    private static func text(at path: String, in value: Any?) -> String? {
        var current = value
        for key in path.split(separator: ".") { current = (current as? [String: Any])?[String(key)] }
        switch current {
        case let text as String: return text
        case let number as NSNumber: return number.stringValue
        case nil: return nil
        case let other?:
            return (try? JSONSerialization.data(withJSONObject: other, options: [.fragmentsAllowed, .sortedKeys]))
                .map { String(decoding: $0, as: UTF8.self) }
        }
    }
}
