import FoundationEssentials

extension WebParserSession {
    /// Stores `origins`' items in the session's `localStorage`, as their pages would have (a Playwright storage
    /// state's, restored before any job's page loads). Each origin's items are written by a document shown at the
    /// origin without asking its server.
    /// - Throws: `WebParserError` with kind `.environmentUnavailable` when WebKit cannot start, or
    ///   `.storageFailed` when an origin's items cannot be stored.
    public func setLocalStorage(_ origins: [StorageState.Origin]) async throws {
        for origin in origins where !origin.localStorage.isEmpty {
            let items = JSONText.text(.array(origin.localStorage.map { .array([.string($0.name), .string($0.value)]) }))
            _ = try await run(ScriptSource.call(ScriptSource.localStorage, items), at: origin.origin, doing: "store the local storage of")
        }
    }

    /// The `localStorage` items of the origins of `urls` (each origin once), for those that hold any.
    /// - Throws: `WebParserError` with kind `.environmentUnavailable` when WebKit cannot start, or
    ///   `.storageFailed` when an origin's items cannot be read.
    public func localStorage(of urls: [URL]) async throws -> [StorageState.Origin] {
        var origins: [String] = []
        for url in urls {
            guard let origin = Self.origin(of: url), !origins.contains(origin) else { continue }
            origins.append(origin)
        }
        var found: [StorageState.Origin] = []
        for origin in origins {
            let data = try await run(ScriptSource.call(ScriptSource.localStorage, "null"), at: origin, doing: "read the local storage of")
            guard let text = try? JSONDecoder().decode(String.self, from: data),
                let pairs = try? JSONDecoder().decode([[String]].self, from: Data(text.utf8))
            else {
                throw WebParserError(.storageFailed("cannot read the local storage of \(origin): the page gave an unexpected answer"))
            }
            let items = pairs.filter { $0.count == 2 }.map { StorageState.Item(name: $0[0], value: $0[1]) }
            if !items.isEmpty { found.append(StorageState.Origin(origin: origin, localStorage: items)) }
        }
        return found
    }

    /// `scheme://host[:port]` of an http or https URL.
    static func origin(of url: URL) -> String? {
        guard let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme), let host = url.host()?.lowercased() else { return nil }
        return "\(scheme)://\(host)" + (url.port.map { ":\($0)" } ?? "")
    }

    /// The result of `script` in a blank document shown at `origin`.
    private func run(_ script: String, at origin: String, doing what: String) async throws -> Data {
        guard let url = URL(string: origin + "/"), Self.origin(of: url) != nil else {
            throw WebParserError(.storageFailed("cannot \(what) \(origin): not an http or https origin"))
        }
        var job = WebParserJob(url: url, script: script, timeout: .seconds(20), retry: RetryPolicy(retries: 0))
        job.document = "<!doctype html><title>webparse</title>"
        job.evaluation.settle = .zero
        do {
            return try await WebParserRunner(session: self).run(job).data
        } catch let error as WebParserError {
            if case .environmentUnavailable = error.kind { throw error }
            throw WebParserError(.storageFailed("cannot \(what) \(origin): \(error)"))
        }
    }
}
