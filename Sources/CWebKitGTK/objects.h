/* CWebKitGTK: the shim's objects as its own files see them. Not part of the shim's API. */
#ifndef WK_OBJECTS_H
#define WK_OBJECTS_H

#include "CWebKitGTK.h"

#include <gtk/gtk.h>
#include <webkit2/webkit2.h>

struct WKContext {
    WebKitWebContext *web_context;
};

struct WKContentFilter {
    WebKitUserContentFilter *filter;
};

struct WKView {
    GtkWidget *window;
    WebKitWebView *web_view;
    WKViewCallbacks callbacks;
    void *callback_context;
    /* The credentials for the current load, offered once. */
    char *user;
    char *password;
};

/* A request that answers later: the caller's callback (cast back to its own type by the file that made the
 * request), the callback's context, and a path the request writes to, if any. One record for every request. */
typedef struct {
    void (*callback)(void);
    void *context;
    char *path;
} Pending;

Pending *pending_new(void (*callback)(void), void *context, const char *path);

/* Frees the record (not its context, which belongs to the caller). */
void pending_free(Pending *pending);

/* Answers a request whose callback is a WKDoneCallback, with error's message (NULL: done), and frees both. */
void pending_done(Pending *pending, GError *error);

#endif
