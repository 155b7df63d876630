import FoundationEssentials

/// How a job's page is made: what a browser sets for a context or a tab before anything loads (Playwright's
/// `BrowserContext` options). Pages made with equal settings serve each other's jobs, each in a fresh tab.
public struct PageSettings: Sendable, Equatable {
    /// The user agent the page sees; nil keeps WebKit's.
    public var userAgent: String?
    /// The size of the page's window.
    public var viewport: Viewport
    /// The languages the page is asked for, best first (`["fr-FR", "fr"]`): they set Accept-Language,
    /// `navigator.language(s)` and the `Intl` locale. Empty keeps the system's.
    public var languages: [String]
    /// The kinds of subresource that are never requested.
    public var blockedResources: Set<WebParserJob.Resource>
    /// Subresources whose URL matches one of these patterns are never requested. The patterns are WebKit
    /// content-blocker URL filters: regular expressions with `.`, `*`, `+`, `?`, `[…]`, `(…)`, `^` and `$`, but
    /// no `|` and no `{n}`.
    public var blockedURLs: [String]
    /// Whether the page's own scripts run. The job's `script` runs either way.
    public var pageScripts: Bool
    /// User scripts run in the page's documents whose URL they match, at the time they ask for, in order.
    public var userScripts: [UserScript]
    /// Whether the page's console lines and unhandled errors are reported, as `WebParserMessage.console`.
    public var capturesConsole: Bool
    /// What happens when the page opens a window (`window.open`, a link with a target).
    public var popups: WebParserJob.PopupPolicy
    /// Whether the page may use WebGL. Its pages then run in web processes of their own, which load the system's
    /// GPU driver (Mesa: ~50 MB more a process on a machine without a GPU); without it `getContext("webgl")`
    /// is null, as in a browser without a GPU.
    public var webgl: Bool

    /// Settings with the defaults: WebKit's user agent, a 1280×800 viewport, the system's languages, images,
    /// media and fonts blocked (and no URL patterns), the page's scripts on, no user scripts, the console not
    /// captured, popups loaded in the page itself, and no WebGL.
    public init(
        userAgent: String? = nil, viewport: Viewport = Viewport(), languages: [String] = [],
        blockedResources: Set<WebParserJob.Resource> = WebParserJob.Resource.defaultBlocked,
        blockedURLs: [String] = [], pageScripts: Bool = true, userScripts: [UserScript] = [],
        capturesConsole: Bool = false, popups: WebParserJob.PopupPolicy = .follow, webgl: Bool = false
    ) {
        self.userAgent = userAgent
        self.viewport = viewport
        self.languages = languages
        self.blockedResources = blockedResources
        self.blockedURLs = blockedURLs
        self.pageScripts = pageScripts
        self.userScripts = userScripts
        self.capturesConsole = capturesConsole
        self.popups = popups
        self.webgl = webgl
    }
}

extension PageSettings {
    /// What the page's content filter blocks.
    var blocking: ContentBlocking { ContentBlocking(resources: blockedResources, urlPatterns: blockedURLs) }

    /// Whether a window the page opens is loaded in the page itself.
    var followsPopups: Bool { popups == .follow }

    /// The bridge a page with these options runs at the start of its documents; nil when it needs none.
    func makeBridge() -> PageBridge? {
        guard !userScripts.isEmpty || capturesConsole else { return nil }
        return PageBridge(userScripts: userScripts, capturesConsole: capturesConsole)
    }
}
