import FoundationEssentials

/// A persistent session's folder, and the one place that knows it: it names every file webparse and WebKit keep
/// there, creates the folder private, locks it for a run, keeps its files private, and keeps the session
/// cookies WebKit's own store drops.
package struct SessionFolder: Sendable, Equatable {
    /// The folder.
    package let url: URL

    /// How long a run waits for another that uses the same session folder.
    package static let lockWait: Duration = .seconds(10)

    /// The folder at `url`.
    package init(_ url: URL) {
        self.url = url
    }

    /// Where WebKit keeps local storage, IndexedDB and the rest of the session's website data.
    var dataFolder: URL { url }
    /// Where WebKit keeps the HTTP cache.
    var cacheFolder: URL { url.appending(path: "cache") }
    /// WebKit's cookie store (cookies with an expiry date), a SQLite file.
    var cookieStore: URL { url.appending(path: "cookies.sqlite") }
    /// The session cookies (those without an expiry date) webparse keeps from one run to the next.
    var sessionCookies: URL { url.appending(path: "session-cookies.json") }
    /// The lock file that keeps two runs out of the folder at once.
    var lockFile: URL { url.appending(path: "webparse.lock") }

    /// Why the folder cannot be used.
    package enum Failure: Error, CustomStringConvertible {
        /// Another run uses it, and did not stop within the wait.
        case busy(RunLock.Busy)
        /// The folder at `path` cannot be created or locked, or its file system is full, for `reason`.
        case unusable(path: String, reason: String)

        package var description: String {
            switch self {
            case .busy(let busy): busy.description
            case .unusable(let path, let reason): "the session folder \(path): \(reason)"
            }
        }
    }

    /// Creates the folder readable by its owner only if it is missing, checks that its file system has room,
    /// and locks it for this process, waiting `wait` at most for another run that uses it.
    /// - Returns: the lock, held until it is released, and a warning when an existing folder can be read by
    ///   other users.
    /// - Throws: `SessionFolder.Failure`.
    package func open(wait: Duration = lockWait) async throws(Failure) -> (lock: RunLock, warning: String?) {
        let warning: String?
        do {
            warning = try PrivateFiles.makeFolder(url)
        } catch {
            throw .unusable(path: url.path, reason: "\(error)")
        }
        // WebKit's stores there fail one by one, with messages of their own, on a full disk.
        if let free = PrivateFiles.kibibytesFreeIfFull(in: url) {
            throw .unusable(
                path: url.path, reason: "No space left on device (\(free) KiB free; WebKit keeps the session's cookies and storage there)")
        }
        do {
            let lock = try await RunLock.acquire(
                lockFile.path, guarding: "the session folder \(url.path)", wait: wait,
                advice: "try again when it has finished")
            return (lock, warning)
        } catch let busy as RunLock.Busy {
            throw .busy(busy)
        } catch {
            throw .unusable(path: url.path, reason: "\(error)")
        }
    }

    /// Makes every file in the folder readable by its owner only.
    func restrictContents() {
        PrivateFiles.restrictContents(of: url)
    }

    /// The session cookies the folder kept from the last run; none when it kept none.
    /// - Throws: `WebParserError` with kind `.storageFailed` when the file cannot be read.
    func keptSessionCookies() throws(WebParserError) -> [WebParserCookie] {
        guard FileManager.default.fileExists(atPath: sessionCookies.path) else { return [] }
        do {
            return try CookieFile.read(contentsOf: sessionCookies.path)
        } catch {
            throw WebParserError(
                .storageFailed(
                    "cannot read the session cookies kept in \(sessionCookies.path): \(error); "
                        + "delete the file to start logged out"))
        }
    }

    /// Keeps `cookies` as the session cookies for the next run.
    /// - Throws: `WebParserError` with kind `.storageFailed` when the file cannot be written.
    func keep(sessionCookies cookies: [WebParserCookie]) throws(WebParserError) {
        do {
            try PrivateFiles.write(CookieFile.json(cookies), to: sessionCookies)
        } catch {
            throw WebParserError(.storageFailed("cannot keep the session cookies in \(sessionCookies.path): \(error)"))
        }
    }

    /// Forgets the session cookies kept.
    func forgetSessionCookies() {
        try? FileManager.default.removeItem(at: sessionCookies)
    }
}
