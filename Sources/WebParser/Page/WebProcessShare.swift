/// The pages of a session that share one web process.
///
/// A page and the fresh tabs that replace it, job after job, count as one page of the process. The count may
/// be high, never low: WebKit moves a page that loads another site to a process of its own, and the page
/// still counts here.
@WebKitActor
final class WebProcessShare {
    /// How many pages live in the process.
    private(set) var pages = 1
    /// Whether new pages may still join: false once one of its pages has served its loads (so that the process
    /// ends when its pages do) or the process has ended.
    private(set) var isOpen = true
    /// Whether the process ended: crashed, killed, or stopped for one of its pages.
    private(set) var hasEnded = false
    /// Whether WebKit stopped the process for going over the memory limit while it held more than one page.
    private(set) var exceededMemoryLimitWhileShared = false

    /// Counts a page that joins the process.
    func join() {
        pages += 1
    }

    /// Counts a page that leaves the process; `retiring` when it leaves because it has served its loads.
    func leave(retiring: Bool) {
        pages -= 1
        if retiring { isOpen = false }
    }

    /// Records that the process ended, for going over the memory limit or otherwise.
    func ended(exceedingMemoryLimit: Bool) {
        if exceedingMemoryLimit && isShared { exceededMemoryLimitWhileShared = true }
        hasEnded = true
        isOpen = false
    }

    /// Whether another page lives in the process.
    var isShared: Bool { pages > 1 }
}
