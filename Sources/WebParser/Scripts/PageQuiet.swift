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

    private let key = JavaScriptSyntax.literal("webparse-quiet-" + UUID().uuidString)
    /// The name of the extension's pending-work accessor on the window of the world the job's script runs in.
    let workKey = "webparse-work-" + UUID().uuidString
    /// How far ahead pending work holds an answer (`Evaluation.lookAhead`).
    let lookAhead: Duration

    /// The quiet state of a page whose pending work counts `lookAhead` ahead.
    init(lookAhead: Duration = Evaluation.defaultLookAhead) {
        self.lookAhead = lookAhead
    }

    /// JavaScript that defines `pageQuiet(busy, stillness)`, which records whether requests are in flight and the
    /// document's `Stillness`, and returns the state `{busy, since, created, wakers, stillness}` (`since`: when the
    /// page last went quiet, on `performance.now()`'s clock; `created`: when the state was made; `wakers`: functions
    /// called at every change); `isStill()`: whether the document has loaded and nothing can change it any more;
    /// `pendingWork()`: what the extension finds pending in the page's frames, `{busy, dueIn, never}`, with a refresh
    /// of the document due within `lookAhead` (its `Refresh` header, or a `<meta http-equiv="refresh">`), or null
    /// when it cannot tell (no extension); `workDone()`: whether it finds nothing pending and nothing that stays;
    /// `quietFor(ms)`: whether the page has been quiet that long (always, for 0, and for a still document or one with
    /// its work done, with no request in flight), or, for a page that is never quiet (it polls its server several
    /// times a second), whether the document has been there as long as a request may count as in flight;
    /// `quietIn(ms)`: in how many ms `quietFor(ms)` holds if nothing changes; and `nextChange(ms, byQuiet)`:
    /// a Promise that resolves at the document's next change, after `ms`, or (with `byQuiet`) when requests start
    /// or stop being in flight or the document's loading state changes (it may be still now), whichever comes first.
    var definitions: String {
        """
        const pageQuiet = (busy, stillness, refreshMs) => {
        let state = window[\(key)];
        if (!state) {
        const now = performance.now();
        state = { busy: false, since: now, created: now, wakers: new Set(), stillness: "never", refreshMs: -1 };
        Object.defineProperty(window, \(key), { value: state, configurable: true, writable: true, enumerable: false });
        }
        if (stillness !== undefined) state.stillness = stillness;
        if (refreshMs !== undefined) state.refreshMs = refreshMs;
        if (busy !== undefined && state.busy !== busy) {
        state.busy = busy;
        if (!busy) state.since = performance.now();
        for (const wake of [...state.wakers]) wake();
        }
        return state;
        };
        const isStill = () => {
        const stillness = pageQuiet().stillness;
        if (stillness === "never" || document.readyState !== "complete") return false;
        try {
        const changers = stillness === "loaded" ? \(JavaScriptSyntax.literal(Self.changers(scriptsRun: false))) : \(JavaScriptSyntax.literal(Self.changers(scriptsRun: true)));
        if (document.evaluate(changers, document, null, XPathResult.BOOLEAN_TYPE, null).booleanValue) return false;
        return stillness === "loaded" || !Array.prototype.some.call(document.getElementsByTagName("*"), (element) => element.shadowRoot);
        } catch {
        return false;
        }
        };
        const workKey = \(JavaScriptSyntax.literal(workKey)), lookAheadMs = \(lookAhead.milliseconds);
        const refreshIn = () => {
        let delay = pageQuiet().refreshMs;
        const meta = document.querySelector('meta[http-equiv="refresh" i]');
        const seconds = meta ? parseFloat(meta.getAttribute("content") ?? "") : NaN;
        if (seconds >= 0) delay = delay < 0 ? seconds * 1000 : Math.min(delay, seconds * 1000);
        if (delay < 0) return null;
        const timing = performance.getEntriesByType("navigation")[0];
        const loaded = timing && timing.loadEventEnd > 0 ? timing.loadEventEnd : performance.now();
        const left = loaded + delay - performance.now();
        return left <= lookAheadMs && left > -1000 ? Math.max(0, left) : null;
        };
        const pendingWork = () => {
        let work;
        try {
        const read = window[workKey];
        work = typeof read === "function" ? read(lookAheadMs) : null;
        if (work === null || typeof work !== "object") return null;
        } catch {
        return null;
        }
        const refresh = work.busy === null ? refreshIn() : null;
        return refresh === null ? work : { busy: `a refresh due in ${Math.round(refresh)} ms`, dueIn: refresh, never: work.never };
        };
        const workDone = () => {
        const work = pendingWork();
        return work !== null && work.busy === null && work.never === null;
        };
        const quietFor = (ms) => {
        const state = pageQuiet(), now = performance.now();
        return ms <= 0 || !state.busy && (now - state.since >= ms || isStill() || workDone()) || now - state.created >= Math.max(ms, \(RequestTracker.longLived.milliseconds));
        };
        const quietIn = (ms) => {
        const state = pageQuiet(), now = performance.now();
        const byAge = Math.max(ms, \(RequestTracker.longLived.milliseconds)) - (now - state.created);
        return Math.max(0, state.busy ? byAge : isStill() || workDone() ? 0 : Math.min(ms - (now - state.since), byAge));
        };
        const nextChange = (ms, byQuiet) => new Promise((resume) => {
        const state = pageQuiet();
        const observer = new MutationObserver(() => done());
        const timer = setTimeout(() => done(), ms);
        const done = () => { observer.disconnect(); clearTimeout(timer); state.wakers.delete(done); document.removeEventListener("readystatechange", done); resume(); };
        if (byQuiet) { state.wakers.add(done); document.addEventListener("readystatechange", done); }
        observer.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
        });

        """
    }

    /// An XPath expression, true when the document holds what can change it once loaded: a frame or plugin (its
    /// document is another's), a refresh, and when the page's scripts run, a script element, an event handler
    /// attribute or a custom element (whose declarative shadow root, closed, can hold scripts no page script can
    /// see; an open one is looked for apart).
    private static func changers(scriptsRun: Bool) -> String {
        let frames = "//*[local-name()='iframe' or local-name()='frame' or local-name()='object' or local-name()='embed']"
        let refresh = "//*[local-name()='meta'][translate(@http-equiv, 'REFSH', 'refsh') = 'refresh']"
        let scripts =
            "//*[local-name()='script' or contains(local-name(), '-')] | //@*[starts-with(translate(name(), 'ON', 'on'), 'on')]"
        return "boolean(" + [frames, refresh].joined(separator: " | ") + (scriptsRun ? " | " + scripts : "") + ")"
    }

    /// A call's first lines: `definitions`, then the page told whether requests are in flight now and what can
    /// change its document.
    func preamble(busy: Bool, document: Document) -> String {
        definitions + "pageQuiet(\(busy), \(document.arguments));\n"
    }

    /// The body of a call that tells the page whether requests are in flight.
    func notifyBody(busy: Bool, document: Document) -> String {
        preamble(busy: busy, document: document) + "return null;\n"
    }
}
