import FoundationEssentials

/// The pages of a browsing context and the web processes they share, as a plain value: which pages are idle
/// and which are checked out for a job, where a new page goes, what becomes of a page after its job, and the
/// gate that keeps jobs of different languages apart. `BrowsingContext` carries out its decisions with WebKit.
///
/// Pages and processes are named by numbers the pool gives out; a page and the fresh tabs that replace it, job
/// after job, keep one process.
struct PagePool {
    /// A page the pool gave out.
    typealias PageID = Int
    /// A web process the pool's pages live in.
    typealias ProcessID = Int

    /// What the pool knows of a page.
    struct Page: Equatable {
        let id: PageID
        let options: PageSettings
        /// The host of the page its job loads (set when it is checked out).
        var site: String?
        /// How many loads the page and the pages it succeeded have started.
        var loads: Int
        let process: ProcessID
        /// The tab group of the job it was checked out for (`WebParserJob.tabGroup`); an idle page with one is that
        /// group's tab, kept as it is.
        var tabGroup: String? = nil
    }

    /// What the session's configuration says about sharing and recycling.
    struct Limits: Equatable {
        /// How many pages a web process may hold.
        var pagesPerProcess: Int
        /// How many loads a web process serves before it retires.
        var recycleAfter: Int
        /// The most idle pages kept for reuse.
        var idlePages = 8
    }

    /// Whether a check-out may go on.
    enum Admission: Equatable {
        /// It goes on, after setting the context's languages to these when they change.
        case enter(settingLanguages: [String]?)
        /// It waits until the pages in use for other languages come back (it is woken by `leave()`).
        case wait
    }

    /// Where a new page goes.
    enum Placement: Equatable {
        /// In a new web process.
        case newProcess
        /// Beside `page`, in its `process`, once that process is up; the page is counted in the process already.
        case beside(page: PageID, process: ProcessID)
    }

    /// An idle page a check-out takes.
    enum IdlePage: Equatable {
        /// The page itself: a fresh tab, or the job's tab group's tab.
        case page(PageID)
        /// A fresh tab, numbered `id`, in the web process of `replacing`, another tab group's tab, which is closed.
        case freshTab(id: PageID, replacing: PageID)
    }

    /// What becomes of a page checked in after its job.
    enum Return: Equatable {
        /// The page is replaced by a fresh tab in its web process, `successor`, kept idle for the next job.
        case keep(successor: PageID)
        /// The page stays as it is, idle, for the next job of its tab group (another job gets a fresh tab there).
        case keepTab
        /// The page is closed, and its web process with it when `endingProcess`.
        case close(endingProcess: Bool)
    }

    let limits: Limits
    private(set) var idle: [Page] = []
    private(set) var checkedOut: [Page] = []
    private(set) var processes: [ProcessID: ProcessShareMachine] = [:]
    /// The languages of the pages in use now: WebKit applies them to the whole web context.
    private var languages: [String] = []
    /// How many check-outs have entered and not yet come back.
    private var inUse = 0
    /// Check-outs waiting for the pages in use to come back, to change the languages, in order.
    private(set) var waiting: [UUID] = []
    /// Whether a new page may go beside another: until a shared process goes over the memory limit, after which
    /// each new page gets a process of its own, so that the page to blame fails alone.
    private(set) var sharesProcesses = true
    private var lastID = 0

    /// An empty pool with `limits`.
    init(limits: Limits) {
        self.limits = limits
    }

    // MARK: The language gate

    /// Lets the check-out `waiter`, for pages in `languages`, enter or wait: while pages for other languages are
    /// in use it waits until they are all back, and while others wait so, it waits behind them, so that jobs of
    /// one language cannot hold another off.
    mutating func admit(_ waiter: UUID, languages: [String]) -> Admission {
        if inUse > 0 && (languages != self.languages || !waiting.isEmpty) {
            waiting.append(waiter)
            return .wait
        }
        inUse += 1
        guard languages != self.languages else { return .enter(settingLanguages: nil) }
        self.languages = languages
        return .enter(settingLanguages: languages)
    }

    /// Counts a check-out that entered back (its page came back, or it failed to make one); when none is in use,
    /// says which waiting check-outs to wake (they ask to enter again).
    mutating func leave() -> [UUID] {
        precondition(inUse > 0, "PagePool: a check-out left that never entered")
        inUse -= 1
        guard inUse == 0 else { return [] }
        defer { waiting = [] }
        return waiting
    }

    /// Takes `waiter`, whose task was cancelled, out of the queue; false when it no longer waits.
    mutating func stopWaiting(_ waiter: UUID) -> Bool {
        guard let index = waiting.firstIndex(of: waiter) else { return false }
        waiting.remove(at: index)
        return true
    }

    // MARK: Pages out

    /// Takes the idle pages whose web process ended out of the pool: a fresh tab there would start a process
    /// WebKit did not count with its neighbours. The caller closes them.
    mutating func discardEndedIdle() -> [PageID] {
        discardIdle(inProcesses: { $0.hasEnded })
    }

    /// Checks out an idle page made with `options` for a job of `tabGroup` that loads `host`, if there is one:
    /// the group's own tab first, then a fresh tab, then a fresh tab in place of another group's tab.
    mutating func takeIdle(options: PageSettings, loading host: String?, tabGroup: String? = nil) -> IdlePage? {
        let index =
            idle.firstIndex { $0.options == options && tabGroup != nil && $0.tabGroup == tabGroup }
            ?? idle.firstIndex { $0.options == options && $0.tabGroup == nil } ?? idle.firstIndex { $0.options == options }
        guard let index else { return nil }
        var page = idle.remove(at: index)
        let kept = page.tabGroup
        page.site = host
        page.tabGroup = tabGroup
        guard kept != nil, kept != tabGroup else {
            checkOut(page)
            return .page(page.id)
        }
        let fresh = Page(id: nextID(), options: options, site: host, loads: page.loads, process: page.process, tabGroup: tabGroup)
        checkOut(fresh)
        return .freshTab(id: fresh.id, replacing: page.id)
    }

    /// Where a new page for `options` that loads `url` goes: beside a page made with the same options, for the
    /// same web host, whose web process takes new pages and has room for it, else in a process of its own. Local
    /// files never share. The page is counted in the process it goes to; the caller waits until that process
    /// is up, then calls `placedBeside` (or `newPage` with the new process).
    mutating func placement(for options: PageSettings, loading url: URL) -> Placement {
        guard sharesProcesses, limits.pagesPerProcess > 1, ["http", "https"].contains(url.scheme?.lowercased()),
            let host = url.host(), !host.isEmpty
        else { return .newProcess }
        let neighbour = (checkedOut + idle).first { page in
            page.options == options && page.site == host && processes[page.process]?.takesNewPages == true
                && (processes[page.process]?.pages ?? .max) < limits.pagesPerProcess
        }
        guard let neighbour else { return .newProcess }
        processes[neighbour.process]?.join()
        return .beside(page: neighbour.id, process: neighbour.process)
    }

    /// Whether a page placed beside `page` in `process` may join it now that the wait for the process is over:
    /// the neighbour is still there and its process takes pages; if not, the page is no longer counted there and
    /// goes to a process of its own.
    mutating func mayJoin(beside page: PageID, in process: ProcessID) -> Bool {
        let present = (checkedOut + idle).contains { $0.id == page }
        if present, processes[process]?.isJoinable == true { return true }
        processes[process]?.leave(retiring: false)
        return false
    }

    /// Checks out a new page made with `options` for a job that loads `host`, in `process` (its neighbour's), or
    /// in a new process when nil; with `alone`, that new process takes no other page. Returns the page's number
    /// and its process's.
    mutating func newPage(options: PageSettings, loading host: String?, in process: ProcessID?, alone: Bool, tabGroup: String? = nil)
        -> (page: PageID, process: ProcessID)
    {
        let process = process ?? newProcess(alone: alone)
        let page = Page(id: nextID(), options: options, site: host, loads: 0, process: process, tabGroup: tabGroup)
        checkOut(page)
        return (page.id, process)
    }

    private mutating func newProcess(alone: Bool) -> ProcessID {
        let id = nextID()
        var process = ProcessShareMachine()
        if alone { process.retire() }
        processes[id] = process
        return id
    }

    private mutating func checkOut(_ page: Page) {
        checkedOut.append(page)
        processes[page.process]?.jobStarted()
    }

    /// Whether a checked-out page should prepare the fresh tab that replaces it once its document arrives: when
    /// it will have served fewer loads than a process serves, and its job's tab group does not keep the page.
    func preparesSuccessor(_ page: PageID) -> Bool {
        guard let page = checkedOut.first(where: { $0.id == page }) else { return false }
        return page.tabGroup == nil && page.loads + 1 < limits.recycleAfter
    }

    // MARK: Pages back

    /// Takes back `page` after its job, which made `loads` loads in all and ended `how`. When its job succeeded,
    /// its process still runs and it has served fewer than `recycleAfter` loads, the page is replaced by a fresh
    /// tab in the same web process, kept for the next job (or, when its job had a tab group, kept as it is for the
    /// group's next job). Otherwise the page ends, and its web process with it
    /// unless other pages live there and the page still answered (`how` is not `.unresponsive`); a process whose
    /// page has served its loads takes no new page, so that it ends with the pages it has. Also says which idle
    /// pages to close: after a shared process went over the memory limit, every idle page that shares one.
    mutating func checkIn(_ id: PageID, loads: Int, _ how: PageReturn) -> (Return, discarded: [PageID]) {
        guard let index = checkedOut.firstIndex(where: { $0.id == id }) else {
            preconditionFailure("PagePool: page \(id) was not checked out")
        }
        var page = checkedOut.remove(at: index)
        page.loads = loads
        processes[page.process]?.jobEnded()
        guard let process = processes[page.process] else { preconditionFailure("PagePool: page \(id) has no process") }
        var discarded: [PageID] = []
        if process.exceededMemoryLimitWithSeveralJobs && sharesProcesses {
            sharesProcesses = false
            discarded = discardIdle(inProcesses: { $0.pages > 1 })
        }
        if how == .succeeded, !process.hasEnded, loads < limits.recycleAfter, idle.count < limits.idlePages {
            if page.tabGroup != nil {
                idle.append(page)
                return (.keepTab, discarded)
            }
            let successor = Page(id: nextID(), options: page.options, site: page.site, loads: loads, process: page.process)
            idle.append(successor)
            return (.keep(successor: successor.id), discarded)
        }
        let othersRemain = process.pages > 1
        leaveProcess(page, retiring: loads >= limits.recycleAfter)
        return (.close(endingProcess: how == .unresponsive || !othersRemain), discarded)
    }

    // MARK: Processes

    /// Records that a load in `process` started or failed: the process is up.
    mutating func loadStarted(in process: ProcessID) {
        processes[process]?.loadStarted()
    }

    /// Records that `process` ended with `termination`, and says what the page that heard it is told.
    mutating func processEnded(_ process: ProcessID, _ termination: ProcessTermination) -> ProcessTermination {
        processes[process]?.ended(termination) ?? termination
    }

    /// Whether pages that would join `process` must wait for its first load.
    func isStarting(_ process: ProcessID) -> Bool {
        processes[process]?.isStarting == true
    }

    /// Whether another job's page than `page`'s own is in use in its web process.
    func sharesProcessWithAnotherJob(_ page: PageID) -> Bool {
        guard let process = checkedOut.first(where: { $0.id == page })?.process else { return false }
        return processes[process]?.hasSeveralJobs == true
    }

    /// Counts a page out of its process, and forgets the process once no page lives there.
    private mutating func leaveProcess(_ page: Page, retiring: Bool) {
        processes[page.process]?.leave(retiring: retiring)
        if processes[page.process]?.pages == 0 { processes[page.process] = nil }
    }

    /// Takes the idle pages out of the processes `condition` picks.
    private mutating func discardIdle(inProcesses condition: (ProcessShareMachine) -> Bool) -> [PageID] {
        let picked = Set(processes.filter { condition($0.value) }.keys)
        let discarded = idle.filter { picked.contains($0.process) }
        idle.removeAll { picked.contains($0.process) }
        for page in discarded { leaveProcess(page, retiring: false) }
        return discarded.map(\.id)
    }

    private mutating func nextID() -> Int {
        lastID += 1
        return lastID
    }
}
