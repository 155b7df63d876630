internal import CWebKitGTK
import Foundation

/// The WebKit web context behind a session: one network process, one cookie jar and cache for its pages,
/// the content filters its pages use, and the idle pages that the next jobs reuse. Created on first use and
/// freed with the session.
@WebKitActor
final class BrowsingContext {
    /// The most idle pages kept for reuse.
    static let idleLimit = 8
    /// How long a new page waits for its neighbour's web process to start its first load before it takes a
    /// process of its own: a process start, which a loaded machine (or a debug build) can stretch past a second.
    static let neighbourStartLimit: Duration = .seconds(3)

    private let configuration: WebParserSession.Configuration
    private var context: OpaquePointer?
    private var filters: [ContentBlocking: ContentFilter] = [:]
    /// The languages the context's pages use now: WebKit applies them to the whole web context, so a page for
    /// other languages waits until every page checked out for these is back.
    private var languages: [String] = []
    /// Pages checked out and not yet checked in.
    private var inUse = 0
    /// Check-outs waiting for the pages in use to come back, to change the languages, in order.
    private var waitingForLanguages: [(id: UUID, continuation: CheckedContinuation<Void, Never>)] = []
    /// Fresh tabs, never loaded, each in the web process of a page whose job succeeded.
    private var idle: [WebKitPage] = []
    /// The pages behind `inUse`.
    private var checkedOut: [WebKitPage] = []
    /// Whether a new page may go beside another in its web process: until a shared process goes over the
    /// memory limit, after which each new page gets a process of its own, so that the page to blame fails alone.
    private var sharesProcesses = true
    /// Whether the session cookies a persistent session's folder kept have been given back to the context.
    private var restoredSessionCookies = false

    /// The file of a persistent session's folder that keeps its session cookies (those without an expiry
    /// date), which WebKit's own cookie store drops.
    static let sessionCookiesFile = "session-cookies.json"

    nonisolated init(configuration: WebParserSession.Configuration) {
        self.configuration = configuration
    }

    /// A page for `options` to load `url`: an idle one made with the same options, or a fresh one, beside a
    /// page of the same options and site in its web process when that process has room for it
    /// (`pagesPerProcess`; it waits for that process's first load to start, `neighbourStartLimit` at most), else in a web
    /// process of its own. With `alone`, a fresh page in a web process that takes no other. When pages for other
    /// languages are in use, it waits until they are all checked in (jobs of one language run together), and
    /// while others wait so, it waits behind them, so that jobs of one language cannot hold another off.
    /// Every page checked out must be checked in.
    /// - Throws: `WebParserError` with kind `.environmentUnavailable` when the page's content filter cannot
    ///   be compiled; `CancellationError` when the task is cancelled while it waits.
    func checkOut(options: PageSettings, for url: URL, alone: Bool = false) async throws -> any WebPage {
        try await restoreSessionCookies()
        while inUse > 0 && (options.languages != languages || !waitingForLanguages.isEmpty) {
            let id = UUID()
            await withTaskCancellationHandler {
                await withCheckedContinuation { continuation in
                    if Task.isCancelled { continuation.resume() } else { waitingForLanguages.append((id, continuation)) }
                }
            } onCancel: {
                Task { @WebKitActor in self.stopWaiting(id) }
            }
            try Task.checkCancellation()
        }
        inUse += 1
        let context = webContext
        if options.languages != languages {
            withCStringArray(options.languages) { wk_context_set_preferred_languages(context, $0) }
            languages = options.languages
        }
        // A fresh tab whose process ended would start a process WebKit did not count with its neighbours.
        discardIdle { $0.process.hasEnded }
        let page: WebKitPage
        if !alone, let index = idle.firstIndex(where: { $0.options == options }) {
            page = idle.remove(at: index)
        } else {
            do {
                let filter = try await filter(for: options.blocking)
                page = WebKitPage(context: context, options: options, filter: filter,
                                  placement: alone ? .newProcess : await placement(for: options, loading: url))
            } catch {
                returned()
                throw error
            }
            if alone { page.process.stopTakingPages() }
        }
        page.preparesSuccessor = page.loads + 1 < configuration.recycleAfter
        page.site = url.host()
        page.process.jobStarted()
        checkedOut.append(page)
        return page
    }

    /// Closes the idle pages `condition` picks; their web processes end with the last page in them.
    private func discardIdle(where condition: (WebKitPage) -> Bool) {
        for page in idle where condition(page) {
            page.process.leave(retiring: false)
            page.close(endingProcess: false)
        }
        idle.removeAll(where: condition)
    }

    /// Where a new page for `options` that loads `url` goes: beside a page made with the same options, for the
    /// same web host, whose web process has room for it, once that process is up (`neighbourStartLimit`),
    /// else in a process of its own. Local files never share. The page is counted in the process it goes to.
    private func placement(for options: PageSettings, loading url: URL) async -> WebKitPage.Placement {
        guard sharesProcesses, configuration.pagesPerProcess > 1, ["http", "https"].contains(url.scheme?.lowercased()),
              let host = url.host(), !host.isEmpty else { return .newProcess }
        let neighbour = (checkedOut + idle).first { page in
            page.options == options && page.site == host && page.process.takesNewPages
                && page.process.pages < configuration.pagesPerProcess
        }
        guard let neighbour else { return .newProcess }
        neighbour.process.join()
        guard await neighbour.process.waitUntilUp(atMost: Self.neighbourStartLimit), neighbour.isOpen, neighbour.process.takesNewPages else {
            neighbour.process.leave(retiring: false)
            return .newProcess
        }
        return .beside(neighbour)
    }

    /// Counts a page back; when none is in use, wakes the check-outs waiting to change the languages.
    private func returned() {
        inUse -= 1
        guard inUse == 0 else { return }
        let waiting = waitingForLanguages
        waitingForLanguages = []
        waiting.forEach { $0.continuation.resume() }
    }

    /// Wakes the check-out `id`, whose task was cancelled, if it still waits.
    private func stopWaiting(_ id: UUID) {
        guard let index = waitingForLanguages.firstIndex(where: { $0.id == id }) else { return }
        waitingForLanguages.remove(at: index).continuation.resume()
    }

    /// Takes back a page a job is done with, `how` its attempt ended. When its job succeeded and it has served
    /// fewer than `recycleAfter` loads, the page is replaced by a fresh tab in the same web process, kept for the
    /// next job: nothing of the page's documents (history, session storage, window name, timers, workers, a
    /// load still going on) reaches that job. Otherwise the page ends, and its web process with it unless other
    /// pages live there and the page still answered (`how` is not `.unresponsive`); a process whose page has
    /// served its loads takes no new page, so that it ends with the pages it has.
    func checkIn(_ page: any WebPage, _ how: PageReturn) {
        returned()
        guard let page = page as? WebKitPage else {
            page.close()
            return
        }
        checkedOut.removeAll { $0 === page }
        page.process.jobEnded()
        if page.process.exceededMemoryLimitWithSeveralJobs && sharesProcesses {
            sharesProcesses = false
            discardIdle { $0.process.pages > 1 }
        }
        if how == .succeeded, !page.process.hasEnded, page.loads < configuration.recycleAfter, idle.count < Self.idleLimit {
            idle.append(page.successor())
            return
        }
        // Left before closing: closing may end the process, and the other pages' jobs, checked in from inside
        // this call, must not count this page any more.
        let othersRemain = page.process.pages > 1
        page.process.leave(retiring: page.loads >= configuration.recycleAfter)
        page.close(endingProcess: how == .unresponsive || !othersRemain)
    }

    /// The WebKit context, made on first use with the session's storage and proxy.
    private var webContext: OpaquePointer {
        if let context { return context }
        var directory: String?
        if case .persistent(let url) = configuration.storage { directory = url.path }
        let context = wk_context_new(directory, UInt32(configuration.memoryLimit ?? 0), 0.2)!
        MemoryGuard.shared.open(self, limit: configuration.memoryLimit)
        if let proxy = configuration.proxy {
            withCStringArray(proxy.bypass) { wk_context_set_proxy(context, proxy.url.absoluteString, $0) }
        }
        self.context = context
        return context
    }

    /// Adds `cookies` to the context.
    /// - Throws: `WebParserError` with kind `.storageFailed` when WebKit refuses one, or when the session cookies
    ///   kept in a persistent session's folder cannot be read.
    func add(_ cookies: [WebParserCookie]) async throws {
        try await restoreSessionCookies()
        try await addToContext(cookies)
    }

    private func addToContext(_ cookies: [WebParserCookie]) async throws {
        for cookie in cookies {
            try await Self.operation("cannot add the cookie \(cookie.redactedDescription)") { callback, box in
                cookie.withCookie { wk_context_add_cookie(webContext, $0, callback, box) }
            }
        }
    }

    /// Every cookie of the context.
    /// - Throws: `WebParserError` with kind `.storageFailed` when WebKit cannot list them.
    func cookies() async throws -> [WebParserCookie] {
        try await restoreSessionCookies()
        return try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<[WebParserCookie], Error>) in
            let box = CallbackBox.retained(continuation)
            wk_context_get_cookies(webContext, { context, cookies, count, message in
                let continuation = CallbackBox<CheckedContinuation<[WebParserCookie], Error>>.take(context)
                guard let cookies else {
                    let reason = message.map { String(cString: $0) } ?? "unknown error"
                    continuation.resume(throwing: WebParserError(.storageFailed("cannot list the cookies: \(reason)")))
                    return
                }
                continuation.resume(returning: UnsafeBufferPointer(start: cookies, count: count).map(WebParserCookie.init))
            }, box)
        }
    }

    /// Removes every cookie, cached response and stored item of the context.
    /// - Throws: `WebParserError` with kind `.storageFailed` when WebKit cannot.
    func clearData() async throws {
        restoredSessionCookies = true
        try await Self.operation("cannot clear the session's data") { callback, box in
            wk_context_clear_data(webContext, false, callback, box)
        }
        if let file = sessionCookiesURL { try? FileManager.default.removeItem(at: file) }
    }

    /// Writes the context's session cookies into a persistent session's folder, and makes every file there
    /// private; nothing for an in-memory session.
    /// - Throws: `WebParserError` with kind `.storageFailed` when WebKit cannot list the cookies or the file
    ///   cannot be written.
    func save() async throws {
        guard let file = sessionCookiesURL else { return }
        let sessionCookies = try await cookies().filter { $0.expires == nil }
        do {
            try PrivateFiles.write(CookieFile.json(sessionCookies), to: file)
        } catch {
            throw WebParserError(.storageFailed("cannot keep the session cookies in \(file.path): \(error)"))
        }
        await restrictFolder()
    }

    /// Makes every file of a persistent session's folder readable by its owner only, once WebKit's network
    /// process has done what it had queued on its stores (it creates some of their folders late, with the
    /// umask's permissions); nothing for an in-memory session.
    func restrictFolder() async {
        guard case .persistent(let folder) = configuration.storage else { return }
        if let context {
            try? await Self.operation("cannot list the session's data") { callback, box in
                wk_context_sync_data(context, callback, box)
            }
        }
        PrivateFiles.restrictContents(of: folder)
    }

    private var sessionCookiesURL: URL? {
        guard case .persistent(let folder) = configuration.storage else { return nil }
        return folder.appending(path: Self.sessionCookiesFile)
    }

    /// Gives the context, once, the session cookies its folder kept from the last run, as a browser restoring
    /// its last session does.
    /// - Throws: `WebParserError` with kind `.storageFailed` when the file cannot be read or WebKit refuses a cookie.
    private func restoreSessionCookies() async throws {
        guard !restoredSessionCookies else { return }
        restoredSessionCookies = true
        guard let file = sessionCookiesURL, FileManager.default.fileExists(atPath: file.path) else { return }
        let bytes: Data
        do {
            bytes = try InputFile.read(file.path)
        } catch {
            throw WebParserError(.storageFailed("cannot read the session cookies kept in \(file.path): \(error)"))
        }
        guard let text = String(data: bytes, encoding: .utf8) else {
            throw WebParserError(.storageFailed("cannot read the session cookies kept in \(file.path): not UTF-8 text; delete the file to start logged out"))
        }
        let cookies: [WebParserCookie]
        do {
            cookies = try CookieFile.parse(text)
        } catch {
            throw WebParserError(.storageFailed("cannot read the session cookies kept in \(file.path): \(error); delete the file to start logged out"))
        }
        try await addToContext(cookies)
    }

    /// Removes the context's cached responses, so that the next loads ask the servers.
    /// - Throws: `WebParserError` with kind `.storageFailed` when WebKit cannot.
    func clearCache() async throws {
        try await Self.operation("cannot clear the HTTP cache") { callback, box in
            wk_context_clear_data(webContext, true, callback, box)
        }
    }

    /// Runs a shim operation that reports through a `WKDoneCallback`, and awaits it.
    private static func operation(_ failure: String, _ start: (WKDoneCallback, UnsafeMutableRawPointer) -> Void)
        async throws
    {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, Error>) in
            let box = CallbackBox.retained((continuation, failure))
            start({ context, message in
                let (continuation, failure) = CallbackBox<(CheckedContinuation<Void, Error>, String)>.take(context)
                if let message {
                    continuation.resume(throwing: WebParserError(.storageFailed("\(failure): \(String(cString: message))")))
                } else {
                    continuation.resume()
                }
            }, box)
        }
    }

    private func filter(for blocking: ContentBlocking) async throws -> ContentFilter? {
        guard !blocking.isEmpty else { return nil }
        if let filter = filters[blocking] { return filter }
        let filter = try await ContentFilter.compile(blocking)
        filters[blocking] = filter
        return filter
    }

    isolated deinit {
        idle.forEach { $0.close() }
        if let context {
            wk_context_free(context)
            MemoryGuard.shared.close(self)
        }
    }
}

private extension WebParserCookie {
    init(_ cookie: WKCookie) {
        self.init(name: String(cString: cookie.name), value: String(cString: cookie.value),
                  domain: String(cString: cookie.domain), path: cookie.path.map { String(cString: $0) } ?? "/",
                  expires: cookie.expires >= 0 ? Date(timeIntervalSince1970: TimeInterval(cookie.expires)) : nil,
                  secure: cookie.secure, httpOnly: cookie.http_only,
                  sameSite: cookie.same_site == WK_SAME_SITE_STRICT ? .strict : cookie.same_site == WK_SAME_SITE_LAX ? .lax : .none)
    }

    /// Calls `body` with the cookie as a `WKCookie` whose strings live during the call.
    func withCookie<Result>(_ body: (WKCookie) -> Result) -> Result {
        name.withCString { name in
            value.withCString { value in
                domain.withCString { domain in
                    path.withCString { path in
                        body(WKCookie(name: name, value: value, domain: domain, path: path,
                                      expires: expires.map { Int64($0.timeIntervalSince1970) } ?? -1,
                                      secure: secure, http_only: httpOnly,
                                      same_site: sameSite == .strict ? WK_SAME_SITE_STRICT : sameSite == .lax ? WK_SAME_SITE_LAX : WK_SAME_SITE_NONE))
                    }
                }
            }
        }
    }
}
