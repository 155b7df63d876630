internal import CWebKitGTK

/// An error WebKit reported for a page, with what it means to webparse as the shim names it (`wk_error.h`).
struct PageError: Sendable, Equatable {
    /// What the error means.
    enum Kind: Sendable, Equatable {
        case connectionRefused
        case hostNotFound
        case fileNotFound
        /// GIO cancelled the operation: WebKit gave up a connection.
        case cancelled
        /// The connection failed in a way that may pass.
        case connectionLost
        case tls
        case unsupportedScheme
        case restrictedPort
        case tooManyRedirects
        /// A newer navigation replaced the load.
        case navigationReplaced
        /// WebKit stopped the load during a policy decision.
        case policyInterrupted
        /// A JavaScript call threw, or does not parse.
        case scriptFailed
        case other
    }

    var kind: Kind
    /// The error itself: its GLib domain, code and message.
    var cause: WebParserError.Cause

    /// The error's message.
    var message: String { cause.message }

    /// The error of the GLib domain named `domain` with `code` and `message`, named as the shim names it.
    init(domain: String, code: Int, message: String) {
        cause = WebParserError.Cause(domain: domain, code: code, message: message)
        kind = Self.kind(wk_error_kind(domain, Int32(code), message))
    }

    /// The error the shim reported; its strings are copied.
    init(_ error: WKError) {
        cause = WebParserError.Cause(
            domain: String(cString: error.domain), code: Int(error.code),
            message: String(cString: error.message))
        kind = Self.kind(error.kind)
    }

    private static func kind(_ kind: WKErrorKind) -> Kind {
        switch kind {
        case WK_ERROR_CONNECTION_REFUSED: .connectionRefused
        case WK_ERROR_HOST_NOT_FOUND: .hostNotFound
        case WK_ERROR_FILE_NOT_FOUND: .fileNotFound
        case WK_ERROR_CANCELLED: .cancelled
        case WK_ERROR_CONNECTION_LOST: .connectionLost
        case WK_ERROR_TLS: .tls
        case WK_ERROR_UNSUPPORTED_SCHEME: .unsupportedScheme
        case WK_ERROR_RESTRICTED_PORT: .restrictedPort
        case WK_ERROR_TOO_MANY_REDIRECTS: .tooManyRedirects
        case WK_ERROR_NAVIGATION_REPLACED: .navigationReplaced
        case WK_ERROR_POLICY_INTERRUPTED: .policyInterrupted
        case WK_ERROR_SCRIPT_FAILED: .scriptFailed
        default: .other
        }
    }
}
