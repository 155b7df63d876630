/* CWebKitGTK: memory the shim hands out, and the records of requests that answer later. */
#include "CWebKitGTK.h"

#include "objects.h"

void wk_free(void *pointer) {
    g_free(pointer);
}

Pending *pending_new(void (*callback)(void), void *context, const char *path) {
    Pending *pending = g_new(Pending, 1);
    pending->callback = callback;
    pending->context = context;
    pending->path = g_strdup(path);
    return pending;
}

void pending_free(Pending *pending) {
    g_free(pending->path);
    g_free(pending);
}

void pending_done(Pending *pending, GError *error) {
    ((WKDoneCallback)pending->callback)(pending->context, error ? error->message : NULL);
    if (error)
        g_error_free(error);
    pending_free(pending);
}
