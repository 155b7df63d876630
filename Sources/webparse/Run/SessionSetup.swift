import FoundationEssentials
import WebParserCore
import WebParser

/// The session options `run`, `eval` and `snapshot` share.
struct SessionOptions: Sendable {
    /// What the session fields' own options (`--session`, `--proxy`) give, over the config's.
    var given = SessionSettings()
    var cookiesFile: String?
    var saveCookiesFile: String?
    var saveStorageFile: String?
    var noProxy: [String] = []
}

/// Settings of commands that take the session options.
protocol SessionOptionSettings: Sendable {
    var session: SessionOptions { get set }
}

extension CommandOption where Settings: SessionOptionSettings {
    static var sessionOptions: [Self] {
        fieldOptions(SessionFields.all, into: \.session.given) + [
            .value("cookies", "FILE", "start with the cookies in FILE (cookies.txt, JSON, or a Playwright storage state with local storage)") {
                $0.session.cookiesFile = $1
            },
            .value("save-cookies", "FILE", "write the session's cookies to FILE after the run (mode 0600), in FILE's format") {
                $0.session.saveCookiesFile = $1
            },
            .value("save-storage", "FILE", "write cookies and local storage to FILE after the run, as a Playwright storage state (mode 0600)") {
                $0.session.saveStorageFile = $1
            },
            .value("no-proxy", "HOSTS", "comma-separated hosts reached without the proxy") { settings, hosts in
                settings.session.noProxy += hosts.split(separator: ",").map { $0.trimmingSpaces() }
            }
        ]
    }
}

/// The session of one run: built from the config and the options, its folder private and locked for the run,
/// the cookies it starts with given to it, and what it keeps saved at the end.
struct SessionSetup {
    let session: WebParserSession
    private let saveCookiesFile: String?
    private let saveStorageFile: String?
    /// The origins whose local storage the session started with, saved again with `--save-storage`.
    private let startOrigins: [String]
    private let lock: RunLock?

    /// The session for `options` over `settings` (the config's), configured by `configure` from its storage and
    /// proxy (by default for one job: no page is kept, or prepared, for another). A session whose jobs record
    /// their requests for a HAR file (`recordsRequests`) hooks every document, as a capturing one does: pages WebKit
    /// moves to a new web process record what their scripts read and send before webparse tells them.
    /// - Throws: `CommandFailure` when a cookie file or the session folder cannot be used.
    static func prepare(
        _ options: SessionOptions, over settings: SessionSettings, recordsRequests: Bool = false,
        configure: (WebParserSession.Storage, WebParserSession.Proxy?) -> WebParserSession.Configuration = {
            WebParserSession.Configuration(storage: $0, proxy: $1, recycleAfter: 1)
        }
    ) async throws(CommandFailure) -> SessionSetup {
        var start = settings.cookies ?? StorageState()
        if let file = options.cookiesFile {
            do throws(CookieFile.ReadFailure) {
                start = try StorageState.read(contentsOf: file)
            } catch {
                throw CommandFailure(message: "--cookies \(file): \(error)", code: .usage)
            }
        }
        var proxy = options.given.proxy ?? settings.proxy
        if !options.noProxy.isEmpty { proxy?.bypass += options.noProxy }
        for (option, file) in [("--save-cookies", options.saveCookiesFile), ("--save-storage", options.saveStorageFile)] {
            if let file, let problem = AtomicFile.checkWritable(file) { throw CommandFailure(message: "\(option): \(problem)", code: .usage) }
        }
        let directory = options.given.directory ?? settings.directory
        var lock: RunLock?
        if let directory {
            do throws(SessionFolder.Failure) {
                let opened = try await SessionFolder(directory).open()
                lock = opened.lock
                if let warning = opened.warning { StandardStreams.tell("webparse: warning: \(warning)") }
            } catch {
                switch error {
                case .busy: throw CommandFailure(message: error.description, code: .sessionLocked)
                case .unusable(let path, let reason): throw CommandFailure(message: "--session \(path): \(reason)", code: .usage)
                }
            }
        }
        var configuration = configure(directory.map { .persistent($0) } ?? .ephemeral, proxy)
        if recordsRequests { configuration.capturesResponses = true }
        let session = WebParserSession(configuration: configuration)
        // The session's cookie jar sends each cookie only to the hosts it belongs to, and keeps the ones no job
        // used, so that saving the jar loses none of them.
        // A storage state's local storage is in place before any job's page loads.
        do {
            try await session.addCookies(start.cookies)
            try await session.setLocalStorage(start.origins)
        } catch let error as WebParserError {
            if case .environmentUnavailable = error.kind { throw CommandFailure(message: error.description, code: .environment) }
            throw CommandFailure(message: error.description, code: .jobFailed)
        } catch {
            throw CommandFailure(message: "\(error)", code: .jobFailed)
        }
        return SessionSetup(
            session: session, saveCookiesFile: options.saveCookiesFile, saveStorageFile: options.saveStorageFile,
            startOrigins: start.origins.map(\.origin), lock: lock)
    }

    /// Once a run has done what it should (`anySuccess`): keeps the session folder's session cookies, writes the
    /// session's cookies to the `--save-cookies` file (a storage state when the file holds one, JSON when it ends
    /// in .json, cookies.txt otherwise) and the cookies with the local storage of `visited` pages' origins (and of
    /// those the session started with) to the `--save-storage` file, atomically and readable by their owner only.
    /// After a run where every job failed, nothing is written.
    /// - Throws: `CommandFailure` (exit 1) saying what could not be saved.
    func save(anySuccess: Bool, visited: [URL] = []) async throws(CommandFailure) {
        // Whatever the run's outcome, what WebKit wrote into the session folder becomes private (`save()` does it
        // when it succeeds).
        guard anySuccess else {
            await session.restrictFiles()
            return
        }
        // An in-memory session without --save-cookies has nothing to save: its cookies are not even listed.
        if case .ephemeral = session.configuration.storage, saveCookiesFile == nil, saveStorageFile == nil { return }
        let cookies: [WebParserCookie]
        do {
            cookies = try await session.save()
        } catch {
            await session.restrictFiles()
            throw CommandFailure(message: "--session: \(error)", code: .jobFailed)
        }
        let cookiesAsState = saveCookiesFile.map(Self.holdsStorageState) ?? false
        var storage: StorageState?
        if saveStorageFile != nil || cookiesAsState {
            do {
                let origins = visited + startOrigins.compactMap { URL(string: $0) }
                storage = StorageState(cookies: cookies, origins: try await session.localStorage(of: origins))
            } catch {
                throw CommandFailure(message: "\(saveStorageFile == nil ? "--save-cookies" : "--save-storage"): \(error)", code: .jobFailed)
            }
        }
        if let file = saveStorageFile, let storage { try Self.write(storage.json(), to: file, option: "--save-storage") }
        if let file = saveCookiesFile {
            let data =
                if cookiesAsState, let storage { storage.json() } else if file.hasSuffix(".json") { CookieFile.json(cookies) } else {
                    Data(CookieFile.netscape(cookies).utf8)
                }
            try Self.write(data, to: file, option: "--save-cookies")
        }
    }

    /// Whether the file at `path` holds a storage state now (`--cookies state.json --save-cookies state.json`).
    private static func holdsStorageState(_ path: String) -> Bool {
        (try? String(contentsOfFile: path, encoding: .utf8)).map(StorageState.isStorageState) ?? false
    }

    private static func write(_ data: Data, to file: String, option: String) throws(CommandFailure) {
        do {
            try AtomicFile.write(data, to: file, permissions: 0o600, exactPermissions: true)
        } catch {
            throw CommandFailure(message: "\(option): \(error)", code: .jobFailed)
        }
    }
}
