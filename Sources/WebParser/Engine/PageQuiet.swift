import FoundationEssentials

/// The page's side of "the page has settled": whether any of the page's requests that deliver data is in flight,
/// as webparse sees them in WebKit's resource loads (`RequestTracker`) and tells the page, and since when none is.
///
/// The state lives in the page's window under a name of its own (not enumerable), made afresh in every document:
/// every call that needs it first says whether requests are in flight (`preamble(busy:)`), and a change between
/// calls is told with `notifyBody(busy:)`, which also wakes what waits for it.
struct PageQuiet: Sendable {
    private let key = JavaScriptSyntax.literal("webparse-quiet-" + UUID().uuidString)

    /// JavaScript that defines `pageQuiet(busy)`, which records whether requests are in flight and returns the
    /// state `{busy, since, created, wakers}` (`since`: when the page last went quiet, on `performance.now()`'s
    /// clock; `created`: when the state was made; `wakers`: functions called at every change), and `quietFor(ms)`:
    /// whether the page has been quiet that long (always, for 0), or, for a page that is never quiet (it polls its
    /// server several times a second), whether the document has been there as long as a request may count as in
    /// flight; `quietIn(ms)`: in how many ms `quietFor(ms)` holds if nothing changes; and `nextChange(ms, byQuiet)`:
    /// a Promise that resolves at the document's next change, after `ms`, or (with `byQuiet`) when requests start
    /// or stop being in flight, whichever comes first.
    var definitions: String {
        """
        const pageQuiet = (busy) => {
        let state = window[\(key)];
        if (!state) {
        const now = performance.now();
        state = { busy: false, since: now, created: now, wakers: new Set() };
        Object.defineProperty(window, \(key), { value: state, configurable: true, writable: true, enumerable: false });
        }
        if (busy !== undefined && state.busy !== busy) {
        state.busy = busy;
        if (!busy) state.since = performance.now();
        for (const wake of [...state.wakers]) wake();
        }
        return state;
        };
        const quietFor = (ms) => {
        const state = pageQuiet(), now = performance.now();
        return ms <= 0 || !state.busy && now - state.since >= ms || now - state.created >= Math.max(ms, \(RequestTracker.longLived.milliseconds));
        };
        const quietIn = (ms) => {
        const state = pageQuiet(), now = performance.now();
        const byAge = Math.max(ms, \(RequestTracker.longLived.milliseconds)) - (now - state.created);
        return Math.max(0, state.busy ? byAge : Math.min(ms - (now - state.since), byAge));
        };
        const nextChange = (ms, byQuiet) => new Promise((resume) => {
        const state = pageQuiet();
        const observer = new MutationObserver(() => done());
        const timer = setTimeout(() => done(), ms);
        const done = () => { observer.disconnect(); clearTimeout(timer); state.wakers.delete(done); resume(); };
        if (byQuiet) state.wakers.add(done);
        observer.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
        });

        """
    }

    /// A call's first lines: `definitions`, then the page told whether requests are in flight now.
    func preamble(busy: Bool) -> String {
        definitions + "pageQuiet(\(busy));\n"
    }

    /// The body of a call that tells the page whether requests are in flight.
    func notifyBody(busy: Bool) -> String {
        preamble(busy: busy) + "return null;\n"
    }
}
