/* CWebKitGTK: What a view is asked to do and answers later: JavaScript calls and snapshots. */
#include "CWebKitGTK.h"

#include "objects.h"

static void on_snapshot(GObject *object, GAsyncResult *result, gpointer data) {
    Pending *pending = data;
    GError *error = NULL;
    cairo_surface_t *surface = webkit_web_view_get_snapshot_finish(WEBKIT_WEB_VIEW(object), result, &error);
    if (!surface) {
        pending_done(pending, error);
        return;
    }
    cairo_status_t status = cairo_surface_write_to_png(surface, pending->path);
    ((WKDoneCallback)pending->callback)(pending->context, status == CAIRO_STATUS_SUCCESS ? NULL : cairo_status_to_string(status));
    cairo_surface_destroy(surface);
    pending_free(pending);
}

void wk_view_snapshot(WKView *view, bool full_document, const char *png_path, WKDoneCallback callback,
                      void *context) {
    webkit_web_view_get_snapshot(view->web_view, full_document ? WEBKIT_SNAPSHOT_REGION_FULL_DOCUMENT : WEBKIT_SNAPSHOT_REGION_VISIBLE,
                                 WEBKIT_SNAPSHOT_OPTIONS_NONE, NULL, on_snapshot,
                                 pending_new((void (*)(void))callback, context, png_path));
}

static void on_javascript_finished(GObject *object, GAsyncResult *result, gpointer data) {
    Pending *call = data;
    WKJavaScriptCallback callback = (WKJavaScriptCallback)call->callback;
    GError *error = NULL;
    JSCValue *value = webkit_web_view_call_async_javascript_function_finish(WEBKIT_WEB_VIEW(object), result,
                                                                           &error);
    if (!value) {
        callback(call->context, WK_JS_ERROR, NULL, error_from(error));
        g_error_free(error);
    } else if (jsc_value_is_undefined(value)) {
        callback(call->context, WK_JS_UNDEFINED, NULL, (WKError){0});
    } else if (jsc_value_is_null(value)) {
        callback(call->context, WK_JS_NULL, NULL, (WKError){0});
    } else if (jsc_value_is_string(value)) {
        char *text = jsc_value_to_string(value);
        callback(call->context, WK_JS_STRING, text, (WKError){0});
        g_free(text);
    } else {
        char *text = jsc_value_to_json(value, 0);
        callback(call->context, text ? WK_JS_JSON : WK_JS_UNSERIALIZABLE, text, (WKError){0});
        g_free(text);
    }
    if (value)
        g_object_unref(value);
    pending_free(call);
}

static void on_ping(GObject *object, GAsyncResult *result, gpointer data) {
    Pending *ping = data;
    GError *error = NULL;
    JSCValue *value = webkit_web_view_evaluate_javascript_finish(WEBKIT_WEB_VIEW(object), result, &error);
    ((WKDoneCallback)ping->callback)(ping->context, error ? error->message : NULL);
    g_clear_error(&error);
    if (value)
        g_object_unref(value);
    pending_free(ping);
}

void wk_view_ping(WKView *view, WKDoneCallback callback, void *context) {
    webkit_web_view_evaluate_javascript(view->web_view, "0", -1, NULL, NULL, NULL, on_ping,
                                        pending_new((void (*)(void))callback, context, NULL));
}

const char *wk_view_title(WKView *view) {
    const char *title = webkit_web_view_get_title(view->web_view);
    return title && *title ? title : NULL;
}

void wk_view_call_async_function(WKView *view, const char *body, const char *source_uri, const char *world,
                                 WKJavaScriptCallback callback, void *context) {
    webkit_web_view_call_async_javascript_function(view->web_view, body, -1, NULL, world, source_uri, NULL,
                                                   on_javascript_finished,
                                                   pending_new((void (*)(void))callback, context, NULL));
}
