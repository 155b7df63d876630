/// The shared browsing context of a set of jobs: their cookies, cache, network process, and the pages they
/// reuse.
///
/// Pages created for jobs run with the same session share what a browser shares between its tabs. A session
/// keeps everything in memory; nothing is written to disk. Create one and pass it to every `WebParser` that
/// should share it; it is released, with its pages and network process, when the last reference goes.
public final class WebParserSession: Sendable {
    /// How a session treats its pages.
    public struct Configuration: Sendable, Equatable {
        /// How many loads a page serves before it is replaced by a fresh one (with a fresh web process).
        public var recycleAfter: Int
        /// The most memory, in MiB, one page's web process may use before WebKit kills it and its job fails
        /// with `.memoryLimitExceeded`; nil for no limit.
        public var memoryLimit: Int?

        /// A configuration; by default pages are recycled after 50 loads and limited to 2048 MiB each.
        public init(recycleAfter: Int = 50, memoryLimit: Int? = 2048) {
            self.recycleAfter = recycleAfter
            self.memoryLimit = memoryLimit
        }
    }

    /// The configuration the session was created with.
    public let configuration: Configuration
    let browsingContext: BrowsingContext

    /// Creates an empty, in-memory session. WebKit itself starts on the first job, not here.
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        browsingContext = BrowsingContext(configuration: configuration)
    }
}
