import WebParser
/// How a job's items are told apart between runs, and how many are remembered.
public struct Tracking: Sendable, Equatable {
    /// A dot-separated path to the field that identifies an item of an array result (`id`, `link.href`); nil
    /// identifies an item by all of it.
    public var key: String?
    /// How many item identities a job remembers unless it says otherwise.
    public static let defaultRemember = 5000

    /// How many item identities a job remembers; the oldest are forgotten first.
    public var remember = defaultRemember
    /// Whether a paginated job stops at the first page whose items were all seen in earlier runs.
    public var stopsAtSeen = false
    /// Which of an item's fields make a feed entry's parts (`run --feed`); nil takes the usual names.
    public var feed: FeedFields?
    /// A JavaScript expression over `item` (or `result`) that an item must hold to be reported (`ItemCondition`),
    /// when it comes to hold; nil reports every item.
    public var when: String?
    /// How many runs in a row an item must be missing from the list before it is reported removed.
    public var confirm = defaultConfirm
    /// How many runs in a row a missing item confirms its removal unless the job says otherwise.
    public static let defaultConfirm = 2

    /// The fields of an item that make a feed entry's title, link, summary and date; nil parts take the usual
    /// names (`title`/`name`, `url`/`link`/`href`, `summary`/`description`, `updated`/`date`). `name` is the feed's
    /// own title, a text (nil: the title of the job's page).
    public struct FeedFields: Sendable, Equatable {
        /// The field of an entry's title.
        public var title: String?
        /// The field of an entry's link.
        public var link: String?
        /// The field of an entry's summary.
        public var summary: String?
        /// The field of an entry's date.
        public var updated: String?
        /// The feed's own title.
        public var name: String?

        /// Fields by name; nil parts take the usual names.
        public init(title: String? = nil, link: String? = nil, summary: String? = nil, updated: String? = nil, name: String? = nil) {
            self.title = title
            self.link = link
            self.summary = summary
            self.updated = updated
            self.name = name
        }
    }

    /// Tracking by `key` (nil: by all of an item), remembering the newest `remember` items.
    public init(key: String? = nil, remember: Int = defaultRemember) {
        self.key = key
        self.remember = remember
    }
}
