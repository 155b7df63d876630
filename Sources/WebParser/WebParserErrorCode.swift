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

        public var description: String { rawValue }

        public static let timedOut = Code(rawValue: "timed-out")
        public static let connectionRefused = Code(rawValue: "connection-refused")
        public static let hostNotFound = Code(rawValue: "host-not-found")
        public static let connectionLost = Code(rawValue: "connection-lost")
        public static let loadFailed = Code(rawValue: "load-failed")
        public static let tlsFailed = Code(rawValue: "tls-failed")
        public static let unsupportedURL = Code(rawValue: "unsupported-url")
        public static let httpStatus = Code(rawValue: "http-status")
        public static let scriptFailed = Code(rawValue: "script-failed")
        public static let unsupportedResult = Code(rawValue: "unsupported-result")
        public static let webProcessCrashed = Code(rawValue: "web-process-crashed")
        public static let webProcessEndedBeforePage = Code(rawValue: "web-process-ended-before-page")
        public static let memoryLimitExceeded = Code(rawValue: "memory-limit-exceeded")
        public static let sharedWebProcessEnded = Code(rawValue: "shared-web-process-ended")
        public static let sharedWebProcessUnresponsive = Code(rawValue: "shared-web-process-unresponsive")
        public static let environmentUnavailable = Code(rawValue: "environment-unavailable")
        public static let invalidJob = Code(rawValue: "invalid-job")
        public static let stepFailed = Code(rawValue: "step-failed")
        public static let screenshotFailed = Code(rawValue: "screenshot-failed")
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
