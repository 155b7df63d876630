/* CWebKitGTK: The loads of a view's documents and subresources as they start, get their response and end, and,
 * for a view that records them, what each was when it ended. */
#include "CWebKitGTK.h"

#include "objects.h"

/* One resource being loaded: what its signals need, connected to it until it ends or the view goes. */
typedef struct {
    WKView *view;
    WebKitWebResource *resource;
    guint64 id;
    /* For a recording view: the request as it was sent (after its redirects), and when it was sent and got its
     * response. */
    char *uri;
    char *method;
    GPtrArray *request_headers;
    gint64 started;
    gint64 responded;
    bool body_wanted;
    /* While its body is read: the view's cancellable, cancelled when the view goes (and the view with it). */
    GCancellable *reading;
    /* Whether the body was asked for again, after WebKit first had none. */
    bool asked_again;
} Load;

/* Disconnects from the resource and frees the record. */
static void load_free(Load *load) {
    g_signal_handlers_disconnect_by_data(load->resource, load);
    g_object_unref(load->resource);
    g_free(load->uri);
    g_free(load->method);
    if (load->request_headers)
        g_ptr_array_unref(load->request_headers);
    g_clear_object(&load->reading);
    g_free(load);
}

/* name, value, name, value… of headers, NULL-terminated, owning copies. */
static GPtrArray *header_list(SoupMessageHeaders *headers) {
    GPtrArray *list = g_ptr_array_new_with_free_func(g_free);
    SoupMessageHeadersIter iter;
    const char *name, *value;
    if (headers) {
        soup_message_headers_iter_init(&iter, headers);
        while (soup_message_headers_iter_next(&iter, &name, &value)) {
            g_ptr_array_add(list, g_strdup(name));
            g_ptr_array_add(list, g_strdup(value));
        }
    }
    g_ptr_array_add(list, NULL);
    return list;
}

/* Reports what the load's request got (response: NULL when none came), as it ended (failure: NULL, or why it
 * failed), with its body if read. */
static void record_response(Load *load, WebKitURIResponse *response, const char *failure, GBytes *body) {
    const char *mime_type = response ? webkit_uri_response_get_mime_type(response) : NULL;
    GPtrArray *response_headers = header_list(response ? webkit_uri_response_get_http_headers(response) : NULL);
    gsize body_length = 0;
    const unsigned char *bytes = body ? g_bytes_get_data(body, &body_length) : NULL;
    /* WebKit answers "no data" with one NUL byte. */
    if (body_length == 1 && bytes[0] == 0)
        bytes = NULL, body_length = 0;
    WKResourceRecord record = {
        load->uri ? load->uri : webkit_web_resource_get_uri(load->resource),
        load->method ? load->method : "GET",
        response ? (int)webkit_uri_response_get_status_code(response) : 0,
        mime_type ? mime_type : "",
        webkit_web_view_get_main_resource(load->view->web_view) == load->resource,
        load->started,
        load->responded,
        g_get_real_time(),
        failure,
        (const char *const *)load->request_headers->pdata,
        (const char *const *)response_headers->pdata,
        response ? (long long)webkit_uri_response_get_content_length(response) : -1,
        load->body_wanted,
        bytes,
        body_length,
    };
    load->view->callbacks.resource_recorded(load->view->callback_context, &record);
    g_ptr_array_unref(response_headers);
}

/* Reports what the load was as it ended (failure: NULL, or why it failed), with its body if read. */
static void load_record(Load *load, const char *failure, GBytes *body) {
    record_response(load, webkit_web_resource_get_response(load->resource), failure, body);
}

/* Tells the view's owner that the load ended, where it ended. */
static void report_end(Load *load) {
    const char *uri = webkit_web_resource_get_uri(load->resource);
    load->view->callbacks.resource_changed(load->view->callback_context, load->id, WK_RESOURCE_ENDED, uri ? uri : "");
}

/* Reports the end of the load and frees its record, which the caller has taken out of the view's loads. */
static void load_ended(Load *load) {
    report_end(load);
    load_free(load);
}

static void on_data(GObject *object, GAsyncResult *result, gpointer data);

static gboolean ask_again(gpointer data) {
    Load *load = data;
    webkit_web_resource_get_data(load->resource, load->reading, on_data, load);
    return G_SOURCE_REMOVE;
}

static void on_data(GObject *object, GAsyncResult *result, gpointer data) {
    Load *load = data;
    gsize length = 0;
    guchar *bytes = webkit_web_resource_get_data_finish(WEBKIT_WEB_RESOURCE(object), result, &length, NULL);
    /* No bytes yet: asked once more, as the view was told (wk_view_record_resources). */
    guint retry_ms = load->view->empty_body_retry_ms;
    if (retry_ms > 0 && !load->asked_again && !g_cancellable_is_cancelled(load->reading) &&
        (!bytes || (length == 1 && bytes[0] == 0))) {
        load->asked_again = true;
        g_free(bytes);
        g_timeout_add(retry_ms, ask_again, load);
        return;
    }
    /* A view destroyed meanwhile cancelled the read, and is gone: only the load goes. */
    if (!g_cancellable_is_cancelled(load->reading)) {
        GBytes *body = bytes ? g_bytes_new_take(bytes, length) : NULL;
        load_record(load, NULL, body);
        if (body)
            g_bytes_unref(body);
    } else {
        g_free(bytes);
    }
    load_free(load);
}

/* The load ended: its end is reported at once (the page's requests are not held up by the body's read), then
 * what it was, once its body, if wanted, is read. */
static void load_end(Load *load, const char *failure) {
    g_ptr_array_remove_fast(load->view->loads, load);
    report_end(load);
    if (load->request_headers && load->body_wanted && !failure) {
        load->reading = g_object_ref(load->view->reading);
        webkit_web_resource_get_data(load->resource, load->reading, on_data, load);
        return;
    }
    if (load->request_headers)
        load_record(load, failure, NULL);
    load_free(load);
}

static void on_finished(WebKitWebResource *resource, gpointer data) {
    load_end(data, NULL);
}

static void on_failed(WebKitWebResource *resource, GError *error, gpointer data) {
    load_end(data, error ? error->message : "the load failed");
}

static void on_response(GObject *object, GParamSpec *spec, gpointer data) {
    Load *load = data;
    WebKitURIResponse *response = webkit_web_resource_get_response(load->resource);
    const char *mime_type = response ? webkit_uri_response_get_mime_type(response) : NULL;
    if (load->request_headers) {
        load->responded = g_get_real_time();
        load->body_wanted = load->view->callbacks.resource_wanted(
            load->view->callback_context, webkit_web_resource_get_uri(load->resource), mime_type ? mime_type : "",
            webkit_web_view_get_main_resource(load->view->web_view) == load->resource);
    }
    load->view->callbacks.resource_changed(load->view->callback_context, load->id, WK_RESOURCE_RESPONDED,
                                           mime_type ? mime_type : "");
}

/* A request of the load was sent: at a redirect (redirected_response is the server's answer to the request before),
 * that hop is reported as a load of its own, and the request sent is the load's from then on. */
static void on_sent_request(WebKitWebResource *resource, WebKitURIRequest *request, WebKitURIResponse *redirected_response,
                            gpointer data) {
    Load *load = data;
    if (!load->request_headers || !redirected_response)
        return;
    load->responded = g_get_real_time();
    record_response(load, redirected_response, NULL, NULL);
    g_free(load->uri);
    g_free(load->method);
    g_ptr_array_unref(load->request_headers);
    load->uri = g_strdup(webkit_uri_request_get_uri(request));
    load->method = g_strdup(webkit_uri_request_get_http_method(request));
    load->request_headers = header_list(webkit_uri_request_get_http_headers(request));
    load->started = g_get_real_time();
    load->responded = 0;
}

static void on_resource_load_started(WebKitWebView *web_view, WebKitWebResource *resource, WebKitURIRequest *request,
                                     gpointer data) {
    WKView *view = data;
    Load *load = g_new0(Load, 1);
    load->view = view;
    load->resource = g_object_ref(resource);
    load->id = ++view->last_load_id;
    g_ptr_array_add(view->loads, load);
    g_signal_connect(resource, "finished", G_CALLBACK(on_finished), load);
    g_signal_connect(resource, "failed", G_CALLBACK(on_failed), load);
    g_signal_connect(resource, "notify::response", G_CALLBACK(on_response), load);
    g_signal_connect(resource, "sent-request", G_CALLBACK(on_sent_request), load);
    SoupMessageHeaders *headers = webkit_uri_request_get_http_headers(request);
    if (view->records_resources) {
        load->uri = g_strdup(webkit_uri_request_get_uri(request));
        load->method = g_strdup(webkit_uri_request_get_http_method(request));
        load->request_headers = header_list(headers);
        load->started = g_get_real_time();
    }
    const char *accept = headers ? soup_message_headers_get_one(headers, "Accept") : NULL;
    gboolean main_document = webkit_web_view_get_main_resource(web_view) == resource;
    view->callbacks.resource_changed(view->callback_context, load->id,
                                     main_document ? WK_RESOURCE_DOCUMENT_STARTED : WK_RESOURCE_STARTED, accept ? accept : "");
}

/* WebKit forgets the resources of the document a new load replaces: they report no end of their own. */
static void on_load_changed(WebKitWebView *web_view, WebKitLoadEvent event, gpointer data) {
    WKView *view = data;
    if (event != WEBKIT_LOAD_STARTED || view->loads->len == 0)
        return;
    GPtrArray *replaced = view->loads;
    view->loads = g_ptr_array_new();
    for (guint index = 0; index < replaced->len; index++) {
        Load *load = g_ptr_array_index(replaced, index);
        if (load->request_headers)
            load_record(load, "a new document replaced the one that made the request", NULL);
        load_ended(load);
    }
    g_ptr_array_free(replaced, TRUE);
}

void view_resources_watch(WKView *view) {
    view->loads = g_ptr_array_new();
    view->reading = g_cancellable_new();
    g_signal_connect(view->web_view, "resource-load-started", G_CALLBACK(on_resource_load_started), view);
    g_signal_connect(view->web_view, "load-changed", G_CALLBACK(on_load_changed), view);
}

void view_resources_forget(WKView *view) {
    g_cancellable_cancel(view->reading);
    g_clear_object(&view->reading);
    for (guint index = 0; index < view->loads->len; index++)
        load_free(g_ptr_array_index(view->loads, index));
    g_ptr_array_free(view->loads, TRUE);
    view->loads = NULL;
}

void wk_view_record_resources(WKView *view, bool records, unsigned empty_body_retry_ms) {
    view->records_resources = records;
    view->empty_body_retry_ms = empty_body_retry_ms;
}
