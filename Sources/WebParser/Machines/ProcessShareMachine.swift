/// The life of one web process shared by pages of a session, as a plain value: how many pages live in it and
/// how many are checked out for a job, whether new pages may join, and how it ended.
///
/// A page and the fresh tabs that replace it, job after job, count as one page of the process. The count may be
/// high, never low: WebKit moves a page that loads another site to a process of its own, and the page still
/// counts here.
struct ProcessShareMachine: Equatable {
    /// The pages in the process, and those of them checked out for a job.
    struct Occupancy: Equatable {
        var pages = 1
        var jobs = 0
    }

    /// How the process ended.
    struct Ending: Equatable {
        /// Whether it held more than one job's page then: no page is to blame.
        var withSeveralJobs: Bool
        /// Whether it went over the memory limit.
        var exceedingMemoryLimit: Bool
    }

    /// Where the process is.
    enum State: Equatable {
        /// No load in it has started yet: a page joining now may never get its own (seen with WebKitGTK 2.50: its
        /// navigation starts, its URL empties, and nothing follows), so joiners wait.
        case starting(Occupancy)
        /// A load in it has started: new pages may join.
        case up(Occupancy)
        /// It takes no new page: one of its pages has served its loads (so that the process ends with the pages
        /// it has), or its page needs a process of its own. It goes on serving the pages it has.
        case retiring(Occupancy)
        /// It crashed, was killed, or was stopped for one of its pages.
        case ended(Ending, Occupancy)
    }

    private(set) var state = State.starting(Occupancy())

    /// The counts, whatever the state.
    var occupancy: Occupancy {
        switch state {
        case .starting(let occupancy), .up(let occupancy), .retiring(let occupancy), .ended(_, let occupancy): occupancy
        }
    }

    /// How many pages live in the process.
    var pages: Int { occupancy.pages }

    /// Whether new pages may join now or once it is up.
    var takesNewPages: Bool {
        switch state {
        case .starting, .up: true
        case .retiring, .ended: false
        }
    }

    /// Whether a page may join now without waiting.
    var isJoinable: Bool { if case .up = state { true } else { false } }

    /// Whether pages that would join must wait for the process's first load; once it is not, they are woken
    /// (the process is up, or will never take them).
    var isStarting: Bool { if case .starting = state { true } else { false } }

    /// Whether the process ended.
    var hasEnded: Bool { if case .ended = state { true } else { false } }

    /// Whether another job's page than one's own is in use in the process.
    var hasSeveralJobs: Bool { occupancy.jobs > 1 }

    /// Whether the process ended over the memory limit while it held several jobs' pages.
    var exceededMemoryLimitWithSeveralJobs: Bool {
        if case .ended(let ending, _) = state { ending.withSeveralJobs && ending.exceedingMemoryLimit } else { false }
    }

    /// Counts a page that joins the process (or is about to).
    mutating func join() {
        change { $0.pages += 1 }
    }

    /// Counts a page that leaves the process (or will not join it after all); `retiring` when it leaves because
    /// it has served its loads.
    mutating func leave(retiring: Bool) {
        change { $0.pages -= 1 }
        if retiring { retire() }
    }

    /// Counts a page checked out for a job.
    mutating func jobStarted() {
        change { $0.jobs += 1 }
    }

    /// Counts a page checked in after its job.
    mutating func jobEnded() {
        change { $0.jobs -= 1 }
    }

    /// Records that a load in the process started (or failed): the process is up.
    mutating func loadStarted() {
        guard case .starting(let occupancy) = state else { return }
        state = .up(occupancy)
    }

    /// Takes no new page any more.
    mutating func retire() {
        switch state {
        case .starting(let occupancy), .up(let occupancy): state = .retiring(occupancy)
        case .retiring, .ended: break
        }
    }

    /// Records that the process ended with `termination`, as one of its pages heard, and says what the page is
    /// told: the first report counts (every page of the process reports it, and the first one's job may end
    /// before the next page hears of it), and a process that held several jobs' pages ended with another job,
    /// since WebKit does not say because of which page it crashed or went over the limit.
    mutating func ended(_ termination: ProcessTermination) -> ProcessTermination {
        if !hasEnded {
            state = .ended(
                Ending(withSeveralJobs: hasSeveralJobs, exceedingMemoryLimit: termination == .exceededMemoryLimit),
                occupancy)
        }
        guard case .ended(let ending, _) = state, ending.withSeveralJobs else { return termination }
        return .endedWithAnotherJob
    }

    private mutating func change(_ count: (inout Occupancy) -> Void) {
        defer {
            precondition(
                occupancy.pages >= 0 && occupancy.jobs >= 0,
                "ProcessShareMachine: counted \(occupancy)")
        }
        switch state {
        case .starting(var occupancy):
            count(&occupancy)
            state = .starting(occupancy)
        case .up(var occupancy):
            count(&occupancy)
            state = .up(occupancy)
        case .retiring(var occupancy):
            count(&occupancy)
            state = .retiring(occupancy)
        case .ended(let ending, var occupancy):
            count(&occupancy)
            state = .ended(ending, occupancy)
        }
    }
}
