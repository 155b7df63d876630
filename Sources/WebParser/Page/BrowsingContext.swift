import CWebKitGTK

/// The WebKit web context behind a session: one network process, one cookie jar and cache for its pages.
/// Created on first use and freed with the session.
@WebKitActor
final class BrowsingContext {
    private var context: OpaquePointer?

    nonisolated init() {}

    /// A fresh page in this context.
    func makePage(options: PageOptions) -> any WebPage {
        let context = self.context ?? wk_context_new_ephemeral()!
        self.context = context
        return WebKitPage(context: context, options: options)
    }

    isolated deinit {
        if let context { wk_context_free(context) }
    }
}
