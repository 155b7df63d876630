import CWebKitGTK
import Foundation

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

    /// The WebKit content-blocker rules that block `resources`: one rule for every URL.
    static func rules(blocking resources: Set<WebParserJob.Resource>) -> String {
        let types = resources.sorted().flatMap(\.contentBlockerTypes).map { "\"\($0)\"" }.joined(separator: ",")
        return #"[{"trigger":{"url-filter":".*","resource-type":[\#(types)]},"action":{"type":"block"}}]"#
    }

    /// Compiles a filter blocking `resources` (which must not be empty).
    /// - Throws: `WebParserError` with kind `.environmentUnavailable` if WebKit rejects the rules or has no
    ///   place to compile them.
    static func compile(blocking resources: Set<WebParserJob.Resource>) async throws -> ContentFilter {
        // WebKit compiles into files it then maps: a private folder, removed as soon as the filter is loaded.
        let directory = FileManager.default.temporaryDirectory.appending(path: "webparse-filter-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let identifier = resources.sorted().map(\.rawValue).joined(separator: "-")
        return try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<ContentFilter, Error>) in
            let box = Unmanaged.passRetained(CompilationBox(continuation)).toOpaque()
            wk_content_filter_compile(directory.path, identifier, rules(blocking: resources), { context, filter, message in
                let box = Unmanaged<CompilationBox>.fromOpaque(context!).takeRetainedValue()
                if let filter {
                    box.continuation.resume(returning: WebKitActor.assumeIsolated { ContentFilter(pointer: filter) })
                } else {
                    let reason = message.map { String(cString: $0) } ?? "unknown error"
                    box.continuation.resume(throwing: WebParserError(.environmentUnavailable("cannot compile the content filter: \(reason)")))
                }
            }, box)
        }
    }
}

private final class CompilationBox {
    let continuation: CheckedContinuation<ContentFilter, Error>
    init(_ continuation: CheckedContinuation<ContentFilter, Error>) { self.continuation = continuation }
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
