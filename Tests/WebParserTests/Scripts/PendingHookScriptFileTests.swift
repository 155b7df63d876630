import Foundation
import Testing

/// `pending_hook.js`, the extension's hook of what is pending in a frame, run in JavaScriptCore on the fake page
/// before the page's own scripts, as the extension runs it at each document's start: its state function says what
/// is expected within the horizon (`busy`, `dueIn`) and what stays (`never`), for timers, intervals, animation
/// frames, messages, workers, fetches and their bodies, and the document's own scripts.
@Suite struct PendingHookScriptFileTests {
    /// The hook's source, read from the source tree (the extension compiles it in).
    static let hook: String = {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appending(path: "Sources/CWebParseExtension/pending_hook.js")
        return (try? String(contentsOf: file, encoding: .utf8)) ?? "throw new Error('pending_hook.js is missing')"
    }()

    /// A page whose `setUp` runs after the hook, as the page's own script.
    func page(_ setUp: String) throws -> ScriptPage {
        try ScriptPage(setUp, first: "globalThis.pendingState = " + Self.hook + "();")
    }

    /// What the hook says is pending within `horizon` ms: `busy`, `dueIn` and `never`.
    func state(_ page: ScriptPage, horizon: Int = 1000) throws -> (busy: String?, dueIn: Int, never: String?) {
        let object = ScriptPage.object(try page.evaluate("pendingState(\(horizon))"))
        return (object["busy"] as? String, object["dueIn"] as? Int ?? -1, object["never"] as? String)
    }

    @Test func theHookRunsOnTheFakePageAndFindsNothingPending() throws {
        let page = try page("page.show(page.element('p', {}, ['still']));")
        #expect(try state(page) == (nil, 0, nil))
    }

    @Test func aTimerIsAwaitedUntilItRanAndOneBeyondTheHorizonIsNot() throws {
        let page = try page("setTimeout(() => page.show(page.element('p')), 500); setTimeout(() => {}, 5000);")
        #expect(try state(page) == ("a timer due in 500 ms", 500, nil))
        try page.advance(500)
        #expect(try state(page) == (nil, 0, nil), "the timer of 5 s is beyond the horizon of 1 s")
        try page.advance(4000)
        #expect(try state(page).busy == "a timer due in 500 ms")
    }

    @Test func aTimerClearedHoldsNothing() throws {
        let page = try page("clearTimeout(setTimeout(() => {}, 200));")
        #expect(try state(page) == (nil, 0, nil))
    }

    @Test func anIntervalAndATimerThatSetsItselfAgainStay() throws {
        let interval = try page("window.poll = setInterval(() => {}, 100);")
        #expect(try state(interval).never == "an interval of 100 ms")
        try interval.evaluate("clearInterval(poll)")
        #expect(try state(interval) == (nil, 0, nil))
        let chain = try page("const tick = () => setTimeout(tick, 100); tick();")
        #expect(try state(chain).busy == "a timer due in 100 ms", "the first timer is awaited")
        try chain.advance(250)
        #expect(try state(chain).never == "a timer that sets itself again")
    }

    @Test func anAnimationFrameThatAsksForTheNextOneStays() throws {
        let page = try page("const frame = () => requestAnimationFrame(frame); frame();")
        #expect(try state(page).busy == "an animation frame")
        try page.advance(40)
        #expect(try state(page).never == "an animation frame that asks for the next one")
    }

    @Test func aMessageIsAwaitedUntilItIsDelivered() throws {
        let port = try page("const channel = new MessageChannel(); channel.port2.onmessage = () => {}; channel.port1.postMessage('next slice');")
        #expect(try state(port).busy == "a message on its way")
        try port.advance(1)
        #expect(try state(port) == (nil, 0, nil))
        let window = try page("addEventListener('message', () => {}); postMessage('to myself', '*');")
        #expect(try state(window).busy == "a message on its way")
        try window.advance(1)
        #expect(try state(window) == (nil, 0, nil))
    }

    @Test func aWorkerIsAwaitedUntilItAnswersThenStaysUntilItEnds() throws {
        let page = try page("window.worker = new Worker('count.js'); worker.onmessage = () => {}; worker.postMessage('go');")
        let waiting = try state(page)
        #expect(waiting.busy == "a worker's answer" && waiting.dueIn == 1000)
        try page.advance(100)
        #expect(try state(page).never == "a worker that stays")
        try page.evaluate("worker.terminate()")
        #expect(try state(page) == (nil, 0, nil))
    }

    @Test func aFetchAndItsBodyAreAwaitedUntilTheyCame() throws {
        let page = try page("window.read = fetch('/items.json').then((response) => { window.response = response; return response.json(); });")
        #expect(try state(page).busy == "a fetch")
        try page.advance(100)
        #expect(try state(page).busy == "a response body being read")
        try page.advance(50)
        #expect(try state(page) == (nil, 0, nil))
    }

    @Test func aFetchThatNeverEndsStaysAfterTheHorizon() throws {
        let page = try page("page.delays.fetch = 60000; fetch('/poll');")
        #expect(try state(page).busy == "a fetch")
        try page.advance(1500)
        #expect(try state(page).never == "a fetch pending for over 1000 ms")
    }

    /// The hook keeps the built-ins of the moment it ran: a page that wraps them later still goes through it.
    @Test func builtInsThePageWrapsLaterHideNothing() throws {
        let page = try page("const original = setTimeout; window.setTimeout = (callback, ms) => original(callback, ms); setTimeout(() => {}, 300);")
        #expect(try state(page).busy == "a timer due in 300 ms")
    }

    @Test func aDocumentStillBeingReadIsAwaited() throws {
        let page = try page("document.readyState = 'loading';")
        #expect(try state(page).busy == "the document's own scripts")
        try page.evaluate("document.readyState = 'complete'")
        #expect(try state(page) == (nil, 0, nil))
    }

    /// WebKit keeps a document whose resource observer still observes when its tab closes: the hook's observer stops
    /// as the page is hidden and starts again when it is shown from the back-forward cache, not on a first showing.
    @Test func theResourceObserverStopsWhileThePageIsHidden() throws {
        let page = try page("")
        #expect(try page.evaluate("page.observers") == "1")
        try page.evaluate("dispatchEvent(new PageTransitionEvent('pageshow', {persisted: false}))")
        #expect(try page.evaluate("page.observers") == "1")
        try page.evaluate("dispatchEvent(new PageTransitionEvent('pagehide', {persisted: true}))")
        #expect(try page.evaluate("page.observers") == "0")
        try page.evaluate("dispatchEvent(new PageTransitionEvent('pageshow', {persisted: true}))")
        #expect(try page.evaluate("page.observers") == "1")
    }
}
