import CWebKitGTK
import Foundation

/// The WebKit web context behind a session: one network process, one cookie jar and cache for its pages,
/// the content filters its pages use, and the idle pages that the next jobs reuse. Created on first use and
/// freed with the session.
@WebKitActor
final class BrowsingContext {
    /// The most idle pages kept for reuse.
    static let idleLimit = 8

    private let configuration: WebParserSession.Configuration
    private var context: OpaquePointer?
    private var filters: [ContentBlocking: ContentFilter] = [:]
    private var languages: [String] = []
    private var idle: [WebKitPage] = []
    /// Pages handed back while still loading, whose load is being stopped.
    private var settling: [WebKitPage] = []

    nonisolated init(configuration: WebParserSession.Configuration) {
        self.configuration = configuration
    }

    /// A page for `options`: an idle one made with the same options, or a fresh one.
    /// - Throws: `WebParserError` with kind `.environmentUnavailable` when the page's content filter cannot
    ///   be compiled.
    func checkOut(options: PageOptions) async throws -> any WebPage {
        let context = self.context ?? wk_context_new_ephemeral(UInt32(configuration.memoryLimit ?? 0), 1)!
        self.context = context
        if options.languages != languages {
            withCStringArray(options.languages) { wk_context_set_preferred_languages(context, $0) }
            languages = options.languages
        }
        if let index = idle.firstIndex(where: { $0.options == options }) {
            return idle.remove(at: index)
        }
        if let index = settling.firstIndex(where: { $0.options == options }), let page = await settled(settling.remove(at: index)) {
            return page
        }
        let filter = try await filter(for: options.blocking)
        return WebKitPage(context: context, options: options, filter: filter)
    }

    /// Takes back a page a job is done with: kept for the next job when `reusable` (its job succeeded) and it
    /// has served fewer than `recycleAfter` loads, closed otherwise. A page still loading (its result came
    /// first) is stopped and kept only once its load has ended, so that no event of that load reaches the
    /// next job.
    func checkIn(_ page: any WebPage, reusable: Bool) {
        guard reusable, let page = page as? WebKitPage, page.loads < configuration.recycleAfter,
              idle.count < Self.idleLimit else {
            page.close()
            return
        }
        guard page.isLoading else {
            idle.append(page)
            return
        }
        settling.append(page)
        page.whenLoadEnds = { [weak self, weak page] in
            guard let self, let page, let index = self.settling.firstIndex(where: { $0 === page }) else { return }
            self.settling.remove(at: index)
            if self.idle.count < Self.idleLimit { self.idle.append(page) } else { page.close() }
        }
        page.stopLoading()
    }

    /// `page`, taken from `settling`, once its load has ended; nil (and the page closed) if that takes more
    /// than a second.
    private func settled(_ page: WebKitPage) async -> WebKitPage? {
        let ended = OneShot<Bool>()
        page.whenLoadEnds = { ended.resolve(.success(true)) }
        let timer = Task {
            try? await Task.sleep(for: .seconds(1))
            ended.resolve(.success(false))
        }
        defer { timer.cancel() }
        guard (try? await ended.wait()) == true else {
            page.close()
            return nil
        }
        return page
    }

    private func filter(for blocking: ContentBlocking) async throws -> ContentFilter? {
        guard !blocking.isEmpty else { return nil }
        if let filter = filters[blocking] { return filter }
        let filter = try await ContentFilter.compile(blocking)
        filters[blocking] = filter
        return filter
    }

    isolated deinit {
        (idle + settling).forEach { $0.close() }
        if let context { wk_context_free(context) }
    }
}
