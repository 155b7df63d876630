import Foundation

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
    private(set) var takesNewPages = true
    /// Whether the process ended: crashed, killed, or stopped for one of its pages.
    private(set) var hasEnded = false
    /// Whether the process ended while it held more than one job's page: no page is to blame.
    private(set) var endedWithSeveralJobs = false
    /// Whether, then, it was for going over the memory limit.
    private(set) var exceededMemoryLimitWithSeveralJobs = false
    /// Whether the process is up: a load in it has started (or failed), or the process ended.
    private(set) var isUp = false
    /// The pages waiting for the process to be up before they join it.
    private var waitingUntilUp: [UUID: CheckedContinuation<Void, Never>] = [:]

    /// Counts a page that joins the process (or is about to).
    func join() {
        pages += 1
    }

    /// Counts a page that leaves the process (or will not join it after all); `retiring` when it leaves because
    /// it has served its loads.
    func leave(retiring: Bool) {
        pages -= 1
        if retiring { takesNewPages = false }
    }

    /// Records that the process is up, and wakes the pages waiting to join it.
    func settle() {
        guard !isUp else { return }
        isUp = true
        let waiting = waitingUntilUp.values
        waitingUntilUp = [:]
        waiting.forEach { $0.resume() }
    }

    /// Waits until the process is up, for at most `limit`, and says whether it is. A page that joins a process
    /// before the process's first load has started may never get its own (seen with WebKitGTK 2.50: its
    /// navigation starts, its URL empties, and nothing follows), so a page joins only a process that is up.
    func waitUntilUp(atMost limit: Duration) async -> Bool {
        if !isUp {
            let id = UUID()
            await withCheckedContinuation { continuation in
                waitingUntilUp[id] = continuation
                Task {
                    try? await Task.sleep(for: limit)
                    self.waitingUntilUp.removeValue(forKey: id)?.resume()
                }
            }
        }
        return isUp
    }

    /// Takes no new page any more.
    func stopTakingPages() {
        takesNewPages = false
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
        takesNewPages = false
        endedWithSeveralJobs = hasSeveralJobs
        exceededMemoryLimitWithSeveralJobs = hasSeveralJobs && exceedingMemoryLimit
        settle()
    }
}
