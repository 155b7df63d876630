extension WebParserError {
    /// A stable name for what went wrong, such as `timed-out` or `connection-refused`: one per `Kind`, written in
    /// `--jsonl` records as `"code"`, for programs that act on a failure without reading its message.
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The name, in lower case words joined by hyphens. Each is written once, in `Kind.code`; these constants
        /// are read from it.
        public let rawValue: String

        /// The code named `rawValue`.
        public init(rawValue: String) {
            self.rawValue = rawValue
        }

        /// The name.
        public var description: String { rawValue }

        /// The attempt ran out of time.
        public static let timedOut = Kind.timedOut(phase: .loading, after: .zero).code
        /// Nothing listens at the server's address.
        public static let connectionRefused = Kind.connectionRefused.code
        /// The host name does not resolve.
        public static let hostNotFound = Kind.hostNotFound.code
        /// The connection failed in a way that may pass.
        public static let connectionLost = Kind.connectionLost("").code
        /// The load failed in a way retrying cannot fix.
        public static let loadFailed = Kind.loadFailed("").code
        /// The certificate or TLS handshake was rejected.
        public static let tlsFailed = Kind.tlsFailed("").code
        /// The URL cannot be loaded by webparse.
        public static let unsupportedURL = Kind.unsupportedURL("").code
        /// The main document came with an HTTP error status.
        public static let httpStatus = Kind.httpStatus(0).code
        /// The page is a bot protection service's.
        public static let blocked = Kind.blocked(by: "", status: 0).code
        /// The script threw, or does not parse.
        public static let scriptFailed = Kind.scriptFailed(ScriptFailure(message: "")).code
        /// The script returned something that is not data.
        public static let unsupportedResult = Kind.unsupportedResult("").code
        /// The page's web process crashed.
        public static let webProcessCrashed = Kind.webProcessCrashed.code
        /// The page's web process ended before the page arrived.
        public static let webProcessEndedBeforePage = Kind.webProcessEndedBeforePage.code
        /// The page's web process went over the memory limit.
        public static let memoryLimitExceeded = Kind.memoryLimitExceeded.code
        /// The web process shared with another job's page ended.
        public static let sharedWebProcessEnded = Kind.sharedWebProcessEnded.code
        /// The web process shared with another job's page stopped answering.
        public static let sharedWebProcessUnresponsive = Kind.sharedWebProcessUnresponsive(after: .zero).code
        /// WebKit cannot run here.
        public static let environmentUnavailable = Kind.environmentUnavailable("").code
        /// The job asks for something that cannot work.
        public static let invalidJob = Kind.invalidJob("").code
        /// A step of the job could not be done.
        public static let stepFailed = Kind.stepFailed(step: "", .waitForNavigation, reason: "").code
        /// The screenshot could not be taken or written.
        public static let screenshotFailed = Kind.screenshotFailed("").code
        /// The session's cookies or stored data could not be read, written, listed or cleared.
        public static let storageFailed = Kind.storageFailed("").code
    }
}

extension WebParserError.Kind {
    /// The kind's stable name: the one table of the codes.
    public var code: WebParserError.Code {
        switch self {
        case .timedOut: WebParserError.Code(rawValue: "timed-out")
        case .connectionRefused: WebParserError.Code(rawValue: "connection-refused")
        case .hostNotFound: WebParserError.Code(rawValue: "host-not-found")
        case .connectionLost: WebParserError.Code(rawValue: "connection-lost")
        case .loadFailed, .tooManyRedirects: WebParserError.Code(rawValue: "load-failed")
        case .tlsFailed: WebParserError.Code(rawValue: "tls-failed")
        case .unsupportedURL: WebParserError.Code(rawValue: "unsupported-url")
        case .httpStatus: WebParserError.Code(rawValue: "http-status")
        case .blocked: WebParserError.Code(rawValue: "blocked")
        case .scriptFailed: WebParserError.Code(rawValue: "script-failed")
        case .unsupportedResult: WebParserError.Code(rawValue: "unsupported-result")
        case .webProcessCrashed: WebParserError.Code(rawValue: "web-process-crashed")
        case .webProcessEndedBeforePage: WebParserError.Code(rawValue: "web-process-ended-before-page")
        case .memoryLimitExceeded: WebParserError.Code(rawValue: "memory-limit-exceeded")
        case .sharedWebProcessEnded: WebParserError.Code(rawValue: "shared-web-process-ended")
        case .sharedWebProcessUnresponsive: WebParserError.Code(rawValue: "shared-web-process-unresponsive")
        case .environmentUnavailable: WebParserError.Code(rawValue: "environment-unavailable")
        case .invalidJob: WebParserError.Code(rawValue: "invalid-job")
        case .stepFailed: WebParserError.Code(rawValue: "step-failed")
        case .screenshotFailed: WebParserError.Code(rawValue: "screenshot-failed")
        case .storageFailed: WebParserError.Code(rawValue: "storage-failed")
        }
    }
}
