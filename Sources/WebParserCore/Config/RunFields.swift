import FoundationEssentials
import WebParser

/// Settings of a whole run: a config may give them at its top level, and `run`'s options override them.
package struct RunSettings: Equatable {
    package var concurrency: Int?
    package var recycleAfter: Int?
    package var memoryLimit: Int?
    package var pagesPerProcess: Int?
    /// What a HAR file (`--har`) holds of the responses' bodies.
    package var harContent: HARContent?

    package init(
        concurrency: Int? = nil, recycleAfter: Int? = nil, memoryLimit: Int? = nil, pagesPerProcess: Int? = nil, harContent: HARContent? = nil
    ) {
        self.concurrency = concurrency
        self.recycleAfter = recycleAfter
        self.memoryLimit = memoryLimit
        self.pagesPerProcess = pagesPerProcess
        self.harContent = harContent
    }

    /// Pages at once by default: twice the cores the container allows (pages mostly wait for the network), at most
    /// 8, and no more than its memory limit holds at `memoryPerPage` each beside `memoryReserve`.
    package static func defaultConcurrency(_ limits: ContainerLimits, machineCores: Int = ProcessInfo.processInfo.activeProcessorCount) -> Int {
        let byCPU = min(8, 2 * limits.cores(machine: machineCores))
        guard let memory = limits.memory else { return byCPU }
        return max(1, min(byCPU, (Int(memory >> 20) - memoryReserve) / memoryPerPage))
    }

    /// A web process's memory limit by default, in MiB: WebParserSession's, or under a container's memory limit the
    /// share of one web process (`concurrency` pages, `pagesPerProcess` to a process) of what the limit leaves
    /// beside `memoryReserve`, at least 256.
    package static func defaultMemoryLimit(_ limits: ContainerLimits, concurrency: Int, pagesPerProcess: Int) -> Int {
        let limit = WebParserSession.Configuration.defaultMemoryLimit
        guard let memory = limits.memory else { return limit }
        let processes = (concurrency + pagesPerProcess - 1) / max(1, pagesPerProcess)
        return min(limit, max(256, (Int(memory >> 20) - memoryReserve) / max(1, processes)))
    }

    /// The MiB a page at once is planned at, under a container's memory limit (a Dash page's web process grew by
    /// ~100 MB a page; a heavy framework page can take twice that).
    package static let memoryPerPage = 256
    /// The pages of a site that share a web process when memory is the constraint: 40 Dash pages at 4 at once
    /// peaked at 413 MB instead of 486 (Playwright: 903), at 0.315 s a page instead of 0.249 (measured 2026-12-03).
    package static let memoryBoundPagesPerProcess = 4
    /// The MiB planned for webparse itself, Xvfb and WebKit's network process under a container's memory limit.
    package static let memoryReserve = 256

    /// These settings where they are given, else `other`'s (the options' over the config's).
    package func over(_ other: RunSettings) -> RunSettings {
        RunSettings(
            concurrency: concurrency ?? other.concurrency, recycleAfter: recycleAfter ?? other.recycleAfter,
            memoryLimit: memoryLimit ?? other.memoryLimit, pagesPerProcess: pagesPerProcess ?? other.pagesPerProcess,
            harContent: harContent ?? other.harContent)
    }
}

/// What a HAR file holds of the responses' bodies.
package enum HARContent: String, Sendable, CaseIterable {
    /// Every body in the file (text as it is, bytes in base64), within the capture's limits, as Playwright's
    /// `recordHar` does by default.
    case embed
    /// No bodies: the requests, their headers and timings only.
    case omit
}

/// The run settings' fields: a config's top-level keys and `run`'s options.
package enum RunFields {
    /// `harContent`, which `eval` and `snapshot` take as an option too.
    package static let harContent = ConfigField<RunSettings>(
        key: "harContent", summary: "what a HAR file (--har) holds of the responses' bodies: embed (the default) or omit",
        option: .value("har-content", "embed|omit", "with --har: embed the responses' bodies (the default), or omit them")
            .choosing(HARContent.allCases.map(\.rawValue))
    ) { reader, path, input, settings in
        settings.harContent = reader.choice(path, input, HARContent.self)
    }

    package static let all: [ConfigField<RunSettings>] = [
        ConfigField(
            key: "concurrency", summary: "pages at once (default: twice the cores, at most 8; fewer in a container that limits CPU or memory)",
            option: .value("concurrency", short: "j", "N", "pages at once (default: twice the cores, at most 8; fewer in a container's limits)")
        ) { reader, path, input, settings in
            settings.concurrency = reader.integer(path, input, in: 1...64, what: "a number of pages")
        },
        ConfigField(
            key: "recycleAfter", summary: "replace a page by a fresh one after this many loads (default \(WebParserSession.Configuration.defaultRecycleAfter))",
            option: .value(
                "recycle-after", "LOADS", "replace a page by a fresh one after this many loads (default \(WebParserSession.Configuration.defaultRecycleAfter))")
        ) { reader, path, input, settings in
            settings.recycleAfter = reader.integer(path, input, in: 1...100_000, what: "a number of loads")
        },
        ConfigField(
            key: "memoryLimit",
            summary:
                "MiB a web process may use before it is killed (default \(WebParserSession.Configuration.defaultMemoryLimit), less under a container's memory limit; 0: no limit)",
            option: .value(
                "memory-limit", "MIB",
                "kill a web process that uses more memory (default \(WebParserSession.Configuration.defaultMemoryLimit), less in a container; 0: no limit)")
        ) { reader, path, input, settings in
            settings.memoryLimit = reader.integer(path, input, in: 0...1_048_576, what: "a number of MiB (0: no limit)")
        },
        ConfigField(
            key: "pagesPerProcess",
            summary: "pages that may share one web process (default \(WebParserSession.Configuration.defaultPagesPerProcess); 1: a process for each page)",
            option: .value(
                "pages-per-process", "N",
                "let N pages share one web process (default \(WebParserSession.Configuration.defaultPagesPerProcess); 1: a process for each page)")
        ) { reader, path, input, settings in
            settings.pagesPerProcess = reader.integer(path, input, in: 1...64, what: "a number of pages")
        },
        harContent
    ]
}

/// What a config may say about the run's session, at its top level; `run` and `eval` options override it.
package struct SessionSettings: Equatable {
    /// The folder of a persistent session.
    package var directory: URL?
    /// Cookies every job starts with (those for its host).
    /// The cookies (and origins' local storage, from a storage state) the session starts with.
    package var cookies: StorageState?
    package var proxy: WebParserSession.Proxy?

    package init(directory: URL? = nil, cookies: StorageState? = nil, proxy: WebParserSession.Proxy? = nil) {
        self.directory = directory
        self.cookies = cookies
        self.proxy = proxy
    }
}

/// The session settings' fields: a config's top-level keys and the options of `run`, `eval` and `snapshot`
/// that set them (paths relative to the current folder). `--cookies` reads its file as the session does, with
/// messages of its own.
package enum SessionFields {
    package static let all: [ConfigField<SessionSettings>] = [
        ConfigField(
            key: "session", summary: "a folder that keeps cookies, local storage and the HTTP cache across runs",
            option: .value("session", "DIR", "keep cookies, local storage and the HTTP cache in DIR across runs")
        ) { reader, path, input, settings in
            guard let folder = reader.string(path, input) else { return }
            settings.directory = folder.hasPrefix("/") ? URL(fileURLWithPath: folder) : reader.directory.appending(path: folder)
        },
        ConfigField(
            key: "cookies", summary: "a cookie file (cookies.txt, JSON, or a Playwright storage state with local storage) every job starts with",
            option: nil
        ) { reader, path, input, settings in
            settings.cookies = reader.cookies(path, input)
        },
        ConfigField(
            key: "proxy", summary: "a proxy for every request: \"http://host:port\" or {\"url\": …, \"noProxy\": [hosts]}",
            option: .value("proxy", "URL", "send requests through an http, https or socks proxy")
        ) { reader, path, input, settings in
            settings.proxy = reader.proxy(path, input)
        }
    ]
}
