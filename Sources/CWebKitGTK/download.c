/* CWebKitGTK: files loaded to disk through a web context's network process. */
#include "CWebKitGTK.h"

#include "objects.h"

struct WKDownload {
    WebKitDownload *download;
    char *path;
    unsigned long long max_bytes;
    bool too_large;
    GError *error;
    WKDownloadCallback callback;
    void *callback_context;
};

static gboolean on_decide_destination(WebKitDownload *download, gchar *suggested, gpointer data) {
    WKDownload *wrapper = data;
    webkit_download_set_allow_overwrite(download, TRUE);
    webkit_download_set_destination(download, wrapper->path);
    return TRUE;
}

static void on_received_data(WebKitDownload *download, guint64 length, gpointer data) {
    WKDownload *wrapper = data;
    if (!wrapper->too_large && webkit_download_get_received_data_length(download) > wrapper->max_bytes) {
        wrapper->too_large = true;
        webkit_download_cancel(download);
    }
}

static void on_failed(WebKitDownload *download, GError *error, gpointer data) {
    WKDownload *wrapper = data;
    if (!wrapper->error)
        wrapper->error = g_error_copy(error);
}

static void on_finished(WebKitDownload *download, gpointer data) {
    WKDownload *wrapper = data;
    WebKitURIResponse *response = webkit_download_get_response(download);
    unsigned status = response ? webkit_uri_response_get_status_code(response) : 0;
    const char *mime_type = response ? webkit_uri_response_get_mime_type(response) : NULL;
    g_signal_handlers_disconnect_by_data(download, wrapper);
    WKError error = {0};
    if (wrapper->error && !wrapper->too_large) error = error_from(wrapper->error);
    wrapper->callback(wrapper->callback_context, status, mime_type ? mime_type : "", wrapper->too_large,
                      wrapper->error && !wrapper->too_large ? &error : NULL);
    g_object_unref(download);
    g_free(wrapper->path);
    g_clear_error(&wrapper->error);
    g_free(wrapper);
}

WKDownload *wk_context_download(WKContext *context, const char *uri, const char *path, unsigned long long max_bytes,
                                WKDownloadCallback callback, void *callback_context) {
    WKDownload *wrapper = g_new0(WKDownload, 1);
    wrapper->path = g_strdup(path);
    wrapper->max_bytes = max_bytes;
    wrapper->callback = callback;
    wrapper->callback_context = callback_context;
    wrapper->download = webkit_web_context_download_uri(context->web_context, uri);
    g_signal_connect(wrapper->download, "decide-destination", G_CALLBACK(on_decide_destination), wrapper);
    g_signal_connect(wrapper->download, "received-data", G_CALLBACK(on_received_data), wrapper);
    g_signal_connect(wrapper->download, "failed", G_CALLBACK(on_failed), wrapper);
    g_signal_connect(wrapper->download, "finished", G_CALLBACK(on_finished), wrapper);
    return wrapper;
}

void wk_download_cancel(WKDownload *download) {
    webkit_download_cancel(download->download);
}
