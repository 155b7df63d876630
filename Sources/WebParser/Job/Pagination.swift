import FoundationEssentials

/// How a job goes through a list spread over pages: after each page's result, it follows the "next" link or
/// button and evaluates the script again on the next page, until there is no next page, a page adds nothing,
/// `maxPages` pages were read, or `stopsAfter` says so. List results are concatenated; other results are
/// collected in an array, one per page.
public struct Pagination: Sendable, Equatable {
    /// Where the next page is.
    public enum Next: Sendable, Equatable {
        /// The "next" link or button a CSS selector matches. A link to a web page is loaded; a button (or a link
        /// that leads nowhere but to its click handler) is clicked with the view's pointer. None, hidden or
        /// disabled: the last page.
        case selector(String)
        /// JavaScript returning the next page's URL, or `null` (or `""`) on the last page.
        case script(String)
    }

    /// Where the next page is.
    public var next: Next
    /// The most pages read, the first included.
    public var maxPages: Int
    /// How many pages are read unless a job says otherwise.
    public static let defaultMaxPages = 10
    /// Asked with each page's result (JSON text); true makes that page the last (an update check that reached
    /// items it has already seen). Nil: never.
    public var stopsAfter: PageCheck?

    /// Pagination by `next`, for at most `maxPages` pages.
    public init(next: Next, maxPages: Int = defaultMaxPages, stopsAfter: PageCheck? = nil) {
        self.next = next
        self.maxPages = maxPages
        self.stopsAfter = stopsAfter
    }
}

/// A question asked of each page's result, such as "were all of its items seen before?". Two checks are equal
/// when they are the same check.
public final class PageCheck: Sendable, Equatable {
    private let check: @Sendable (Data) -> Bool

    /// A check that answers with `check`, given a page's result as JSON text.
    public init(_ check: @escaping @Sendable (Data) -> Bool) {
        self.check = check
    }

    /// `check`'s answer for `result`.
    public func holds(for result: Data) -> Bool { check(result) }

    /// Whether `lhs` and `rhs` are the same check.
    public static func == (lhs: PageCheck, rhs: PageCheck) -> Bool { lhs === rhs }
}
