import FoundationEssentials

/// What the engine needs from a page: load a URL, run JavaScript, report what happens, close.
///
/// The engine depends on this protocol only, so its logic is tested with a fake page; `WebKitPage` is the
/// real one.
@WebKitActor
protocol WebPage: AnyObject {
    /// Receives every event of the page, in order, until `close()`.
    var eventHandler: ((PageEvent) -> Void)? { get set }

    /// Starts loading `request` in place of whatever the page shows.
    func load(_ request: PageRequest)

    /// Calls `body` as the body of an async function in the page's main world (`world` nil) or in the isolated
    /// script world named `world`, and awaits a returned Promise. `completion` is called exactly once, unless the
    /// page is closed first.
    func callAsyncFunction(
        _ body: String, sourceName: String, world: String?, completion: @escaping @WebKitActor (JavaScriptReply) -> Void)

    /// Clicks the primary button at (`x`, `y`), in CSS pixels from the viewport's top left corner, as a user's
    /// pointer does: the page gets trusted pointer and mouse events.
    func click(x: Double, y: Double)

    /// Presses and releases the key with the GDK name `key` (`Return`, `Tab`, `a`) as a user's keyboard does,
    /// on the focused element; false when no key has that name.
    func press(key: String) -> Bool

    /// Writes a PNG of what the page shows (the viewport, or the whole document with `fullPage`) to its file, as
    /// `screenshot` says; `completion` gets nil once it is written, or what went wrong. Called once, unless the page is
    /// closed first.
    func snapshot(_ screenshot: WebParserJob.Screenshot, completion: @escaping @WebKitActor (String?) -> Void)

    /// Whether another job's page is in use in this page's web process: it shares the process's one thread for
    /// scripts, so a time-out or the process's end may be that page's doing.
    var sharesProcessWithAnotherJob: Bool { get }

    /// Asks the page's web process for an answer that no page script can hold up or forge: `answered` is called
    /// once the process's thread is free to give it, unless the page is closed first.
    func ping(answered: @escaping @WebKitActor () -> Void)

    /// The main document's title now (its `<title>`, or what its scripts set); nil when it has none.
    var title: String? { get }

    /// Stops everything the page does, ends its web process and releases it. No event follows.
    func close()
}

/// How a page comes back from an attempt, which decides what becomes of it and of its web process.
enum PageReturn: Sendable, Equatable {
    /// The attempt succeeded: the page's web process can serve another job.
    case succeeded
    /// The attempt failed while the page still answered.
    case failed
    /// The attempt ended while the page may have stopped answering (it ran out of time, or was cancelled): its
    /// web process ends, even when other pages share it.
    case unresponsive

    /// How a page comes back from an attempt that ended with `result` (nil: cancelled).
    init(_ result: Result<AttemptResult, WebParserError>?) {
        switch result {
        case .success(let result)? where !result.endedAtTimeOut: self = .succeeded
        case .failure(let error)? where !error.kind.isTimeOut && !error.kind.isUnresponsive: self = .failed
        default: self = .unresponsive
        }
    }
}
