import Foundation
import Synchronization
@testable import WebParser

/// A scripted page: what it does when loaded, and what its JavaScript calls answer.
@WebKitActor
final class FakePage: WebPage {
    /// What a load does.
    enum LoadBehavior {
        /// STARTED, COMMITTED with `status`, FINISHED.
        case commit(status: Int)
        /// STARTED, COMMITTED with status 200, and never FINISHED (a stalled body).
        case commitWithoutFinishing
        /// STARTED, `failure`, FINISHED.
        case fail(PageLoadFailure)
        /// STARTED, then nothing (a server that never answers).
        case silent
        /// STARTED, then FINISHED with no document and no failure.
        case endWithoutDocument
        /// STARTED, COMMITTED, then the web process ends.
        case terminate(ProcessTermination)
    }

    var eventHandler: ((PageEvent) -> Void)?
    private let behavior: LoadBehavior
    private var replies: [JavaScriptReply?]
    private(set) var loadedURLs: [URL] = []
    private(set) var evaluationCount = 0
    /// The size in bytes of each function body it was asked to call, in order.
    private(set) var bodySizes: [Int] = []
    private(set) var closeCount = 0
    var sharesProcessWithAnotherJob = false
    /// The document's title, as a page's `<title>` gives it.
    var title: String?
    /// The bot protection service whose page the document is (`BotProtection`), or nil.
    var blockedBy: String?
    /// Whether its web process answers pings: false for a process whose thread a page holds.
    var answersPings = true
    private(set) var pingCount = 0

    /// A page that loads as `behavior` says and answers its n-th JavaScript call with `replies[n]` (the last
    /// repeats; nil never answers).
    init(_ behavior: LoadBehavior, replies: [JavaScriptReply?] = [.null]) {
        self.behavior = behavior
        self.replies = replies
    }

    func load(_ request: PageRequest) {
        let url = request.url
        loadedURLs.append(url)
        let text = url.absoluteString
        var events: [PageEvent] = [.started(url: text)]
        switch behavior {
        case .commit(let status):
            events += [.progress(0.5), .committed(url: text, httpStatus: status), .progress(1), .finished(url: text)]
        case .commitWithoutFinishing:
            events += [.committed(url: text, httpStatus: 200)]
        case .fail(let failure):
            events += [.failed(failure), .finished(url: text)]
        case .silent:
            break
        case .endWithoutDocument:
            events += [.finished(url: text)]
        case .terminate(let termination):
            events += [.committed(url: text, httpStatus: 200), .processTerminated(termination)]
        }
        // Delivered at once, so that a test's time-out never races the fake's own scheduling.
        for event in events { emit(event) }
    }

    func callAsyncFunction(
        _ body: String, sourceName: String, world: String?,
        completion: @escaping @WebKitActor (JavaScriptReply) -> Void
    ) {
        if body == BotProtection.checkBody {
            let service = blockedBy
            Task { completion(service.map { .string(Data($0.utf8)) } ?? .null) }
            return
        }
        if body == PageErrorWatch.readBody {
            let error = pageError
            Task { completion(error.map { .string(Data($0.utf8)) } ?? .null) }
            return
        }
        evaluationCount += 1
        bodySizes.append(body.utf8.count)
        let reply = replies.count > 1 ? replies.removeFirst() : replies.first ?? nil
        guard let reply else { return }
        Task { completion(reply) }
    }

    /// What the page's last uncaught error is, as webparse's watch reads it.
    var pageError: String?

    func ping(answered: @escaping @WebKitActor () -> Void) {
        pingCount += 1
        if answersPings { Task { answered() } }
    }

    /// The points it was clicked at and the keys pressed, in order.
    private(set) var clicks: [(x: Double, y: Double)] = []
    private(set) var keys: [String] = []

    func click(x: Double, y: Double) {
        clicks.append((x, y))
    }

    func press(key: String) -> Bool {
        keys.append(key)
        return key != "NoSuchKey"
    }

    /// Reports success and writes nothing: screenshots are tested on real pages.
    func snapshot(_ screenshot: WebParserJob.Screenshot, completion: @escaping @WebKitActor (String?) -> Void) {
        Task { completion(nil) }
    }

    func close() {
        closeCount += 1
        eventHandler = nil
    }

    /// Delivers `event` as WebKit would.
    func emit(_ event: PageEvent) {
        eventHandler?(event)
    }
}

/// Hands out a fresh `FakePage` per attempt and keeps them for inspection.
@WebKitActor
final class FakeBrowser {
    private let makeNext: @WebKitActor (Int) -> FakePage
    private(set) var pages: [FakePage] = []

    /// `makePage(n)` makes the page for attempt n, from 1.
    nonisolated init(_ makePage: @escaping @WebKitActor (Int) -> FakePage) {
        self.makeNext = makePage
    }

    func makePage() -> any WebPage {
        let page = makeNext(pages.count + 1)
        pages.append(page)
        return page
    }

    /// A parser whose pages come from this browser. The runtime starts as usual: the pages are fake, but
    /// the WebKit thread and its executor, which the engine runs on, are real.
    nonisolated func parser() -> WebParserRunner {
        WebParserRunner(makePage: { _ in self.makePage() }, startRuntime: { try await WebKitRuntime.start() })
    }
}
