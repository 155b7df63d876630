/* CWebKitGTK: Errors: the GLib errors WebKit reports, named in one place (wk_error.h). */
#define _GNU_SOURCE
#include "CWebKitGTK.h"

#include "objects.h"

#include <libsoup/soup.h>
#include <string.h>

static WKErrorKind io_error_kind(int code) {
    switch (code) {
    case G_IO_ERROR_CONNECTION_REFUSED: return WK_ERROR_CONNECTION_REFUSED;
    case G_IO_ERROR_HOST_NOT_FOUND: return WK_ERROR_HOST_NOT_FOUND;
    case G_IO_ERROR_NOT_FOUND: return WK_ERROR_FILE_NOT_FOUND;
    case G_IO_ERROR_CANCELLED: return WK_ERROR_CANCELLED;
    case G_IO_ERROR_FAILED:
    case G_IO_ERROR_TIMED_OUT:
    case G_IO_ERROR_BUSY:
    case G_IO_ERROR_PARTIAL_INPUT:
    case G_IO_ERROR_HOST_UNREACHABLE:
    case G_IO_ERROR_NETWORK_UNREACHABLE:
    case G_IO_ERROR_CONNECTION_CLOSED:
    case G_IO_ERROR_NOT_CONNECTED:
        return WK_ERROR_CONNECTION_LOST;
    default:
        return WK_ERROR_OTHER;
    }
}

static WKErrorKind kind_of(const GError *error) {
    if (error->domain == G_IO_ERROR) return io_error_kind(error->code);
    if (error->domain == G_RESOLVER_ERROR)
        return error->code == G_RESOLVER_ERROR_NOT_FOUND ? WK_ERROR_HOST_NOT_FOUND : WK_ERROR_CONNECTION_LOST;
    if (error->domain == G_TLS_ERROR) return WK_ERROR_TLS;
    if (error->domain == SOUP_SESSION_ERROR && error->code == SOUP_SESSION_ERROR_TOO_MANY_REDIRECTS)
        return WK_ERROR_TOO_MANY_REDIRECTS;
    if (error->domain == WEBKIT_NETWORK_ERROR) {
        switch (error->code) {
        case WEBKIT_NETWORK_ERROR_TRANSPORT: return WK_ERROR_CONNECTION_LOST;
        case WEBKIT_NETWORK_ERROR_UNKNOWN_PROTOCOL: return WK_ERROR_UNSUPPORTED_SCHEME;
        case WEBKIT_NETWORK_ERROR_CANCELLED: return WK_ERROR_NAVIGATION_REPLACED;
        case WEBKIT_NETWORK_ERROR_FILE_DOES_NOT_EXIST: return WK_ERROR_FILE_NOT_FOUND;
        default: break;
        }
    }
    if (error->domain == WEBKIT_POLICY_ERROR) {
        switch (error->code) {
        case WEBKIT_POLICY_ERROR_CANNOT_SHOW_URI: return WK_ERROR_UNSUPPORTED_SCHEME;
        case WEBKIT_POLICY_ERROR_FRAME_LOAD_INTERRUPTED_BY_POLICY_CHANGE: return WK_ERROR_POLICY_INTERRUPTED;
        case WEBKIT_POLICY_ERROR_CANNOT_USE_RESTRICTED_PORT: return WK_ERROR_RESTRICTED_PORT;
        default: break;
        }
    }
    if (error->domain == WEBKIT_JAVASCRIPT_ERROR && error->code == WEBKIT_JAVASCRIPT_ERROR_SCRIPT_FAILED)
        return WK_ERROR_SCRIPT_FAILED;
    /* WebKit reports its own redirect limit without a domain of its own ("Load cannot follow more than 20
     * redirections"), and a download's network failure with the message of libsoup's error alone ("Too many
     * redirects"). */
    if (error->message && (strcasestr(error->message, "redirection") || strcasestr(error->message, "too many redirect")))
        return WK_ERROR_TOO_MANY_REDIRECTS;
    if (error->domain == WEBKIT_DOWNLOAD_ERROR && error->code == WEBKIT_DOWNLOAD_ERROR_NETWORK)
        return WK_ERROR_CONNECTION_LOST;
    return WK_ERROR_OTHER;
}

WKErrorKind wk_error_kind(const char *domain, int code, const char *message) {
    GError error = {.domain = g_quark_from_string(domain), .code = code, .message = (char *)message};
    return kind_of(&error);
}

WKError error_from(const GError *error) {
    const char *domain = error->domain ? g_quark_to_string(error->domain) : NULL;
    return (WKError){
        .kind = kind_of(error),
        .domain = domain ? domain : "",
        .code = error->code,
        .message = error->message ? error->message : "",
    };
}
