/* CWebKitGTK: the shim's objects as its own files see them. Not part of the shim's API. */
#ifndef WK_OBJECTS_H
#define WK_OBJECTS_H

#include "CWebKitGTK.h"

#include <gtk/gtk.h>
#include <webkit2/webkit2.h>

struct WKContext {
    WebKitWebContext *web_context;
    /* How the context's requests reach servers, for connections webparse makes itself: NULL (the system's
     * proxy settings, as WebKit's default) or the proxy of wk_context_set_proxy; direct when that was none. */
    GProxyResolver *proxy_resolver;
    bool direct;
    /* The certificates trusted for a host (trust_certificate), which WebKit accepts from then on: host name to a
     * GPtrArray of GTlsCertificate. */
    GHashTable *trusted_certificates;
    /* Whether wk_context_set_extensions_directory loaded webparse's extension. */
    bool has_extension;
};

struct WKContentFilter {
    WebKitUserContentFilter *filter;
};

struct WKView {
    /* The context the view was made in. */
    WKContext *context;
    GtkWidget *window;
    WebKitWebView *web_view;
    WKViewCallbacks callbacks;
    void *callback_context;
    /* The request of the current load, kept to load it again with its headers. */
    WebKitURIRequest *request;
    /* The credentials for the current load, offered once. */
    char *user;
    char *password;
    /* The resources loading (view_resources.c), and the number the last one got. */
    GPtrArray *loads;
    guint64 last_load_id;
    /* Whether ended loads are reported through resource_recorded, after how long a body WebKit did not have yet is
     * asked for again (0: never), and what cancels the bodies being read. */
    bool records_resources;
    guint empty_body_retry_ms;
    GCancellable *reading;
    /* Whether the view's first load starts a web process of its own for pages that use WebGL. */
    bool starts_webgl_process;
};

/* A request that answers later: the caller's callback (cast back to its own type by the file that made the
 * request), the callback's context, and a path the request writes to, if any. One record for every request. */
typedef struct {
    void (*callback)(void);
    void *context;
    char *path;
} Pending;

/* Trusts certificate for uri's host in the view's web context and loads uri again: the view's current request
 * (with its headers) when uri is its URI. False, doing nothing, when uri has no host. */
bool trust_certificate(WKView *view, GTlsCertificate *certificate, const char *uri);

/* Says, around the call that starts a web process (a view's first load), whether that process's pages use
 * WebGL, and so which EGL driver it loads (egl.c). */
void egl_starting_process_for_webgl(bool webgl);

/* Around a call that may start the view's web process (its first load, or a message to its page), with starting
 * true before and false after: a view made for WebGL starts its process with Mesa's EGL driver. */
void view_process_may_start(WKView *view, bool starting);

/* Reports the view's resource loads through its resource_changed callback from now on. */
void view_resources_watch(WKView *view);

/* The page settings the extension reads (a floating GVariant): capture, and the pending-work accessor. */
GVariant *wk_page_settings(bool capture, unsigned long long max_body, unsigned kinds, const char *work_key,
                           unsigned work_worlds);

/* Reports the responses the view's extension captures through its response_captured callback from now on. */
void view_capture_watch(WKView *view);

/* Disconnects from the resources still loading, without reporting their end. */
void view_resources_forget(WKView *view);

/* The error as webparse names it (wk_error.h); its strings live as long as error. */
WKError error_from(const GError *error);

Pending *pending_new(void (*callback)(void), void *context, const char *path);

/* Frees the record (not its context, which belongs to the caller). */
void pending_free(Pending *pending);

/* Answers a request whose callback is a WKDoneCallback, with error's message (NULL: done), and frees both. */
void pending_done(Pending *pending, GError *error);

#endif
