internal import CWebKitGTK

/// An error WebKit reported for a page, read in one place: the shim names it (`wk_error.h`), and this table says
/// what the engine does with it (`Kind`) and what it means for a job whose page failed with it (`meaning`).
struct PageError: Sendable, Equatable {
    /// What the engine does with the error.
    enum Kind: Sendable, Equatable {
        /// The load failed: the job fails with `meaning`, or retries when that is transient.
        case failed
        /// GIO cancelled the operation: WebKit gave up a connection, which may hide an untrusted certificate
        /// (`LoadFailureTriage.mayHideUntrustedCertificate`).
        case cancelled
        /// A newer navigation replaced the load: not a failure of the job's.
        case navigationReplaced
        /// WebKit stopped the load during a policy decision.
        case policyInterrupted
        /// A JavaScript call threw, or does not parse.
        case scriptFailed
    }

    var kind: Kind
    /// What the error means for a job whose main load failed with it.
    var meaning: WebParserError.Kind
    /// The error itself: its GLib domain, code and message.
    var cause: WebParserError.Cause

    /// The error's message.
    var message: String { cause.message }

    /// How a load of `url` that failed with this error fails its job: with the error's meaning, the error as its cause.
    func failure(of url: String) -> WebParserError {
        var error = WebParserError(meaning, url: url)
        error.cause = cause
        return error
    }

    /// The error of the GLib domain named `domain` with `code` and `message`, named as the shim names it.
    init(domain: String, code: Int, message: String) {
        self.init(WebParserError.Cause(domain: domain, code: code, message: message), wk_error_kind(domain, Int32(code), message))
    }

    /// The error the shim reported; its strings are copied.
    init(_ error: WKError) {
        let cause = WebParserError.Cause(domain: String(cString: error.domain), code: Int(error.code), message: String(cString: error.message))
        self.init(cause, error.kind)
    }

    /// The failure WebKit reports for a load whose server's certificate is not trusted.
    static let untrustedCertificate = PageError(domain: "g-tls-error-quark", code: 2, message: "Unacceptable TLS certificate")

    /// The table: each name of the shim's, what the engine does with it and what it means for the job.
    private init(_ cause: WebParserError.Cause, _ name: WKErrorKind) {
        self.cause = cause
        let message = cause.message
        (kind, meaning) =
            switch name {
            case WK_ERROR_CONNECTION_REFUSED: (.failed, .connectionRefused)
            case WK_ERROR_HOST_NOT_FOUND: (.failed, .hostNotFound)
            case WK_ERROR_FILE_NOT_FOUND: (.failed, .loadFailed("file not found"))
            case WK_ERROR_CANCELLED: (.cancelled, .connectionLost(message))
            case WK_ERROR_CONNECTION_LOST: (.failed, .connectionLost(message))
            case WK_ERROR_TLS: (.failed, .tlsFailed(message))
            case WK_ERROR_UNSUPPORTED_SCHEME: (.failed, .unsupportedURL(message))
            case WK_ERROR_RESTRICTED_PORT: (.failed, .unsupportedURL("the port is restricted by WebKit"))
            case WK_ERROR_TOO_MANY_REDIRECTS: (.failed, .tooManyRedirects)
            case WK_ERROR_NAVIGATION_REPLACED: (.navigationReplaced, Self.unnamed(cause))
            case WK_ERROR_POLICY_INTERRUPTED: (.policyInterrupted, Self.unnamed(cause))
            case WK_ERROR_SCRIPT_FAILED: (.scriptFailed, Self.unnamed(cause))
            default: (.failed, Self.unnamed(cause))
            }
    }

    /// What an error without a meaning of its own means: the load failed, with its message and its GLib name.
    private static func unnamed(_ cause: WebParserError.Cause) -> WebParserError.Kind {
        .loadFailed("\(cause.message) [\(cause.domain) \(cause.code)]")
    }
}
