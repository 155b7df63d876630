import FoundationEssentials
import WebParser

/// A job as its config fields are read.
package struct JobDraft {
    var job = WebParserJob(url: URL(fileURLWithPath: "/"), script: "")
    var name: String?
    var url: URL?
    /// The pages of a job that expands into one job per page (`urls`, or a range in `url`), and for a range,
    /// the numbers its jobs are named after.
    var urls: [URL]?
    var urlNames: [String]?
    var script: String?
    var tracking = Tracking()
    /// The jobs this one runs after.
    var after: [String] = []
    /// The job's references to environment variables that are not set (see `FieldReader.defersUnsetVariables`).
    var unsetVariables: [ConfigError.Problem] = []
    /// The values of the environment variables the job's fields read, by name (see `Config.NamedJob.secrets`).
    var secrets: [String: String] = [:]
    /// The next page and how many pages, put together once the job's fields are read.
    var next: Pagination.Next?
    var maxPages: Int?
    /// The job's `follow` as given, read once the job's own fields are (`ConfigReader`), and as read.
    var followInput: FieldInput?
    var follow: Follow?
    /// The job's crawl, if it crawls.
    var crawl: Crawl?
    /// The job's `every` and `jitter`, in seconds, put together once the job's fields are read, and where `jitter` is.
    var every: Double?
    var jitter: (seconds: Double, input: FieldInput)?
}

/// One field a job can have.
package typealias JobField = ConfigField<JobDraft>

package enum JobFields {
    /// Every job field, in the order help lists them.
    package static let all: [JobField] = [
        JobField(
            key: "name", summary: "the key of the job's result in a \"jobs\" config; unique (default: from the URL)",
            option: nil
        ) { reader, path, input, draft in draft.name = reader.string(path, input) },
        JobField(
            key: "url", summary: "the page: an http(s) or file URL, a path relative to the config, or a host name; {1..10} makes one job per number",
            option: nil
        ) { reader, path, input, draft in reader.urlOrRange(path, input, into: &draft) },
        JobField(
            key: "urls", summary: "several pages for one job (instead of url): each becomes a job of its own, NAME-1, NAME-2…",
            option: nil
        ) { reader, path, input, draft in
            draft.urls = reader.urlList(path, input)
            draft.urlNames = nil
            draft.url = nil
        },
        JobField(
            key: "script", summary: "the JavaScript that returns the data: an expression, an IIFE or a function",
            option: nil
        ) { reader, path, input, draft in draft.script = reader.string(path, input) },
        JobField(
            key: "extract",
            summary: "the data by selectors instead of a script: {\"items\": \".chapter\", \"fields\": {\"title\": \".title\", \"url\": \"a@href\"}}",
            option: .value("extract", "JSON", "read the data by selectors instead of SCRIPT: a config's extract, as JSON")
        ) { reader, path, input, draft in draft.job.evaluation.extract = reader.extraction(path, input) },
        JobField(
            key: "scriptFile", summary: "a file holding the script, relative to the config (instead of script)",
            option: nil
        ) { reader, path, input, draft in draft.script = reader.fileContents(path, input) },
        JobField(
            key: "waitFor", summary: "JavaScript that must be truthy before the script is evaluated; the script's result is then final, empty included",
            option: .value("wait-for", "SCRIPT", "wait until SCRIPT is truthy before taking the result (then final, empty included)")
        ) { reader, path, input, draft in
            draft.job.evaluation.waitFor = reader.string(path, input)
        },
        JobField(
            key: "waitForSelector",
            summary: "a CSS selector that must match an element before the script is evaluated; the result is then final, empty included",
            option: .value("wait-for-selector", "SELECTOR", "wait until an element matches SELECTOR before taking the result (then final, empty included)")
        ) { reader, path, input, draft in
            draft.job.evaluation.waitForSelector = reader.string(path, input)
        },
        JobField(
            key: "steps",
            summary: "actions run once, in order, before the script: [{\"click\": \"#next\"}, {\"fill\": {\"#q\": \"text\"}}, …] (see docs/config.md)",
            option: .values("step", "ACTION=ARG", "act on the page once, first: click=SELECTOR, fill=SELECTOR=TEXT, press=KEY, scroll=untilStable…; repeatable")
        ) { reader, path, input, draft in
            if let value = reader.steps(path, input) { draft.job.evaluation.steps = value }
        },
        JobField(
            key: "next",
            summary:
                "the next page of a list: a CSS selector of its link or button, or {\"script\": JS returning its URL or null}; script runs on every page, lists are joined",
            option: .value("next", "SELECTOR", "follow the next-page link or button SELECTOR and join every page's list")
        ) { reader, path, input, draft in
            draft.next = reader.next(path, input)
        },
        JobField(
            key: "follow",
            summary:
                "the detail page of each item of the list: {\"field\": \"url\", \"as\": \"detail\", …the page's job fields: script or extract, waitFor, steps, timeout, follow…}",
            option: .value(
                "follow", "JSON",
                "load the page at each item's FIELD and put its result into the item: {\"field\": \"url\", \"extract\": {…}} as a config's follow")
        ) { reader, path, input, draft in
            // Read with the job's other fields in hand (`ConfigReader`): it is a job of its own.
            draft.followInput = input
        },
        JobField(
            key: "crawl",
            summary:
                "every page reachable by links, each read with the script: {\"links\": \"a[href]\", \"match\": REGEX, \"exclude\": REGEX, \"maxPages\": \(Crawl.defaultMaxPages), \"maxDepth\": N, \"sameSite\": true, \"robots\": true, \"perHost\": \(Crawl.defaultPerHost), \"delay\": SECONDS, \"sitemap\": true}; the result is keyed by page URL",
            option: .value(
                "crawl", "JSON",
                "read every page reachable by links from URL, each with the script: {\"match\": REGEX, \"maxPages\": N, …} as a config's crawl ({} for every link)"
            )
        ) { reader, path, input, draft in
            draft.crawl = reader.crawl(path, input)
            draft.job.evaluation.links = draft.crawl?.links
        },
        JobField(
            key: "maxPages", summary: "with next: the most pages read, the first included (default \(Pagination.defaultMaxPages))",
            option: .value("max-pages", "COUNT", "with --next: the most pages read (default \(Pagination.defaultMaxPages))")
        ) { reader, path, input, draft in
            draft.maxPages = reader.integer(path, input, in: 1...1000, what: "a number of pages")
        },
        JobField(
            key: "timeout", summary: "seconds one attempt may take, loading and waiting together (default \(seconds(WebParserJob.defaultTimeout)))",
            option: .value("timeout", "SECONDS", "the limit for loading and waiting together (default \(seconds(WebParserJob.defaultTimeout)))")
        ) { reader, path, input, draft in
            if let value = reader.seconds(path, input, in: 0.1...86_400) { draft.job.timeout = value }
        },
        JobField(
            key: "pollInterval", summary: "seconds between evaluations while the result is empty (default \(seconds(Evaluation.defaultPollInterval)))",
            option: .value(
                "poll-interval", "SECONDS", "time between evaluations while the result is empty (default \(seconds(Evaluation.defaultPollInterval)))")
        ) { reader, path, input, draft in
            if let value = reader.seconds(path, input, in: 0.01...3600) { draft.job.evaluation.pollInterval = value }
        },
        JobField(
            key: "settle",
            summary:
                "on a page where something always stays pending (a socket, an interval): seconds the script's answer must stay the same, with none of the page's data requests in flight, before it is the result; steps act on such a page quiet that long; 0 takes the first non-empty answer (default \(seconds(Evaluation.defaultSettle)))",
            option: .value(
                "settle", "SECONDS",
                "how long the answer must stay the same on a page that is never still before it is the result; 0: the first non-empty one (default \(seconds(Evaluation.defaultSettle)))"
            )
        ) { reader, path, input, draft in
            if let value = reader.seconds(path, input, in: 0...600) { draft.job.evaluation.settle = value }
        },
        JobField(
            key: "lookAhead",
            summary:
                "seconds ahead that what the page has scheduled holds its answer: a timer due within it, an animation with listeners that ends within it, a worker's answer awaited that long (default \(seconds(Evaluation.defaultLookAhead)))",
            option: .value(
                "look-ahead", "SECONDS",
                "how far ahead timers and other pending work hold the answer (default \(seconds(Evaluation.defaultLookAhead)))")
        ) { reader, path, input, draft in
            if let value = reader.seconds(path, input, in: 0...600) { draft.job.evaluation.lookAhead = value }
        },
        JobField(
            key: "retries", summary: "attempts after a transient failure, 0 to 10 (default \(RetryPolicy.defaultRetries))",
            option: .value("retries", "COUNT", "attempts after a transient failure, 0 to 10 (default \(RetryPolicy.defaultRetries))")
        ) { reader, path, input, draft in
            if let value = reader.integer(path, input, in: 0...10, what: "a number of retries") { draft.job.retry.retries = value }
        },
        JobField(
            key: "retryDelay", summary: "seconds before the first retry, doubling for each next one (default \(seconds(RetryPolicy.defaultDelay)))",
            option: .value("retry-delay", "SECONDS", "wait before the first retry, doubling after (default \(seconds(RetryPolicy.defaultDelay)))")
        ) { reader, path, input, draft in
            if let value = reader.seconds(path, input, in: 0...3600) { draft.job.retry.delay = value }
        },
        JobField(
            key: "retryMissingData", summary: "also retry when the page loaded but the script's data never came (default false)",
            option: .flag("retry-missing-data", true, "also retry when the page loaded but the data never came")
        ) { reader, path, input, draft in
            if let value = reader.bool(path, input) { draft.job.retry.retriesMissingData = value }
        },
        JobField(
            key: "retryBlocked", summary: "also retry a page of bot protection (a challenge, a CAPTCHA; default false)",
            option: .flag("retry-blocked", true, "also retry a page of bot protection")
        ) { reader, path, input, draft in
            if let value = reader.bool(path, input) { draft.job.retry.retriesBlocked = value }
        },
        JobField(
            key: "userAgent", summary: "the user agent the page sees (default: WebKit's)",
            option: .value("user-agent", "TEXT", "the user agent the page sees")
        ) { reader, path, input, draft in
            draft.job.page.userAgent = reader.string(path, input)
        },
        JobField(
            key: "viewport", summary: "the window size, {\"width\": 1280, \"height\": 800} or \"1280x800\"",
            option: .value("viewport", "WIDTHxHEIGHT", "the window size (default 1280x800)")
        ) { reader, path, input, draft in
            if let value = reader.viewport(path, input) { draft.job.page.viewport = value }
        },
        JobField(
            key: "language", summary: "languages to ask for, best first: \"fr-FR\" or [\"fr-FR\", \"fr\"]",
            option: .value("language", "LANGUAGES", "languages to ask for, best first: fr-FR,fr")
        ) { reader, path, input, draft in
            if let value = reader.stringList(path, input, what: "language tags") { draft.job.page.languages = value }
        },
        JobField(
            key: "headers", summary: "extra HTTP headers for the page's own request, {\"Name\": \"value\"}",
            option: .values("header", "'NAME: VALUE'", "an extra HTTP header for the page's own request; repeatable")
        ) { reader, path, input, draft in
            if let value = reader.headers(path, input) { draft.job.load.headers = value }
        },
        JobField(
            key: "block", summary: "resource kinds never requested (default [\"image\", \"media\", \"font\"]; [] for none)",
            option: .value("block", "KINDS", "resource kinds never requested, comma-separated, or none (default image,media,font)")
        ) { reader, path, input, draft in
            if let value = reader.resources(path, input) { draft.job.page.blockedResources = value }
        },
        JobField(
            key: "blockURLs", summary: "URL patterns (WebKit URL filters, regular expressions) whose requests are never made",
            option: .values("block-url", "PATTERN", "never request subresources whose URL matches PATTERN (a WebKit URL filter); repeatable")
        ) { reader, path, input, draft in
            if let value = reader.urlPatterns(path, input) { draft.job.page.blockedURLs = value }
        },
        JobField(
            key: "auth", summary: "HTTP authentication: {\"user\": …, \"password\": …} or {\"user\": …, \"passwordEnv\": \"VARIABLE\"}",
            option: .value("user", "USER", "HTTP authentication as USER; the password comes from $\(FieldReader.passwordVariable)")
        ) { reader, path, input, draft in
            draft.job.load.credentials = reader.credentials(path, input)
        },
        JobField(
            key: "ignoreTLSErrors", summary: "accept the server's untrusted certificate (default false: fail at once)",
            option: .flag("ignore-tls-errors", true, "accept the server's untrusted certificate")
        ) { reader, path, input, draft in
            if let value = reader.bool(path, input) { draft.job.load.ignoresTLSErrors = value }
        },
        JobField(
            key: "cache", summary: "\"reload\" fetches the page and all it loads from the server; \"default\" uses the HTTP cache",
            option: .value("cache", "POLICY", "reload: fetch everything from the server; default: use the HTTP cache")
        ) { reader, path, input, draft in
            guard let text = reader.string(path, input) else { return }
            guard let policy = WebParserJob.CachePolicy(rawValue: text) else {
                reader.problem(path, at: input, "expected \"default\" or \"reload\", got \(input.excerpt)")
                return
            }
            draft.job.load.cachePolicy = policy
        },
        JobField(
            key: "userScripts", summary: "user scripts (.user.js, Tampermonkey headers) to run in the page, relative to the config",
            option: .values("user-script", "FILE", "run the user script FILE (a .user.js) in the page; repeatable")
        ) { reader, path, input, draft in
            if let value = reader.userScripts(path, input) { draft.job.page.userScripts = value }
        },
        JobField(
            key: "collect",
            summary: "\"result\": the script's result (default); \"emitted\": what user scripts pass to webparse.emit; \"responses\": the captured responses",
            option: .value("collect", "WHAT", "result (default); emitted: the values user scripts pass to webparse.emit; responses: the captured responses")
                .choosing(WebParserJob.Collect.allCases.map(\.rawValue))
        ) { reader, path, input, draft in
            if let value = reader.choice(path, input, WebParserJob.Collect.self) { draft.job.evaluation.collect = value }
        },
        JobField(
            key: "capture",
            summary:
                "record the responses the page's scripts read: {\"url\": REGEX, \"as\": \"json\"|\"text\"|\"base64\", \"kinds\": [\"fetch\", \"xhr\"]} or a list",
            option: .values("capture", "REGEX", "record the responses (fetch, XHR) whose URL matches REGEX, bodies as text; repeatable")
        ) { reader, path, input, draft in
            guard let rules = reader.captureRules(path, input) else { return }
            draft.job.capture = WebParserJob.Capture(
                rules: rules, bodyLimit: draft.job.capture?.bodyLimit ?? WebParserJob.Capture.defaultBodyLimit,
                totalLimit: draft.job.capture?.totalLimit ?? WebParserJob.Capture.defaultTotalLimit)
        },
        JobField(
            key: "captureLimits", summary: "MiB of one captured body and of all together: {\"body\": 10, \"total\": 50} (the defaults)",
            option: nil
        ) { reader, path, input, draft in
            guard let limits = reader.captureLimits(path, input) else { return }
            draft.job.capture = WebParserJob.Capture(rules: draft.job.capture?.rules ?? [], bodyLimit: limits.body, totalLimit: limits.total)
        },
        JobField(
            key: "logConsole", summary: "print the page's console lines and uncaught errors on stderr (default false)",
            option: .flag("log-console", true, "print the page's console lines and uncaught errors on stderr")
        ) { reader, path, input, draft in
            if let value = reader.bool(path, input) { draft.job.page.capturesConsole = value }
        },
        JobField(
            key: "popups",
            summary: "\"follow\" loads a window a step's click opens in its place (default); \"ignore\" does not; one opened without a click is refused",
            option: .value("popups", "POLICY", "follow (default): load a window a step's click opens in its place; ignore").choosing(["follow", "ignore"])
        ) { reader, path, input, draft in
            if let value = reader.choice(path, input, WebParserJob.PopupPolicy.self) { draft.job.page.popups = value }
        },
        JobField(
            key: "webgl", summary: "let the page use WebGL, in web processes of its own that load the GPU driver (default false: no WebGL)",
            option: .flag("webgl", true, "let the page use WebGL (its web process loads the GPU driver)")
        ) { reader, path, input, draft in
            if let value = reader.bool(path, input) { draft.job.page.webgl = value }
        },
        JobField(
            key: "screenshot", summary: "a PNG of the page once the result is ready: \"out.png\" or {\"file\": …, \"fullPage\": true}",
            option: .value("screenshot", "FILE", "write a PNG of the page to FILE once the result is ready")
        ) { reader, path, input, draft in
            draft.job.evaluation.screenshot = reader.screenshot(path, input)
        },
        JobField(
            key: "key", summary: "with --state: the field that identifies an item of a list result, such as \"id\" or \"link.href\"",
            option: nil
        ) { reader, path, input, draft in
            draft.tracking.key = reader.string(path, input)
        },
        JobField(
            key: "remember", summary: "with --state: how many items to remember, oldest forgotten first (default \(Tracking.defaultRemember))",
            option: nil
        ) { reader, path, input, draft in
            if let value = reader.integer(path, input, in: 1...1_000_000, what: "a number of items") { draft.tracking.remember = value }
        },
        JobField(
            key: "feed",
            summary:
                "with run --feed: the item fields of an entry: {\"title\": \"name\", \"link\": \"url\", \"summary\": …, \"updated\": …}, and the feed's own title: \"name\": \"New chapters\" (default: the page's)",
            option: nil
        ) { reader, path, input, draft in
            draft.tracking.feed = reader.feedFields(path, input)
        },
        JobField(
            key: "stopAtSeen", summary: "with next and --state: stop at the first page whose items were all seen in earlier runs (default false)",
            option: nil
        ) { reader, path, input, draft in
            if let value = reader.bool(path, input) { draft.tracking.stopsAtSeen = value }
        },
        JobField(
            key: "when",
            summary: "with --state: report an item only when this JavaScript over item (or result) comes to hold, such as \"item.price < 300\"",
            option: nil
        ) { reader, path, input, draft in
            draft.tracking.when = reader.condition(path, input)
        },
        JobField(
            key: "confirm",
            summary: "with --state: how many runs in a row an item must be missing before --report removed reports it (default \(Tracking.defaultConfirm))",
            option: nil
        ) { reader, path, input, draft in
            if let value = reader.integer(path, input, in: 1...100, what: "a number of runs") { draft.tracking.confirm = value }
        },
        JobField(
            key: "every",
            summary: "with --state: run the job only this often, such as \"15m\", \"6h\" or \"1d\" (a run skips it until it is due; --all runs it)",
            option: nil
        ) { reader, path, input, draft in
            draft.every = reader.interval(path, input, in: 1...Schedule.longest)
        },
        JobField(
            key: "jitter", summary: "with every: spread the job's runs by an offset up to this long that its name gives, such as \"30m\"",
            option: nil
        ) { reader, path, input, draft in
            draft.jitter = reader.interval(path, input, in: 0...Schedule.longest).map { ($0, input) }
        },
        JobField(
            key: "after", summary: "in a jobs list: the job (or jobs) that must succeed first in the same run, such as a login",
            option: nil
        ) { reader, path, input, draft in
            if let value = reader.stringList(path, input, what: "job names") { draft.after = value }
        },
        JobField(
            key: "javaScript", summary: "false stops the page's own scripts; the job's script still runs (default true)",
            option: .flag("no-javascript", false, "stop the page's own scripts (webparse's JavaScript still runs)")
        ) { reader, path, input, draft in
            if let value = reader.bool(path, input) { draft.job.page.pageScripts = value }
        }
    ]

    /// The width of the key column when fields are listed: the longest key and two spaces.
    package static let keyWidth = (all.map(\.key.count).max() ?? 0) + 2

    /// The field named `key`.
    static func field(_ key: String) -> JobField? { all.first { $0.key == key } }
}

/// `duration` in seconds as help writes it: "30", "0.1".
private func seconds(_ duration: Duration) -> String {
    let value = Double(duration.milliseconds) / 1000
    return value == value.rounded() ? String(Int(value)) : String(value)
}
