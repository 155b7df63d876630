import CWebKitGTK
import Foundation

/// The WebKit web context behind a session: one network process, one cookie jar and cache for its pages,
/// and the content filters its pages use. Created on first use and freed with the session.
@WebKitActor
final class BrowsingContext {
    private var context: OpaquePointer?
    private var filters: [Set<WebParserJob.Resource>: ContentFilter] = [:]
    private var languages: [String] = []

    nonisolated init() {}

    /// A fresh page in this context.
    /// - Throws: `WebParserError` with kind `.environmentUnavailable` when the page's content filter cannot
    ///   be compiled.
    func makePage(options: PageOptions) async throws -> any WebPage {
        let filter = try await filter(blocking: options.blockedResources)
        let context = self.context ?? wk_context_new_ephemeral()!
        self.context = context
        if options.languages != languages {
            withCStringArray(options.languages) { wk_context_set_preferred_languages(context, $0) }
            languages = options.languages
        }
        return WebKitPage(context: context, options: options, filter: filter)
    }

    private func filter(blocking resources: Set<WebParserJob.Resource>) async throws -> ContentFilter? {
        guard !resources.isEmpty else { return nil }
        if let filter = filters[resources] { return filter }
        let filter = try await ContentFilter.compile(blocking: resources)
        filters[resources] = filter
        return filter
    }

    isolated deinit {
        if let context { wk_context_free(context) }
    }
}
