extension WebParserError {
    /// A stable name for what went wrong, such as `timed-out` or `connection-refused`: one per `Kind`, written in
    /// `--jsonl` records as `"code"`, for programs that act on a failure without reading its message.
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The name, in lower case words joined by hyphens.
        public let rawValue: String

        /// The code named `rawValue`.
        public init(rawValue: String) {
            self.rawValue = rawValue
        }

        /// The name.
        public var description: String { rawValue }

        /// The attempt ran out of time.
        public static let timedOut = Code(rawValue: "timed-out")
        /// Nothing listens at the server's address.
        public static let connectionRefused = Code(rawValue: "connection-refused")
        /// The host name does not resolve.
        public static let hostNotFound = Code(rawValue: "host-not-found")
        /// The connection failed in a way that may pass.
        public static let connectionLost = Code(rawValue: "connection-lost")
        /// The load failed in a way retrying cannot fix.
        public static let loadFailed = Code(rawValue: "load-failed")
        /// The certificate or TLS handshake was rejected.
        public static let tlsFailed = Code(rawValue: "tls-failed")
        /// The URL cannot be loaded by webparse.
        public static let unsupportedURL = Code(rawValue: "unsupported-url")
        /// The main document came with an HTTP error status.
        public static let httpStatus = Code(rawValue: "http-status")
        /// The page is a bot protection service's.
        public static let blocked = Code(rawValue: "blocked")
        /// The script threw, or does not parse.
        public static let scriptFailed = Code(rawValue: "script-failed")
        /// The script returned something that is not data.
        public static let unsupportedResult = Code(rawValue: "unsupported-result")
        /// The page's web process crashed.
        public static let webProcessCrashed = Code(rawValue: "web-process-crashed")
        /// The page's web process ended before the page arrived.
        public static let webProcessEndedBeforePage = Code(rawValue: "web-process-ended-before-page")
        /// The page's web process went over the memory limit.
        public static let memoryLimitExceeded = Code(rawValue: "memory-limit-exceeded")
        /// The web process shared with another job's page ended.
        public static let sharedWebProcessEnded = Code(rawValue: "shared-web-process-ended")
        /// The web process shared with another job's page stopped answering.
        public static let sharedWebProcessUnresponsive = Code(rawValue: "shared-web-process-unresponsive")
        /// WebKit cannot run here.
        public static let environmentUnavailable = Code(rawValue: "environment-unavailable")
        /// The job asks for something that cannot work.
        public static let invalidJob = Code(rawValue: "invalid-job")
        /// A step of the job could not be done.
        public static let stepFailed = Code(rawValue: "step-failed")
        /// The screenshot could not be taken or written.
        public static let screenshotFailed = Code(rawValue: "screenshot-failed")
        /// The session's cookies or stored data could not be read, written, listed or cleared.
        public static let storageFailed = Code(rawValue: "storage-failed")
    }
}

extension WebParserError.Kind {
    /// The kind's stable name.
    public var code: WebParserError.Code {
        switch self {
        case .timedOut: .timedOut
        case .connectionRefused: .connectionRefused
        case .hostNotFound: .hostNotFound
        case .connectionLost: .connectionLost
        case .loadFailed: .loadFailed
        case .tlsFailed: .tlsFailed
        case .unsupportedURL: .unsupportedURL
        case .httpStatus: .httpStatus
        case .blocked: .blocked
        case .scriptFailed: .scriptFailed
        case .unsupportedResult: .unsupportedResult
        case .webProcessCrashed: .webProcessCrashed
        case .webProcessEndedBeforePage: .webProcessEndedBeforePage
        case .memoryLimitExceeded: .memoryLimitExceeded
        case .sharedWebProcessEnded: .sharedWebProcessEnded
        case .sharedWebProcessUnresponsive: .sharedWebProcessUnresponsive
        case .environmentUnavailable: .environmentUnavailable
        case .invalidJob: .invalidJob
        case .stepFailed: .stepFailed
        case .screenshotFailed: .screenshotFailed
        case .storageFailed: .storageFailed
        }
    }
}
