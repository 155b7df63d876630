internal import CWebKitGTK
import FoundationEssentials

/// A compiled WebKit content filter that stops kinds of subresources before they reach the network.
@WebKitActor
final class ContentFilter {
    let pointer: OpaquePointer

    private init(pointer: OpaquePointer) {
        self.pointer = pointer
    }

    isolated deinit {
        wk_content_filter_free(pointer)
    }

    /// The WebKit content-blocker rules for `blocking`: one rule for the kinds of resource, on every URL, and
    /// one per URL pattern, on every kind of subresource (never the page itself).
    static func rules(_ blocking: ContentBlocking) -> String {
        func list(_ names: [String]) -> String { names.map { JSONText.text(.string($0)) }.joined(separator: ",") }
        var rules: [String] = []
        if !blocking.resources.isEmpty {
            let types = list(blocking.resources.sorted().flatMap(\.contentBlockerTypes))
            rules.append(#"{"trigger":{"url-filter":".*","resource-type":[\#(types)]},"action":{"type":"block"}}"#)
        }
        let subresources = list(WebParserJob.Resource.allCases.flatMap(\.contentBlockerTypes))
        for pattern in blocking.urlPatterns {
            let filter = JSONText.text(.string(pattern))
            rules.append(#"{"trigger":{"url-filter":\#(filter),"resource-type":[\#(subresources)]},"action":{"type":"block"}}"#)
        }
        return "[" + rules.joined(separator: ",") + "]"
    }

    /// Compiles a filter for `blocking` (which must block something).
    /// - Throws: `WebParserError` with kind `.environmentUnavailable` if WebKit rejects the rules or has no
    ///   place to compile them.
    static func compile(_ blocking: ContentBlocking) async throws -> ContentFilter {
        // WebKit compiles into files it then maps: a private folder, removed as soon as the filter is loaded.
        let temporary = FileManager.default.temporaryDirectory
        let directory = temporary.appending(path: "webparse-filter-\(UUID().uuidString)")
        do {
            try PrivateFiles.makeFolder(directory)
        } catch {
            throw WebParserError(.environmentUnavailable("no place to compile the content filter in \(temporary.path) (TMPDIR): \(error)"))
        }
        defer { try? FileManager.default.removeItem(at: directory) }
        let identifier = "filter"
        let rules = rules(blocking)
        do {
            return try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<ContentFilter, Error>) in
                let box = CallbackBox.retained(continuation)
                wk_content_filter_compile(
                    directory.path, identifier, rules,
                    { context, filter, message in
                        let continuation = CallbackBox<CheckedContinuation<ContentFilter, Error>>.take(context)
                        if let filter {
                            continuation.resume(returning: WebKitActor.assumeIsolated { ContentFilter(pointer: filter) })
                        } else {
                            continuation.resume(throwing: CompileFailure(reason: message.map { String(cString: $0) } ?? "unknown error"))
                        }
                    }, box)
            }
        } catch let failure as CompileFailure {
            let reason = failure.reason + (PrivateFiles.kibibytesFreeIfFull(in: directory).map { " (No space left on device: \($0) KiB free)" } ?? "")
            throw WebParserError(.environmentUnavailable("cannot compile the content filter in \(directory.path) (TMPDIR): \(reason)"))
        }
    }

    /// WebKit's reason for not compiling a filter.
    private struct CompileFailure: Error {
        let reason: String
    }
}

/// What a page's content filter blocks: kinds of resource, and URL patterns.
struct ContentBlocking: Sendable, Hashable {
    var resources: Set<WebParserJob.Resource>
    var urlPatterns: [String]

    var isEmpty: Bool { resources.isEmpty && urlPatterns.isEmpty }
}

private extension WebParserJob.Resource {
    /// The names WebKit's content blockers use for this kind of resource.
    var contentBlockerTypes: [String] {
        switch self {
        case .image: ["image"]
        case .media: ["media"]
        case .font: ["font"]
        case .stylesheet: ["style-sheet"]
        case .script: ["script"]
        case .fetch: ["fetch"]
        case .websocket: ["websocket"]
        case .ping: ["ping"]
        case .other: ["other"]
        }
    }
}
