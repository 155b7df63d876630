/* CWebKitGTK: Certificates: the one a server presents, checked as WebKit checks it, and trusting one for a view. */
#include "CWebKitGTK.h"

#include "objects.h"

/* uri's host, newly allocated; NULL when uri has none. */
static char *host_of(const char *uri) {
    GUri *parsed = g_uri_parse(uri, G_URI_FLAGS_NONE, NULL);
    if (!parsed)
        return NULL;
    char *host = g_strdup(g_uri_get_host(parsed));
    g_uri_unref(parsed);
    return host;
}

/* The certificates trusted for host in context (NULL when none), or, with create, the list to add one to. */
static GPtrArray *trusted_for(WKContext *context, const char *host, bool create) {
    GPtrArray *trusted = g_hash_table_lookup(context->trusted_certificates, host);
    if (!trusted && create) {
        trusted = g_ptr_array_new_with_free_func(g_object_unref);
        g_hash_table_insert(context->trusted_certificates, g_strdup(host), trusted);
    }
    return trusted;
}

/* Whether certificate was trusted for host in context, as WebKit then accepts it. */
static bool is_trusted(WKContext *context, const char *host, GTlsCertificate *certificate) {
    GPtrArray *trusted = host ? trusted_for(context, host, false) : NULL;
    for (guint index = 0; trusted && index < trusted->len; index++) {
        if (g_tls_certificate_is_same(g_ptr_array_index(trusted, index), certificate))
            return true;
    }
    return false;
}

/* The answer WebKit gives a load whose certificate is not trusted, when webparse trusts it for the load. */
bool trust_certificate(WKView *view, GTlsCertificate *certificate, const char *uri) {
    char *host = host_of(uri);
    if (!host)
        return false;
    webkit_web_context_allow_tls_certificate_for_host(view->context->web_context, certificate, host);
    if (!is_trusted(view->context, host, certificate))
        g_ptr_array_add(trusted_for(view->context, host, true), g_object_ref(certificate));
    g_free(host);
    if (view->request && g_strcmp0(webkit_uri_request_get_uri(view->request), uri) == 0)
        webkit_web_view_load_request(view->web_view, view->request);
    else
        webkit_web_view_load_uri(view->web_view, uri);
    return true;
}

void wk_view_trust_certificate(WKView *view, WKCertificate *certificate, const char *uri) {
    trust_certificate(view, G_TLS_CERTIFICATE(certificate), uri);
}

typedef struct {
    WKCertificateCallback callback;
    void *context;
    WKContext *web_context;
    char *host;
    /* The certificate the server presented, once the handshake found it untrusted. */
    GTlsCertificate *untrusted;
} Check;

static gboolean on_accept_certificate(GTlsConnection *connection, GTlsCertificate *certificate,
                                      GTlsCertificateFlags errors, gpointer data) {
    Check *check = data;
    g_set_object(&check->untrusted, certificate);
    return FALSE; /* seen: the handshake has nothing more to say */
}

static void on_client_event(GSocketClient *client, GSocketClientEvent event, GSocketConnectable *connectable,
                            GIOStream *connection, gpointer data) {
    if (event == G_SOCKET_CLIENT_TLS_HANDSHAKING)
        g_signal_connect(connection, "accept-certificate", G_CALLBACK(on_accept_certificate), data);
}

static void on_connected(GObject *client, GAsyncResult *result, gpointer data) {
    Check *check = data;
    GSocketConnection *connection = g_socket_client_connect_to_uri_finish(G_SOCKET_CLIENT(client), result, NULL);
    if (connection) {
        g_io_stream_close(G_IO_STREAM(connection), NULL, NULL);
        g_object_unref(connection);
    }
    /* A certificate trusted for the host earlier in the run is one WebKit accepts. */
    if (check->untrusted && is_trusted(check->web_context, check->host, check->untrusted))
        g_clear_object(&check->untrusted);
    check->callback(check->context, (WKCertificate *)check->untrusted);
    g_clear_object(&check->untrusted);
    g_free(check->host);
    g_free(check);
    g_object_unref(client);
}

void wk_context_check_certificate(WKContext *context, const char *uri, WKCertificateCallback callback,
                                  void *callback_context) {
    Check *check = g_new0(Check, 1);
    check->callback = callback;
    check->context = callback_context;
    check->web_context = context;
    check->host = host_of(uri);
    GSocketClient *client = g_socket_client_new();
    g_socket_client_set_tls(client, TRUE);
    g_socket_client_set_timeout(client, 10);
    if (context->direct)
        g_socket_client_set_enable_proxy(client, FALSE);
    else if (context->proxy_resolver)
        g_socket_client_set_proxy_resolver(client, context->proxy_resolver);
    g_signal_connect(client, "event", G_CALLBACK(on_client_event), check);
    g_socket_client_connect_to_uri_async(client, uri, 443, NULL, on_connected, check);
}
