import Foundation
import WebParserCore
import WebParser

/// The session options `run`, `eval` and `snapshot` share.
struct SessionOptions: Sendable {
    /// What the session fields' own options (`--session`, `--proxy`) give, over the config's.
    var given = SessionSettings()
    var cookiesFile: String?
    var saveCookiesFile: String?
    var noProxy: [String] = []
}

/// Settings of commands that take the session options.
protocol SessionOptionSettings: Sendable {
    var session: SessionOptions { get set }
}

extension CommandOption where Settings: SessionOptionSettings {
    static var sessionOptions: [Self] {
        fieldOptions(SessionFields.all, into: \.session.given) + [
            .value("cookies", "FILE", "start with the cookies in FILE (cookies.txt or JSON) for each job's host") { $0.session.cookiesFile = $1 },
            .value("save-cookies", "FILE", "write the session's cookies to FILE after the run (mode 0600)") { $0.session.saveCookiesFile = $1 },
            .value("no-proxy", "HOSTS", "comma-separated hosts reached without the proxy") { settings, hosts in
                settings.session.noProxy += hosts.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            }
        ]
    }
}

/// The session of one run: built from the config and the options, its folder private and locked for the run,
/// the cookies it starts with given to it, and what it keeps saved at the end.
struct SessionSetup {
    let session: WebParserSession
    private let saveCookiesFile: String?
    private let lock: RunLock?

    /// The session for `options` over `settings` (the config's), configured by `configure` from its storage and
    /// proxy (by default for one job: no page is kept, or prepared, for another).
    /// - Throws: `CommandFailure` when a cookie file or the session folder cannot be used.
    static func prepare(
        _ options: SessionOptions, over settings: SessionSettings,
        configure: (WebParserSession.Storage, WebParserSession.Proxy?) -> WebParserSession.Configuration = {
            WebParserSession.Configuration(storage: $0, proxy: $1, recycleAfter: 1)
        }
    ) async throws(CommandFailure) -> SessionSetup {
        var cookies = settings.cookies ?? []
        if let file = options.cookiesFile {
            do throws(CookieFile.ReadFailure) {
                cookies = try CookieFile.read(contentsOf: file)
            } catch {
                throw CommandFailure(message: "--cookies \(file): \(error)", code: .usage)
            }
        }
        var proxy = options.given.proxy ?? settings.proxy
        if !options.noProxy.isEmpty { proxy?.bypass += options.noProxy }
        if let file = options.saveCookiesFile, let problem = AtomicFile.checkWritable(file) {
            throw CommandFailure(message: "--save-cookies: \(problem)", code: .usage)
        }
        let directory = options.given.directory ?? settings.directory
        var lock: RunLock?
        if let directory {
            do throws(SessionFolder.Failure) {
                let opened = try await SessionFolder(directory).open()
                lock = opened.lock
                if let warning = opened.warning { StandardStreams.tell("webparse: warning: \(warning)") }
            } catch {
                throw CommandFailure(message: error.description, code: { if case .busy = error { .sessionLocked } else { .usage } }())
            }
        }
        let session = WebParserSession(configuration: configure(directory.map { .persistent($0) } ?? .ephemeral, proxy))
        // The session's cookie jar sends each cookie only to the hosts it belongs to, and keeps the ones no job
        // used, so that saving the jar loses none of them.
        do {
            try await session.addCookies(cookies)
        } catch let error as WebParserError {
            if case .environmentUnavailable = error.kind { throw CommandFailure(message: error.description, code: .environment) }
            throw CommandFailure(message: error.description, code: .jobFailed)
        } catch {
            throw CommandFailure(message: "\(error)", code: .jobFailed)
        }
        return SessionSetup(session: session, saveCookiesFile: options.saveCookiesFile, lock: lock)
    }

    /// Once a run has done what it should (`anySuccess`): keeps the session folder's session cookies, and
    /// writes the session's cookies to the `--save-cookies` file (JSON when it ends in .json, cookies.txt
    /// otherwise), atomically and readable by its owner only. After a run where every job failed, nothing is
    /// written.
    /// - Throws: `CommandFailure` (exit 1) saying what could not be saved.
    func save(anySuccess: Bool) async throws(CommandFailure) {
        // Whatever the run's outcome, what WebKit wrote into the session folder becomes private (`save()` does it
        // when it succeeds).
        guard anySuccess else {
            await session.restrictFiles()
            return
        }
        // An in-memory session without --save-cookies has nothing to save: its cookies are not even listed.
        if case .ephemeral = session.configuration.storage, saveCookiesFile == nil { return }
        let cookies: [WebParserCookie]
        do {
            cookies = try await session.save()
        } catch {
            await session.restrictFiles()
            throw CommandFailure(message: "--session: \(error)", code: .jobFailed)
        }
        guard let file = saveCookiesFile else { return }
        do {
            let data = file.hasSuffix(".json") ? CookieFile.json(cookies) : Data(CookieFile.netscape(cookies).utf8)
            try AtomicFile.write(data, to: file, permissions: 0o600, exactPermissions: true)
        } catch {
            throw CommandFailure(message: "--save-cookies: \(error)", code: .jobFailed)
        }
    }
}
