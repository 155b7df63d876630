internal import CWebKitGTK
import FoundationEssentials

/// The WebKit web context behind a session: one network process, one cookie jar and cache for its pages,
/// the content filters its pages use, and the idle pages that the next jobs reuse. Created on first use and
/// freed with the session.
@WebKitActor
final class BrowsingContext {
    /// How long a new page waits for its neighbour's web process to start its first load before it takes a
    /// process of its own: a process start, which a loaded machine (or a debug build) can stretch past a second.
    static let neighbourStartLimit: Duration = .seconds(3)

    private let configuration: WebParserSession.Configuration
    private var context: OpaquePointer?
    private var filters: [ContentBlocking: ContentFilter] = [:]
    /// Which pages are idle and checked out, and the web processes they share.
    private var pool: PagePool
    /// The pool's pages, idle and checked out.
    private var pages: [PagePool.PageID: WebKitPage] = [:]
    /// The check-outs the pool's language gate holds, until the pages in use for other languages come back.
    private var admissions: [UUID: CheckedContinuation<Void, Never>] = [:]
    /// The new pages waiting for their neighbour's web process to be up, by process.
    private var joiners: [PagePool.ProcessID: [UUID: CheckedContinuation<Void, Never>]] = [:]
    /// The session's cookies and stored data in the context, made with it.
    private var store: SessionStore?

    nonisolated init(configuration: WebParserSession.Configuration) {
        self.configuration = configuration
        pool = PagePool(
            limits: PagePool.Limits(
                pagesPerProcess: configuration.pagesPerProcess,
                recycleAfter: configuration.recycleAfter))
    }

    /// A page for `options` to load `url`: an idle one made with the same options, or a fresh one, beside a
    /// page of the same options and site in its web process when that process has room for it
    /// (`pagesPerProcess`; it waits for that process's first load to start, `neighbourStartLimit` at most), else
    /// in a web process of its own. With `alone`, a fresh page in a web process that takes no other. When pages
    /// for other languages are in use, it waits until they are all checked in (`PagePool.admit`). Every page
    /// checked out must be checked in.
    /// - Throws: `WebParserError` with kind `.environmentUnavailable` when the page's content filter cannot
    ///   be compiled; `CancellationError` when the task is cancelled while it waits.
    func checkOut(options: PageSettings, for url: URL, alone: Bool = false, tabGroup: String? = nil) async throws -> any WebPage {
        try await sessionStore.restoreSessionCookies()
        try await admit(options.languages)
        let context = webContext
        close(pool.discardEndedIdle())
        if !alone, let taken = pool.takeIdle(options: options, loading: url.host(), tabGroup: tabGroup), let page = page(taken) {
            page.checkedOut(preparingSuccessor: pool.preparesSuccessor(page.id))
            return page
        }
        let filter: ContentFilter?
        do {
            filter = try await self.filter(for: options.blocking)
        } catch {
            wake(pool.leave())
            throw error
        }
        var neighbour: WebKitPage?
        if !alone, case .beside(let neighbourID, let process) = pool.placement(for: options, loading: url) {
            await waitUntilUp(process)
            if pool.mayJoin(beside: neighbourID, in: process) { neighbour = pages[neighbourID] }
        }
        let (id, process) = pool.newPage(options: options, loading: url.host(), in: neighbour?.process, alone: alone, tabGroup: tabGroup)
        let page = WebKitPage(
            context: context, options: options, filter: filter,
            placement: neighbour.map { .beside($0) } ?? .newProcess(process))
        page.id = id
        page.owner = self
        pages[id] = page
        page.checkedOut(preparingSuccessor: pool.preparesSuccessor(id))
        return page
    }

    /// The idle page the pool gave out: the page itself, or a fresh tab in place of another tab group's tab.
    private func page(_ taken: PagePool.IdlePage) -> WebKitPage? {
        switch taken {
        case .page(let id):
            return pages[id]
        case .freshTab(let id, let replacing):
            guard let kept = pages.removeValue(forKey: replacing) else { return nil }
            let page = kept.successor(id: id)
            pages[id] = page
            return page
        }
    }

    /// Takes back a page a job is done with, `how` its attempt ended, and does what the pool decides
    /// (`PagePool.checkIn`): the page is replaced by a fresh tab in its web process, kept for the next job
    /// (nothing of the page's documents reaches that job: history, session storage, window name, timers,
    /// workers, a load still going on), or it ends, with its web process or not.
    func checkIn(_ page: any WebPage, _ how: PageReturn) {
        wake(pool.leave())
        guard let page = page as? WebKitPage, pages[page.id] === page else {
            page.close()
            return
        }
        let (decision, discarded) = pool.checkIn(page.id, loads: page.loads, how)
        pages[page.id] = nil
        close(discarded)
        switch decision {
        case .keep(let successor):
            pages[successor] = page.successor(id: successor)
        case .keepTab:
            pages[page.id] = page
        case .close(let endingProcess):
            page.close(endingProcess: endingProcess)
        }
        wakeJoiners()
    }

    /// Whether another job's page than page `id`'s own is in use in its web process.
    func sharesProcessWithAnotherJob(_ id: PagePool.PageID) -> Bool {
        pool.sharesProcessWithAnotherJob(id)
    }

    /// Records that a load in `process` started or failed: the process is up.
    func processUp(_ process: PagePool.ProcessID) {
        pool.loadStarted(in: process)
        wakeJoiners()
    }

    /// Records that `process` ended with `termination`, as one of its pages heard, and says what that page's
    /// job is told.
    func processEnded(_ process: PagePool.ProcessID, _ termination: ProcessTermination) -> ProcessTermination {
        defer { wakeJoiners() }
        return pool.processEnded(process, termination)
    }

    /// Lets a check-out for pages in `languages` go on, once the pool's language gate lets it.
    /// - Throws: `CancellationError` when the task is cancelled while it waits.
    private func admit(_ languages: [String]) async throws {
        while true {
            let waiter = UUID()
            switch pool.admit(waiter, languages: languages) {
            case .enter(let setting):
                if let setting { setLanguages(setting) }
                return
            case .wait:
                await withTaskCancellationHandler {
                    await withCheckedContinuation { continuation in
                        admissions[waiter] = continuation
                        if Task.isCancelled { stopWaiting(waiter) }
                    }
                } onCancel: {
                    Task { @WebKitActor in self.stopWaiting(waiter) }
                }
                try Task.checkCancellation()
            }
        }
    }

    /// Gives pages `languages`, or, for none, the languages of the environment's locale (`SystemLocale`): a language
    /// tag always, which WebKit's own default is not under a locale such as `C.UTF-8`.
    private func setLanguages(_ languages: [String]) {
        withCStringArray(languages.isEmpty ? SystemLocale.current.languages : languages) {
            wk_context_set_preferred_languages(webContext, $0)
        }
    }

    /// Wakes the check-outs `waiters` (they ask the gate again).
    private func wake(_ waiters: [UUID]) {
        for waiter in waiters { admissions.removeValue(forKey: waiter)?.resume() }
    }

    /// Wakes the check-out `waiter`, whose task was cancelled, if it still waits.
    private func stopWaiting(_ waiter: UUID) {
        if pool.stopWaiting(waiter) { wake([waiter]) }
    }

    /// Waits until `process` is up, or will never take the page, for `neighbourStartLimit` at most. A page that
    /// joins a process before the process's first load has started may never get its own (seen with WebKitGTK
    /// 2.50: its navigation starts, its URL empties, and nothing follows).
    private func waitUntilUp(_ process: PagePool.ProcessID) async {
        guard pool.isStarting(process) else { return }
        let id = UUID()
        await withCheckedContinuation { continuation in
            joiners[process, default: [:]][id] = continuation
            Task {
                try? await Task.sleep(for: Self.neighbourStartLimit)
                self.joiners[process]?.removeValue(forKey: id)?.resume()
            }
        }
    }

    /// Wakes the new pages waiting for a process that is no longer starting.
    private func wakeJoiners() {
        for process in joiners.keys where !pool.isStarting(process) {
            joiners.removeValue(forKey: process)?.values.forEach { $0.resume() }
        }
    }

    /// Closes the pages the pool let go of; their web processes end with the last page in them.
    private func close(_ discarded: [PagePool.PageID]) {
        for id in discarded { pages.removeValue(forKey: id)?.close(endingProcess: false) }
    }

    /// The session's cookies and stored data, with the context made if it was not.
    var sessionStore: SessionStore {
        _ = webContext
        return store!
    }

    /// The WebKit context, made on first use with the session's storage and proxy.
    var webContext: OpaquePointer {
        if let context { return context }
        let memoryLimit = UInt32(configuration.memoryLimit ?? 0)
        let context =
            if let folder {
                folder.dataFolder.path.withCString { data in
                    folder.cacheFolder.path.withCString { cache in
                        folder.cookieStore.path.withCString { cookies in
                            var storage = WKStorage(data_directory: data, cache_directory: cache, cookie_file: cookies)
                            return wk_context_new(&storage, memoryLimit, 0.2)!
                        }
                    }
                }
            } else {
                wk_context_new(nil, memoryLimit, 0.2)!
            }
        MemoryGuard.shared.open(self, limit: configuration.memoryLimit)
        // Every page tells what it has pending through the extension; pages of a capturing session also capture.
        if let folder = CaptureExtension.folder {
            wk_context_set_extensions_directory(
                context, folder.path, configuration.capturesResponses, UInt64(WebParserJob.Capture.defaultBodyLimit))
        }
        if let proxy = configuration.proxy {
            withCStringArray(proxy.bypass) { wk_context_set_proxy(context, proxy.url.absoluteString, $0) }
        }
        self.context = context
        store = SessionStore(context: context, folder: folder)
        // The pool's language gate starts with no languages of a job's own: the environment's.
        setLanguages([])
        return context
    }

    /// Makes every file of a persistent session's folder readable by its owner only (`SessionStore.restrictFolder`),
    /// also when no page was made.
    func restrictFolder() async {
        if let store { await store.restrictFolder() } else { folder?.restrictContents() }
    }

    /// A persistent session's folder; nil for an in-memory session.
    private var folder: SessionFolder? {
        guard case .persistent(let url) = configuration.storage else { return nil }
        return SessionFolder(url)
    }

    private func filter(for blocking: ContentBlocking) async throws -> ContentFilter? {
        guard !blocking.isEmpty else { return nil }
        if let filter = filters[blocking] { return filter }
        let filter = try await ContentFilter.compile(blocking)
        filters[blocking] = filter
        return filter
    }

    isolated deinit {
        pages.values.forEach { $0.close() }
        if let context {
            wk_context_free(context)
            MemoryGuard.shared.close(self)
        }
    }
}
