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

#endif
