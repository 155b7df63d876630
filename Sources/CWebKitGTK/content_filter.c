/* CWebKitGTK: Content filters: compiled WebKit content-blocker rules. */
#include "CWebKitGTK.h"

#include "objects.h"

typedef struct {
    WKContentFilterCallback callback;
    void *context;
} FilterCompilation;

static void on_filter_compiled(GObject *store, GAsyncResult *result, gpointer data) {
    FilterCompilation *compilation = data;
    GError *error = NULL;
    WebKitUserContentFilter *filter =
        webkit_user_content_filter_store_save_finish(WEBKIT_USER_CONTENT_FILTER_STORE(store), result, &error);
    if (filter) {
        WKContentFilter *wrapper = g_new(WKContentFilter, 1);
        wrapper->filter = filter;
        compilation->callback(compilation->context, wrapper, NULL);
    } else {
        compilation->callback(compilation->context, NULL, error->message);
        g_error_free(error);
    }
    g_object_unref(store);
    g_free(compilation);
}

void wk_content_filter_compile(const char *storage_directory, const char *identifier, const char *json_source,
                               WKContentFilterCallback callback, void *context) {
    FilterCompilation *compilation = g_new(FilterCompilation, 1);
    compilation->callback = callback;
    compilation->context = context;
    WebKitUserContentFilterStore *store = webkit_user_content_filter_store_new(storage_directory);
    GBytes *source = g_bytes_new(json_source, strlen(json_source));
    webkit_user_content_filter_store_save(store, identifier, source, NULL, on_filter_compiled, compilation);
    g_bytes_unref(source);
}

void wk_content_filter_free(WKContentFilter *filter) {
    webkit_user_content_filter_unref(filter->filter);
    g_free(filter);
}
