import FoundationEssentials

/// The decisions of a job that reads a list spread over pages, made without a page or a clock: after each
/// page's result, find the next page and go there (load its URL, or click its button), then read the next
/// page's result: the first one that differs from the page before (a button that fetches the next page in
/// place shows the old items for a moment). A job without pagination finishes with its first result; a next page
/// that cannot be read ends the job with the pages read before it (`AttemptMachine` sees to that).
struct PageTurner {
    /// What the attempt does.
    enum Command: Equatable {
        /// Calls `body` in the page to find the next page; its reply comes to `found(_:call:)`.
        case find(body: String, call: Int)
        /// Loads the next page's URL in the page.
        case load(URL)
        /// Clicks the next page's button at this point of the viewport.
        case click(x: Double, y: Double)
        /// Evaluates the script again, now or after the duration.
        case read(after: Duration?)
        /// The job's result, every page's together.
        case finish(Data)
        /// The next page cannot be found, and says why.
        case fail(String)
    }

    let pagination: Pagination?
    /// The script's poll interval, the wait before reading a page that still shows the previous page's data.
    let pollInterval: Duration
    private(set) var results = PageResults()
    private var findingCall: Int?
    private var calls = 0
    /// Whether the page is going to the next page, whose result must differ from the last page's.
    private var turning = false

    /// A turner for `pagination` (nil: one page) whose script polls every `pollInterval`.
    init(pagination: Pagination?, pollInterval: Duration) {
        self.pagination = pagination
        self.pollInterval = pollInterval
    }

    /// How many pages have been read.
    var count: Int { results.count }

    /// Whether a page has been read: a time-out then ends the job with the pages read so far.
    var hasPages: Bool { results.count > 0 }

    /// The script's result on the current page.
    mutating func read(_ result: Data) -> [Command] {
        guard let pagination else { return [.finish(result)] }
        guard findingCall == nil else { return [] }
        if turning && result == results.last { return [.read(after: pollInterval)] }
        turning = false
        guard results.add(result), results.count < pagination.maxPages,
            pagination.stopsAfter?.holds(for: result) != true
        else { return [.finish(results.combined)] }
        calls += 1
        findingCall = calls
        return [.find(body: StepScript.nextPage(pagination.next), call: calls)]
    }

    /// The page's answer to the call `call` that looked for the next page.
    mutating func found(_ reply: JavaScriptReply, call: Int) -> [Command] {
        guard call == findingCall else { return [] }
        findingCall = nil
        switch StepScript.meaning(of: reply) {
        case .load(let url):
            // A new document: replies from the old one are dropped, so its first result is the next page's.
            return [.load(url)]
        case .clickAt(let x, let y):
            turning = true
            return [.click(x: x, y: y), .read(after: nil)]
        case .interrupted:
            // The page went to another document by itself: read that one.
            turning = true
            return [.read(after: nil)]
        case .lastPage, .done, .focused, .decided, .waiting, .clickLanded:
            return [.finish(results.combined)]
        case .failed(let reason):
            return [.fail(reason)]
        }
    }

    /// What the pages read so far add up to.
    var combined: Data { results.combined }
}
