/*
 * CWebKitGTK: the errors WebKit reports, named. The shim reads GLib errors (GIO, the resolver, TLS, libsoup,
 * WebKit's own domains) in one place, so that no other code compares error domains and codes.
 */
#ifndef WK_ERROR_H
#define WK_ERROR_H

/* What an error means to webparse. */
typedef enum {
    /* None of the below. */
    WK_ERROR_OTHER = 0,
    /* Nothing listens at the server's address. */
    WK_ERROR_CONNECTION_REFUSED,
    /* The host name does not resolve. */
    WK_ERROR_HOST_NOT_FOUND,
    /* A file: URL names no file. */
    WK_ERROR_FILE_NOT_FOUND,
    /* GIO cancelled the operation: WebKit gave up a connection (see LoadFailureTriage). */
    WK_ERROR_CANCELLED,
    /* The connection failed, timed out, broke or was closed mid-response; the network or host is unreachable;
     * the resolver failed for a reason that may pass; WebKit's transport failed. */
    WK_ERROR_CONNECTION_LOST,
    /* The TLS handshake or the server's certificate was rejected. */
    WK_ERROR_TLS,
    /* WebKit cannot load or show the URL's scheme. */
    WK_ERROR_UNSUPPORTED_SCHEME,
    /* WebKit refuses the URL's port. */
    WK_ERROR_RESTRICTED_PORT,
    /* The server redirected too many times. */
    WK_ERROR_TOO_MANY_REDIRECTS,
    /* A newer navigation replaced the load. */
    WK_ERROR_NAVIGATION_REPLACED,
    /* WebKit stopped the load during a policy decision (refused, or replaced while the decision was pending). */
    WK_ERROR_POLICY_INTERRUPTED,
    /* A JavaScript call failed in the page: it threw, or does not parse. */
    WK_ERROR_SCRIPT_FAILED
} WKErrorKind;

/* An error as WebKit reported it: its meaning, its GLib domain's name ("" when it has none), code and message. */
typedef struct {
    WKErrorKind kind;
    const char *domain;
    int code;
    const char *message;
} WKError;

/* Names the error of the GLib domain named domain, with code and message, as the shim names the errors WebKit
 * reports; message may be NULL. */
WKErrorKind wk_error_kind(const char *domain, int code, const char *message);

#endif
