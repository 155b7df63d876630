/* CWebKitGTK: What a view is asked to do and answers later: JavaScript calls and snapshots. */
#include "CWebKitGTK.h"

#include "objects.h"

typedef struct {
    char *png_path;
    WKDoneCallback callback;
    void *context;
} Snapshot;

static void on_snapshot(GObject *object, GAsyncResult *result, gpointer data) {
    Snapshot *snapshot = data;
    GError *error = NULL;
    cairo_surface_t *surface = webkit_web_view_get_snapshot_finish(WEBKIT_WEB_VIEW(object), result, &error);
    if (!surface) {
        snapshot->callback(snapshot->context, error->message);
        g_error_free(error);
    } else {
        cairo_status_t status = cairo_surface_write_to_png(surface, snapshot->png_path);
        snapshot->callback(snapshot->context, status == CAIRO_STATUS_SUCCESS ? NULL : cairo_status_to_string(status));
        cairo_surface_destroy(surface);
    }
    g_free(snapshot->png_path);
    g_free(snapshot);
}

void wk_view_snapshot(WKView *view, bool full_document, const char *png_path, WKDoneCallback callback,
                      void *context) {
    Snapshot *snapshot = g_new(Snapshot, 1);
    snapshot->png_path = g_strdup(png_path);
    snapshot->callback = callback;
    snapshot->context = context;
    webkit_web_view_get_snapshot(view->web_view, full_document ? WEBKIT_SNAPSHOT_REGION_FULL_DOCUMENT : WEBKIT_SNAPSHOT_REGION_VISIBLE,
                                 WEBKIT_SNAPSHOT_OPTIONS_NONE, NULL, on_snapshot, snapshot);
}

typedef struct {
    WKJavaScriptCallback callback;
    void *context;
} JavaScriptCall;

static void on_javascript_finished(GObject *object, GAsyncResult *result, gpointer data) {
    JavaScriptCall *call = data;
    GError *error = NULL;
    JSCValue *value = webkit_web_view_call_async_javascript_function_finish(WEBKIT_WEB_VIEW(object), result,
                                                                           &error);
    if (!value) {
        call->callback(call->context, WK_JS_ERROR, NULL, g_quark_to_string(error->domain), error->code,
                       error->message);
        g_error_free(error);
    } else if (jsc_value_is_undefined(value)) {
        call->callback(call->context, WK_JS_UNDEFINED, NULL, NULL, 0, NULL);
    } else if (jsc_value_is_null(value)) {
        call->callback(call->context, WK_JS_NULL, NULL, NULL, 0, NULL);
    } else if (jsc_value_is_string(value)) {
        char *text = jsc_value_to_string(value);
        call->callback(call->context, WK_JS_STRING, text, NULL, 0, NULL);
        g_free(text);
    } else {
        char *text = jsc_value_to_json(value, 0);
        call->callback(call->context, text ? WK_JS_JSON : WK_JS_UNSERIALIZABLE, text, NULL, 0, NULL);
        g_free(text);
    }
    if (value)
        g_object_unref(value);
    g_free(call);
}

void wk_view_call_async_function(WKView *view, const char *body, const char *source_uri,
                                 WKJavaScriptCallback callback, void *context) {
    JavaScriptCall *call = g_new(JavaScriptCall, 1);
    call->callback = callback;
    call->context = context;
    webkit_web_view_call_async_javascript_function(view->web_view, body, -1, NULL, NULL, source_uri, NULL,
                                                   on_javascript_finished, call);
}
