/// The pages of a session that share one web process.
///
/// A page and the fresh tabs that replace it, job after job, count as one page of the process. The count may
/// be high, never low: WebKit moves a page that loads another site to a process of its own, and the page
/// still counts here.
@WebKitActor
final class WebProcessShare {
    /// How many pages live in the process.
    private(set) var pages = 1
    /// How many of them are checked out for a job.
    private(set) var jobs = 0
    /// Whether new pages may still join: false once one of its pages has served its loads (so that the process
    /// ends when its pages do), once a page needs a process of its own, and once the process has ended.
    private(set) var isOpen = true
    /// Whether the process ended: crashed, killed, or stopped for one of its pages.
    private(set) var hasEnded = false
    /// Whether the process ended while it held more than one job's page: no page is to blame.
    private(set) var endedWithSeveralJobs = false
    /// Whether, then, it was for going over the memory limit.
    private(set) var exceededMemoryLimitWithSeveralJobs = false

    /// Counts a page that joins the process.
    func join() {
        pages += 1
    }

    /// Counts a page that leaves the process; `retiring` when it leaves because it has served its loads.
    func leave(retiring: Bool) {
        pages -= 1
        if retiring { isOpen = false }
    }

    /// Takes no new page any more.
    func close() {
        isOpen = false
    }

    /// Counts a page checked out for a job.
    func jobStarted() {
        jobs += 1
    }

    /// Counts a page checked in after its job.
    func jobEnded() {
        jobs -= 1
    }

    /// Whether another job's page than one's own is in use in the process.
    var hasSeveralJobs: Bool { jobs > 1 }

    /// Records that the process ended, for going over the memory limit or otherwise; the first report counts
    /// (every page of the process reports it, and the first one's job may end before the next page hears of it).
    func ended(exceedingMemoryLimit: Bool) {
        guard !hasEnded else { return }
        hasEnded = true
        isOpen = false
        endedWithSeveralJobs = hasSeveralJobs
        exceededMemoryLimitWithSeveralJobs = hasSeveralJobs && exceedingMemoryLimit
    }
}
