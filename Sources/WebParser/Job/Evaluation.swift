import FoundationEssentials

/// What a job evaluates in its page and when it is done (Playwright's `evaluate` and `wait_for_function`).
public struct Evaluation: Sendable, Equatable {
    /// The JavaScript that extracts the data: an expression (`document.title`), an IIFE, or a function
    /// (`() => …`, `async () => …`) that webparse calls. A returned Promise is awaited. `null`, `undefined`,
    /// `""`, `[]` and `{}` mean "not there yet"; anything else, `0` and `false` included, is the result. Once
    /// `waitFor` or `waitForSelector` holds, the script's result is final, empty included (a search without
    /// hits, no new chapters).
    public var script: String
    /// A JavaScript expression (or function) that must be truthy, and not an empty array, before `script` is
    /// evaluated; nil evaluates `script` at once.
    public var waitFor: String?
    /// A CSS selector that must match an element before `script` is evaluated (with `waitFor`, both must
    /// hold); nil waits for no element.
    public var waitForSelector: String?
    /// How often the script is evaluated again while its result is empty.
    public var pollInterval: Duration
    /// How often a script is evaluated again unless an evaluation says otherwise.
    public static let defaultPollInterval: Duration = .milliseconds(100)
    /// Without `waitFor` and `waitForSelector`, on a page where something always stays pending (an open websocket,
    /// an interval, a worker that stays): how long the script's non-empty answer must stay the same, with none of
    /// the page's data requests (documents, scripts, XHR, fetch) in flight, before it is the result; also how long
    /// such a page must be quiet before a step acts on it or an `if` step decides. A page with nothing pending
    /// (`lookAhead`) needs no such wait. Zero takes the first non-empty answer, and steps act as soon as their
    /// element is ready.
    public var settle: Duration = defaultSettle
    /// How long answers settle unless an evaluation says otherwise.
    public static let defaultSettle: Duration = .milliseconds(200)
    /// Without `waitFor` and `waitForSelector`: how far ahead what the page has scheduled holds its answer. The
    /// answer is final the moment nothing is pending: no request, no timer due within `lookAhead`, no animation
    /// frame, idle callback or message queued, no worker's answer awaited, no observer's first callback, no
    /// animation with listeners ending within it. A timer due later (a poll every 30 s) does not hold the answer;
    /// a page that schedules its rendering later than this needs a longer one. A step's action on an element also
    /// waits for what is pending within it, as long as it at most.
    public var lookAhead: Duration = defaultLookAhead
    /// How far ahead pending work holds an answer unless an evaluation says otherwise.
    public static let defaultLookAhead: Duration = .seconds(3)
    /// After steps that acted: how long an answer equal to the one just before they acted must stay the same
    /// before it is the result (a page may re-render a few hundred milliseconds after a click, after a timer
    /// or a websocket message that no request shows); an answer that changed needs only `settle`.
    public static let unchangedAfterSteps: Duration = .seconds(1)

    /// Actions run once, in order, before `script` is evaluated: clicks, form filling, scrolling, waits.
    public var steps: [Step] = []
    /// Where the next page of the list is, when the result is spread over pages; nil reads one page.
    public var pagination: Pagination?

    /// Data declared with selectors, read instead of `script` (which is then ignored); nil runs `script`.
    public var extract: Extraction?
    /// A CSS selector of the links read with the answer (`WebParserResult.links`: each matching element's `href`,
    /// absolute, as the rendered page has it, links its scripts wrote included); nil reads none. With it, an empty
    /// answer is an answer too, once the page has settled: a page read for its links may have no data.
    public var links: String?

    /// What the job returns: the script's result, or the values its user scripts emit.
    public var collect: WebParserJob.Collect
    /// A PNG of the page to write once the result is ready; nil takes none.
    public var screenshot: WebParserJob.Screenshot?

    /// An evaluation of `script`; by default it runs at once, again every 100 ms while its result is empty,
    /// returns the script's result and takes no screenshot.
    public init(
        script: String, waitFor: String? = nil, waitForSelector: String? = nil,
        pollInterval: Duration = defaultPollInterval, collect: WebParserJob.Collect = .result,
        screenshot: WebParserJob.Screenshot? = nil
    ) {
        self.script = script
        self.waitFor = waitFor
        self.waitForSelector = waitForSelector
        self.pollInterval = pollInterval
        self.collect = collect
        self.screenshot = screenshot
    }
}
