import FoundationEssentials

/// The page's side of "the page has settled": whether any of the page's requests that deliver data is in flight,
/// as webparse sees them in WebKit's resource loads (`RequestTracker`) and tells the page, and since when none is.
///
/// The state lives in the page's window under a name of its own (not enumerable), made afresh in every document:
/// every call that needs it first says whether requests are in flight and what can change the document
/// (`preamble(busy:stillness:)`), and a change between calls is told with `notifyBody(busy:stillness:)`, which also
/// wakes what waits for it.
///
/// A document that nothing can change any more (`Stillness`) is quiet as soon as none of its requests is in flight:
/// waiting for the settle time could not change an answer read from it. So is a page where webparse's web process
/// extension finds nothing pending in any frame (`pendingWork`, under `workKey`: no timer due within `lookAhead`, no
/// frame, message, worker's answer, observer or animation on its way, and nothing that stays, such as a socket).
struct PageQuiet: Sendable {
    /// What can change a document once it has loaded, besides webparse's own calls.
    enum Stillness: String, Sendable {
        /// The job's user scripts run in it, or its response asks for a refresh (a `Refresh` header): it is never
        /// taken as still.
        case never
        /// The page's own scripts run: it is still once it has loaded if it has none (no script element, no event
        /// handler attribute, no custom element, no open shadow root), no frame or plugin and no
        /// `<meta http-equiv="refresh">`.
        case withoutScripts
        /// The page's own scripts are turned off (`javaScript: false`): it is still once it has loaded if it has no
        /// frame or plugin and no `<meta http-equiv="refresh">`.
        case loaded

        /// The stillness of a document shown with `page`'s settings, whose response asked for a refresh or not.
        init(page: PageSettings, refreshes: Bool) {
            self = !page.userScripts.isEmpty || refreshes ? .never : page.pageScripts ? .withoutScripts : .loaded
        }
    }

    /// What the engine knows of the document the page shows, that its own scripts cannot tell: what can change it
    /// once it has loaded, and the refresh its response's `Refresh` header asks for, if it does.
    struct Document: Sendable, Equatable {
        var stillness: Stillness
        /// How long after the document has loaded it is replaced; nil when the response asked for no refresh.
        var refresh: Duration?

        /// A document shown with `page`'s settings, whose response's `Refresh` header was `refreshHeader`.
        init(page: PageSettings, refreshHeader: String?) {
            refresh = refreshHeader.map(Self.delay(ofRefresh:))
            stillness = Stillness(page: page, refreshes: refresh != nil)
        }

        /// A document before its response: never still.
        static let unknown = Document(stillness: .never, refresh: nil)

        private init(stillness: Stillness, refresh: Duration?) {
            self.stillness = stillness
            self.refresh = refresh
        }

        /// The delay of a `Refresh` header (`5; url=/next`, `0`), as browsers read it: the number before `;` or
        /// `,`, in seconds; one that is no number refreshes at once.
        static func delay(ofRefresh header: String) -> Duration {
            let number = header.prefix { $0 != ";" && $0 != "," }.trimmingSpaces()
            guard let seconds = Double(number), seconds.isFinite, seconds >= 0 else { return .zero }
            return .milliseconds(Int64((min(seconds, 86_400) * 1000).rounded()))
        }

        /// The arguments a page's `pageQuiet` takes after `busy`: the stillness and the refresh in ms (-1: none).
        var arguments: String { "\"\(stillness.rawValue)\", \(refresh?.milliseconds ?? -1)" }
    }

    private let key = "webparse-quiet-" + UUID().uuidString
    /// The name of the extension's pending-work accessor on the window of the world the job's script runs in.
    let workKey = "webparse-work-" + UUID().uuidString
    /// How far ahead pending work holds an answer (`Evaluation.lookAhead`).
    let lookAhead: Duration

    /// The quiet state of a page whose pending work counts `lookAhead` ahead.
    init(lookAhead: Duration = Evaluation.defaultLookAhead) {
        self.lookAhead = lookAhead
    }

    /// A JavaScript expression whose value is the page's quiet functions (`page_quiet.js`): `pageQuiet(busy,
    /// stillness, refreshMs)`, `isStill()`, `pendingWork()`, `workDone()`, `quietFor(ms)`, `quietIn(ms)` and
    /// `nextChange(ms, byQuiet)`, on the state this page keeps in each document.
    var functions: String {
        let settings = JSONText.Value.object([
            ("key", .string(key)), ("workKey", .string(workKey)), ("lookAheadMs", .integer(Int(lookAhead.milliseconds))),
            ("longLivedMs", .integer(Int(RequestTracker.longLived.milliseconds)))
        ])
        return ScriptSource.call(ScriptSource.pageQuiet, JSONText.text(settings))
    }

    /// A call's first lines: `quiet`, the page's quiet functions (`functions`), then the page told whether
    /// requests are in flight now and what can change its document.
    func preamble(busy: Bool, document: Document) -> String {
        "const quiet = \(functions);\nquiet.pageQuiet(\(busy), \(document.arguments));\n"
    }

    /// The body of a call that tells the page whether requests are in flight.
    func notifyBody(busy: Bool, document: Document) -> String {
        preamble(busy: busy, document: document) + "return null;\n"
    }
}
