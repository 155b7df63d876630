/// The shared browsing context of a set of jobs: their cookies, cache and network process.
///
/// Pages created for jobs run with the same session share what a browser shares between its tabs. A session
/// keeps everything in memory; nothing is written to disk. Create one and pass it to every `WebParser` that
/// should share it; it is released, with its network process, when the last reference goes.
public final class WebParserSession: Sendable {
    let browsingContext = BrowsingContext()

    /// Creates an empty, in-memory session. WebKit itself starts on the first job, not here.
    public init() {}
}
