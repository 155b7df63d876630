/* CWebKitGTK: The settings a view sends its page's extension (capture, the pending-work accessor), and the responses
 * it sends back. */
#include "CWebKitGTK.h"

#include "objects.h"

/* The protocol, which the extension's own folder holds for both sides. */
#include "webparse_capture.h"

_Static_assert(WK_CAPTURE_FETCH == WEBPARSE_CAPTURE_FETCH && WK_CAPTURE_XHR == WEBPARSE_CAPTURE_XHR
                   && WK_CAPTURE_OTHER == WEBPARSE_CAPTURE_OTHER && WK_CAPTURE_FORMS == WEBPARSE_CAPTURE_FORMS,
               "the capture kinds are the extension's");
_Static_assert(WK_WORK_IN_MAIN_WORLD == WEBPARSE_WORK_IN_MAIN_WORLD && WK_WORK_IN_OWN_WORLD == WEBPARSE_WORK_IN_OWN_WORLD,
               "the pending-work accessor's worlds are the extension's");

const char *wk_extension_file_name(void) {
    return WEBPARSE_EXTENSION_FILE;
}

static gboolean on_user_message(WebKitWebView *web_view, WebKitUserMessage *message, gpointer data) {
    WKView *view = data;
    if (g_strcmp0(webkit_user_message_get_name(message), WEBPARSE_CAPTURE_RESPONSE) != 0)
        return FALSE;
    GVariant *parameters = webkit_user_message_get_parameters(message);
    if (!parameters || !g_variant_is_of_type(parameters, G_VARIANT_TYPE(WEBPARSE_CAPTURE_RESPONSE_FORMAT)))
        return TRUE;
    const char *kind, *url, *method, *mime_type, *omitted;
    gint32 status;
    gboolean main_frame, exact;
    guint64 size, read;
    GVariant *body;
    /* The same fields, borrowed from parameters. */
    g_variant_get(parameters, "(&s&s&si&sbbt@ay&st)", &kind, &url, &method, &status, &mime_type,
                  &main_frame, &exact, &size, &body, &omitted, &read);
    if (g_strcmp0(kind, "begin") == 0 || g_strcmp0(kind, "end") == 0) {
        if (read && *kind == 'b')
            view->callbacks.read_started(view->callback_context, read, method, url);
        else if (read)
            view->callbacks.read_ended(view->callback_context, read);
        g_variant_unref(body);
        return TRUE;
    }
    gsize body_length = 0;
    const unsigned char *bytes = g_variant_get_fixed_array(body, &body_length, 1);
    if (g_strcmp0(kind, "sent") == 0) {
        view->callbacks.request_sent(view->callback_context, method, url, mime_type, bytes, body_length);
        g_variant_unref(body);
        return TRUE;
    }
    WKCapturedResponse response = {
        g_strcmp0(kind, "xhr") == 0 ? WK_CAPTURE_XHR : g_strcmp0(kind, "other") == 0 ? WK_CAPTURE_OTHER : WK_CAPTURE_FETCH,
        url, method, status, mime_type, main_frame, exact, size, bytes, body_length,
        *omitted ? omitted : NULL, read,
    };
    view->callbacks.response_captured(view->callback_context, &response);
    g_variant_unref(body);
    return TRUE;
}

void view_capture_watch(WKView *view) {
    g_signal_connect(view->web_view, "user-message-received", G_CALLBACK(on_user_message), view);
}

GVariant *wk_page_settings(bool capture, unsigned long long max_body, unsigned kinds, const char *work_key,
                           unsigned work_worlds) {
    return g_variant_new(WEBPARSE_PAGE_SETTINGS_FORMAT, (gboolean)capture, (guint64)max_body, (guint32)kinds,
                         work_key ? work_key : "", (guint32)work_worlds);
}

bool wk_view_set_page_settings(WKView *view, bool capture, unsigned long long max_body, unsigned kinds,
                               const char *work_key, unsigned work_worlds) {
    if (!view->context->has_extension)
        return !capture;
    /* A message to a view's page starts its web process if it has none yet. */
    view_process_may_start(view, true);
    webkit_web_view_send_message_to_page(
        view->web_view,
        webkit_user_message_new(WEBPARSE_PAGE_SETTINGS,
                                wk_page_settings(capture, max_body, kinds, work_key, work_worlds)),
        NULL, NULL, NULL);
    view_process_may_start(view, false);
    return true;
}
