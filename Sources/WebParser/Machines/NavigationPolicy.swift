/// What a page may navigate to and show: web documents, not downloads or other applications' URLs.
enum NavigationPolicy {
    /// The schemes a page may navigate to; others (`mailto:`, `tel:`, `intent:`…) are refused.
    static let schemes: Set<String> = ["http", "https", "file", "about", "data", "blob"]

    /// Whether the page may go to `url`, itself or in a frame: to the `schemes`, but to a `file:` URL only in
    /// a job that loads local files (`localFiles`), so that no web page reaches the machine's files.
    static func allows(navigationTo url: String, localFiles: Bool) -> Bool {
        guard let target = scheme(of: url) else { return false }
        if target == "file" { return localFiles }
        return schemes.contains(target)
    }

    /// Whether a window the page at `opener` opened for `url` is loaded in the page's place (when the job
    /// follows popups): a web page opens only web pages (http, https), never a local file; a `file:` page may
    /// also open `file:` pages. `about:blank` and every other scheme are ignored.
    static func follows(popupTo url: String, from opener: String) -> Bool {
        guard let target = scheme(of: url) else { return false }
        if target == "http" || target == "https" { return true }
        return target == "file" && scheme(of: opener) == "file"
    }

    private static func scheme(of url: String) -> String? {
        url.firstIndex(of: ":").map { url[..<$0].lowercased() }
    }
}
