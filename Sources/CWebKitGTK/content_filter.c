/* CWebKitGTK: Content filters: compiled WebKit content-blocker rules. */
#include "CWebKitGTK.h"

#include "objects.h"

static void on_filter_compiled(GObject *store, GAsyncResult *result, gpointer data) {
    Pending *pending = data;
    WKContentFilterCallback callback = (WKContentFilterCallback)pending->callback;
    GError *error = NULL;
    WebKitUserContentFilter *filter =
        webkit_user_content_filter_store_save_finish(WEBKIT_USER_CONTENT_FILTER_STORE(store), result, &error);
    if (filter) {
        WKContentFilter *wrapper = g_new(WKContentFilter, 1);
        wrapper->filter = filter;
        callback(pending->context, wrapper, NULL);
    } else {
        callback(pending->context, NULL, error->message);
        g_error_free(error);
    }
    g_object_unref(store);
    pending_free(pending);
}

void wk_content_filter_compile(const char *storage_directory, const char *identifier, const char *json_source,
                               WKContentFilterCallback callback, void *context) {
    WebKitUserContentFilterStore *store = webkit_user_content_filter_store_new(storage_directory);
    GBytes *source = g_bytes_new(json_source, strlen(json_source));
    webkit_user_content_filter_store_save(store, identifier, source, NULL, on_filter_compiled,
                                          pending_new((void (*)(void))callback, context, NULL));
    g_bytes_unref(source);
}

void wk_content_filter_free(WKContentFilter *filter) {
    webkit_user_content_filter_unref(filter->filter);
    g_free(filter);
}
