internal import CWebKitGTK
import FoundationEssentials

/// A session's cookies and stored data in its WebKit context: added, listed and cleared; a persistent session's
/// session cookies kept in its folder at the end of a run, and given back to the context once at the next, as a
/// browser restoring its last session does. Made with the context, by `BrowsingContext`, which frees both.
@WebKitActor
final class SessionStore {
    private let context: OpaquePointer
    /// A persistent session's folder; nil for an in-memory session.
    private let folder: SessionFolder?
    /// Whether the session cookies a persistent session's folder kept have been given back to the context.
    private var restoredSessionCookies = false

    /// The store of `context`, whose session's folder is `folder` (nil: in memory).
    init(context: OpaquePointer, folder: SessionFolder?) {
        self.context = context
        self.folder = folder
    }

    /// Adds `cookies` to the context.
    /// - Throws: `WebParserError` with kind `.storageFailed` when WebKit refuses one, or when the session cookies
    ///   kept in a persistent session's folder cannot be read.
    func add(_ cookies: [WebParserCookie]) async throws {
        try await restoreSessionCookies()
        try await addToContext(cookies)
    }

    private func addToContext(_ cookies: [WebParserCookie]) async throws {
        for cookie in cookies {
            try await Self.operation("cannot add the cookie \(cookie.redactedDescription)") { callback, box in
                cookie.withCookie { wk_context_add_cookie(context, $0, callback, box) }
            }
        }
    }

    /// Every cookie of the context.
    /// - Throws: `WebParserError` with kind `.storageFailed` when WebKit cannot list them.
    func cookies() async throws -> [WebParserCookie] {
        try await restoreSessionCookies()
        return try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<[WebParserCookie], Error>) in
            let box = CallbackBox.retained(continuation)
            wk_context_get_cookies(
                context,
                { context, cookies, count, message in
                    let continuation = CallbackBox<CheckedContinuation<[WebParserCookie], Error>>.take(context)
                    guard let cookies else {
                        let reason = message.map { String(cString: $0) } ?? "unknown error"
                        continuation.resume(throwing: WebParserError(.storageFailed("cannot list the cookies: \(reason)")))
                        return
                    }
                    continuation.resume(returning: UnsafeBufferPointer(start: cookies, count: count).map(WebParserCookie.init))
                }, box)
        }
    }

    /// Removes every cookie, cached response and stored item of the context.
    /// - Throws: `WebParserError` with kind `.storageFailed` when WebKit cannot.
    func clearData() async throws {
        restoredSessionCookies = true
        try await Self.operation("cannot clear the session's data") { callback, box in
            wk_context_clear_data(context, false, callback, box)
        }
        folder?.forgetSessionCookies()
    }

    /// Lists the context's cookies, keeps its session cookies in a persistent session's folder and makes every
    /// file there private, and returns them all.
    /// - Throws: `WebParserError` with kind `.storageFailed` when WebKit cannot list the cookies or the file
    ///   cannot be written.
    func save() async throws -> [WebParserCookie] {
        let all = try await cookies()
        guard let folder else { return all }
        try folder.keep(sessionCookies: all.filter { $0.expires == nil })
        await restrictFolder()
        return all
    }

    /// Makes every file of a persistent session's folder readable by its owner only, once WebKit's network
    /// process has done what it had queued on its stores (it creates some of their folders late, with the
    /// umask's permissions); nothing for an in-memory session.
    func restrictFolder() async {
        guard let folder else { return }
        try? await Self.operation("cannot list the session's data") { callback, box in
            wk_context_sync_data(context, callback, box)
        }
        folder.restrictContents()
    }

    /// Gives the context, once, the session cookies its folder kept from the last run, as a browser restoring
    /// its last session does.
    /// - Throws: `WebParserError` with kind `.storageFailed` when the file cannot be read or WebKit refuses a cookie.
    func restoreSessionCookies() async throws {
        guard !restoredSessionCookies else { return }
        restoredSessionCookies = true
        try await addToContext(try folder?.keptSessionCookies() ?? [])
    }

    /// Removes the context's cached responses, so that the next loads ask the servers.
    /// - Throws: `WebParserError` with kind `.storageFailed` when WebKit cannot.
    func clearCache() async throws {
        try await Self.operation("cannot clear the HTTP cache") { callback, box in
            wk_context_clear_data(context, true, callback, box)
        }
    }

    /// Runs a shim operation that reports through a `WKDoneCallback`, and awaits it.
    private static func operation(_ failure: String, _ start: (WKDoneCallback, UnsafeMutableRawPointer) -> Void)
        async throws
    {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, Error>) in
            let box = CallbackBox.retained((continuation, failure))
            start(
                { context, message in
                    let (continuation, failure) = CallbackBox<(CheckedContinuation<Void, Error>, String)>.take(context)
                    if let message {
                        continuation.resume(throwing: WebParserError(.storageFailed("\(failure): \(String(cString: message))")))
                    } else {
                        continuation.resume()
                    }
                }, box)
        }
    }
}

private extension WebParserCookie {
    init(_ cookie: WKCookie) {
        self.init(
            name: String(cString: cookie.name), value: String(cString: cookie.value),
            domain: String(cString: cookie.domain), path: cookie.path.map { String(cString: $0) } ?? "/",
            expires: cookie.expires >= 0 ? Date(timeIntervalSince1970: TimeInterval(cookie.expires)) : nil,
            secure: cookie.secure, httpOnly: cookie.http_only,
            sameSite: cookie.same_site == WK_SAME_SITE_STRICT ? .strict : cookie.same_site == WK_SAME_SITE_LAX ? .lax : .none)
    }

    /// Calls `body` with the cookie as a `WKCookie` whose strings live during the call.
    func withCookie<Result>(_ body: (WKCookie) -> Result) -> Result {
        name.withCString { name in
            value.withCString { value in
                domain.withCString { domain in
                    path.withCString { path in
                        body(
                            WKCookie(
                                name: name, value: value, domain: domain, path: path,
                                expires: expires.map { Int64($0.timeIntervalSince1970) } ?? -1,
                                secure: secure, http_only: httpOnly,
                                same_site: sameSite == .strict ? WK_SAME_SITE_STRICT : sameSite == .lax ? WK_SAME_SITE_LAX : WK_SAME_SITE_NONE))
                    }
                }
            }
        }
    }
}
