import FoundationEssentials
import WebParser

/// The detail page of each item of a job's list: the URL in one of the item's fields is loaded, in the same session,
/// with a job of its own, and that page's result is put into the item (`"follow": {"field": "url", "as": "detail",
/// …}`). Follows nest: the detail page's own list can be followed in turn.
public struct Follow: Sendable, Equatable {
    /// A dot-separated path to the field of each item that holds the page's URL (`url`, `link.href`); a relative
    /// URL is read against the page the list came from.
    public var field: String
    /// The name of the field each item gets: the detail page's result, or `{"error", "code"}` when it failed.
    public var into: String
    /// What runs in each detail page: its script or extraction, waits, steps, timeout, retries and page settings;
    /// its URL is each item's.
    public var job: WebParserJob
    /// The follow of the detail pages' own lists.
    public var follow: Follow? {
        get { nested.first }
        set { nested = newValue.map { [$0] } ?? [] }
    }
    private var nested: [Follow] = []

    /// The name each item gets when a follow does not say (`"as"`).
    public static let defaultInto = "detail"

    /// A follow of the URLs in `field`, each page's result into `into`, with `job` run in each page.
    public init(field: String, into: String = defaultInto, job: WebParserJob, follow: Follow? = nil) {
        self.field = field
        self.into = into
        self.job = job
        self.follow = follow
    }

    /// The job fields a followed page does not take: where it is (each item says), what a run names and orders,
    /// and what `--state` tracks (the items of the list that was followed are tracked).
    static let notForAPage: Set<String> = ["url", "urls", "name", "after", "key", "remember", "feed", "stopAtSeen", "when", "confirm", "every", "jitter"]
}
