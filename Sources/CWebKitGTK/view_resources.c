/* CWebKitGTK: The loads of a view's documents and subresources as they start, get their response and end. */
#include "CWebKitGTK.h"

#include "objects.h"

/* One resource being loaded: what its signals need, connected to it until it ends or the view goes. */
typedef struct {
    WKView *view;
    WebKitWebResource *resource;
    guint64 id;
} Load;

/* Disconnects from the resource and frees the record. */
static void load_free(Load *load) {
    g_signal_handlers_disconnect_by_data(load->resource, load);
    g_object_unref(load->resource);
    g_free(load);
}

/* Reports the end of the load and frees its record, which the caller has taken out of the view's loads. */
static void load_ended(Load *load) {
    load->view->callbacks.resource_changed(load->view->callback_context, load->id, WK_RESOURCE_ENDED, NULL);
    load_free(load);
}

static void load_end(Load *load) {
    g_ptr_array_remove_fast(load->view->loads, load);
    load_ended(load);
}

static void on_finished(WebKitWebResource *resource, gpointer data) {
    load_end(data);
}

static void on_failed(WebKitWebResource *resource, GError *error, gpointer data) {
    load_end(data);
}

static void on_response(GObject *object, GParamSpec *spec, gpointer data) {
    Load *load = data;
    WebKitURIResponse *response = webkit_web_resource_get_response(load->resource);
    const char *mime_type = response ? webkit_uri_response_get_mime_type(response) : NULL;
    load->view->callbacks.resource_changed(load->view->callback_context, load->id, WK_RESOURCE_RESPONDED,
                                           mime_type ? mime_type : "");
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
    SoupMessageHeaders *headers = webkit_uri_request_get_http_headers(request);
    const char *accept = headers ? soup_message_headers_get_one(headers, "Accept") : NULL;
    view->callbacks.resource_changed(view->callback_context, load->id, WK_RESOURCE_STARTED, accept ? accept : "");
}

/* WebKit forgets the resources of the document a new load replaces: they report no end of their own. */
static void on_load_changed(WebKitWebView *web_view, WebKitLoadEvent event, gpointer data) {
    WKView *view = data;
    if (event != WEBKIT_LOAD_STARTED || view->loads->len == 0)
        return;
    GPtrArray *replaced = view->loads;
    view->loads = g_ptr_array_new();
    for (guint index = 0; index < replaced->len; index++)
        load_ended(g_ptr_array_index(replaced, index));
    g_ptr_array_free(replaced, TRUE);
}

void view_resources_watch(WKView *view) {
    view->loads = g_ptr_array_new();
    g_signal_connect(view->web_view, "resource-load-started", G_CALLBACK(on_resource_load_started), view);
    g_signal_connect(view->web_view, "load-changed", G_CALLBACK(on_load_changed), view);
}

void view_resources_forget(WKView *view) {
    for (guint index = 0; index < view->loads->len; index++)
        load_free(g_ptr_array_index(view->loads, index));
    g_ptr_array_free(view->loads, TRUE);
    view->loads = NULL;
}
