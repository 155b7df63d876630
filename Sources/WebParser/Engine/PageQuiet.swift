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
/// waiting for the settle time could not change an answer read from it.
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

    private let key = JavaScriptSyntax.literal("webparse-quiet-" + UUID().uuidString)

    /// JavaScript that defines `pageQuiet(busy, stillness)`, which records whether requests are in flight and the
    /// document's `Stillness`, and returns the state `{busy, since, created, wakers, stillness}` (`since`: when the
    /// page last went quiet, on `performance.now()`'s clock; `created`: when the state was made; `wakers`: functions
    /// called at every change); `isStill()`: whether the document has loaded and nothing can change it any more;
    /// `quietFor(ms)`: whether the page has been quiet that long (always, for 0, and for a still document with no
    /// request in flight), or, for a page that is never quiet (it polls its server several times a second), whether
    /// the document has been there as long as a request may count as in flight; `quietIn(ms)`: in how many ms
    /// `quietFor(ms)` holds if nothing changes; and `nextChange(ms, byQuiet)`:
    /// a Promise that resolves at the document's next change, after `ms`, or (with `byQuiet`) when requests start
    /// or stop being in flight or the document's loading state changes (it may be still now), whichever comes first.
    var definitions: String {
        """
        const pageQuiet = (busy, stillness) => {
        let state = window[\(key)];
        if (!state) {
        const now = performance.now();
        state = { busy: false, since: now, created: now, wakers: new Set(), stillness: "never" };
        Object.defineProperty(window, \(key), { value: state, configurable: true, writable: true, enumerable: false });
        }
        if (stillness !== undefined) state.stillness = stillness;
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
        const quietFor = (ms) => {
        const state = pageQuiet(), now = performance.now();
        return ms <= 0 || !state.busy && (now - state.since >= ms || isStill()) || now - state.created >= Math.max(ms, \(RequestTracker.longLived.milliseconds));
        };
        const quietIn = (ms) => {
        const state = pageQuiet(), now = performance.now();
        const byAge = Math.max(ms, \(RequestTracker.longLived.milliseconds)) - (now - state.created);
        return Math.max(0, state.busy ? byAge : isStill() ? 0 : Math.min(ms - (now - state.since), byAge));
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
    func preamble(busy: Bool, stillness: Stillness) -> String {
        definitions + "pageQuiet(\(busy), \"\(stillness.rawValue)\");\n"
    }

    /// The body of a call that tells the page whether requests are in flight.
    func notifyBody(busy: Bool, stillness: Stillness) -> String {
        preamble(busy: busy, stillness: stillness) + "return null;\n"
    }
}
