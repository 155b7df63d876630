/*
 * CWebParseExtension: webparse's web process extension, which WebKit loads into every web process of a context
 * whose extensions folder holds it. It captures the bodies of the responses a page's scripts read (fetch, XHR),
 * which WebKit's UI-process API does not give: the initialization data says what pages capture, and the UI
 * process says it again for each page before each load (WEBPARSE_CAPTURE_SETTINGS); at each document's start, before any of its scripts, the hook in
 * capture_hook.js wraps fetch and XMLHttpRequest in the page's world and hands each body to a native function
 * that no page script can reach (it is never put on window), which sends it to the UI process
 * (WEBPARSE_CAPTURE_RESPONSE), with the start and the end of every read.
 */
#include <webkit2/webkit-web-extension.h>
#include <string.h>

#include "webparse_capture.h"

#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wc23-extensions"
static const char hook_source[] = {
#embed "capture_hook.js"
    , 0
};
#pragma clang diagnostic pop

/* What a page captures, set by the UI process before each load; kept on the WebKitWebPage. */
typedef struct {
    gboolean enabled;
    guint64 max_body;
    guint kinds;
} Settings;

/* What the native send function knows: its page (by id: the page may go before the function), frame and
 * document (numbered in the process, so that the reads of its documents have numbers of their own). */
typedef struct {
    WebKitWebExtension *extension;
    guint64 page_id;
    gboolean main_frame;
    guint64 max_body;
    guint64 document;
} Sender;

/* The documents hooked in this web process so far. */
static guint64 documents_hooked;

static const char *settings_key = "webparse-capture";

/* What a page captures until the UI process says otherwise: the initialization data's settings. */
static Settings default_settings;

static void read_settings(GVariant *parameters, Settings *settings) {
    if (parameters && g_variant_is_of_type(parameters, G_VARIANT_TYPE(WEBPARSE_CAPTURE_SETTINGS_FORMAT)))
        g_variant_get(parameters, WEBPARSE_CAPTURE_SETTINGS_FORMAT, &settings->enabled, &settings->max_body,
                      &settings->kinds);
}

static char *string_argument(GPtrArray *arguments, guint index) {
    if (index >= arguments->len || !jsc_value_is_string(arguments->pdata[index]))
        return g_strdup("");
    return jsc_value_to_string(arguments->pdata[index]);
}

static double number_argument(GPtrArray *arguments, guint index) {
    if (index >= arguments->len || !jsc_value_is_number(arguments->pdata[index]))
        return 0;
    return jsc_value_to_double(arguments->pdata[index]);
}

/* send(kind, url, method, status, mimeType, exact, size, body, note, read), called by the hook only; kind "begin"
 * or "end" for a read's start and end. */
static void on_send(GPtrArray *arguments, gpointer data) {
    Sender *sender = data;
    WebKitWebPage *page = webkit_web_extension_get_page(sender->extension, sender->page_id);
    if (!page || arguments->len < 10)
        return;
    double number = number_argument(arguments, 9);
    guint64 read = number >= 1 ? WEBPARSE_CAPTURE_READ(sender->document, (guint64)number) : 0;
    char *kind = string_argument(arguments, 0), *url = string_argument(arguments, 1);
    char *method = string_argument(arguments, 2), *mime_type = string_argument(arguments, 4);
    char *note = string_argument(arguments, 8);
    double status = number_argument(arguments, 3), size = number_argument(arguments, 6);
    gboolean exact = jsc_value_to_boolean(arguments->pdata[5]);
    JSCValue *body = arguments->pdata[7];
    GBytes *bytes = NULL;
    if (jsc_value_is_string(body)) {
        char *text = jsc_value_to_string(body);
        size = strlen(text);
        bytes = g_bytes_new_take(text, strlen(text));
    } else if (jsc_value_is_array_buffer(body)) {
        gsize length = 0;
        gpointer contents = jsc_value_array_buffer_get_data(body, &length);
        size = length;
        bytes = g_bytes_new(contents, length);
    }
    if (bytes && g_bytes_get_size(bytes) > sender->max_body) {
        g_clear_pointer(&bytes, g_bytes_unref);
        g_free(note);
        note = g_strdup("over-limit");
    }
    if (!bytes)
        bytes = g_bytes_new(NULL, 0);
    GVariant *body_variant = g_variant_new_from_bytes(G_VARIANT_TYPE_BYTESTRING, bytes, TRUE);
    GVariantBuilder builder;
    g_variant_builder_init(&builder, G_VARIANT_TYPE(WEBPARSE_CAPTURE_RESPONSE_FORMAT));
    g_variant_builder_add(&builder, "s", kind);
    g_variant_builder_add(&builder, "s", url);
    g_variant_builder_add(&builder, "s", method);
    g_variant_builder_add(&builder, "i", (gint32)status);
    g_variant_builder_add(&builder, "s", mime_type);
    g_variant_builder_add(&builder, "b", sender->main_frame);
    g_variant_builder_add(&builder, "b", exact);
    g_variant_builder_add(&builder, "t", (guint64)size);
    g_variant_builder_add_value(&builder, body_variant);
    g_variant_builder_add(&builder, "s", note);
    g_variant_builder_add(&builder, "t", read);
    webkit_web_page_send_message_to_view(
        page, webkit_user_message_new(WEBPARSE_CAPTURE_RESPONSE, g_variant_builder_end(&builder)), NULL, NULL, NULL);
    g_bytes_unref(bytes);
    g_free(kind);
    g_free(url);
    g_free(method);
    g_free(mime_type);
    g_free(note);
}

static void on_window_object_cleared(WebKitScriptWorld *world, WebKitWebPage *page, WebKitFrame *frame,
                                     gpointer data) {
    Settings *settings = g_object_get_data(G_OBJECT(page), settings_key);
    if (!settings)
        settings = &default_settings;
    if (!settings->enabled)
        return;
    JSCContext *context = webkit_frame_get_js_context_for_script_world(frame, world);
    Sender *sender = g_new0(Sender, 1);
    *sender = (Sender){data, webkit_web_page_get_id(page), webkit_frame_is_main_frame(frame), settings->max_body,
                       ++documents_hooked};
    JSCValue *send = jsc_value_new_function_variadic(context, NULL, G_CALLBACK(on_send), sender, g_free, G_TYPE_NONE);
    JSCValue *hook = jsc_context_evaluate_with_source_uri(context, hook_source, -1, "webparse-capture", 1);
    if (jsc_value_is_function(hook)) {
        JSCValue *result = jsc_value_function_call(hook, JSC_TYPE_VALUE, send, G_TYPE_DOUBLE,
                                                   (double)settings->max_body, G_TYPE_UINT, settings->kinds,
                                                   G_TYPE_NONE);
        g_clear_object(&result);
    }
    jsc_context_clear_exception(context);
    g_object_unref(hook);
    g_object_unref(send);
    g_object_unref(context);
}

static gboolean on_message(WebKitWebPage *page, WebKitUserMessage *message, gpointer data) {
    if (g_strcmp0(webkit_user_message_get_name(message), WEBPARSE_CAPTURE_SETTINGS) != 0)
        return FALSE;
    Settings *settings = g_new0(Settings, 1);
    read_settings(webkit_user_message_get_parameters(message), settings);
    g_object_set_data_full(G_OBJECT(page), settings_key, settings, g_free);
    return TRUE;
}

static void on_page_created(WebKitWebExtension *extension, WebKitWebPage *page, gpointer data) {
    g_signal_connect(page, "user-message-received", G_CALLBACK(on_message), NULL);
}

G_MODULE_EXPORT void webkit_web_extension_initialize_with_user_data(WebKitWebExtension *extension,
                                                                     const GVariant *user_data) {
    read_settings((GVariant *)user_data, &default_settings);
    g_signal_connect(extension, "page-created", G_CALLBACK(on_page_created), NULL);
    g_signal_connect(webkit_script_world_get_default(), "window-object-cleared",
                     G_CALLBACK(on_window_object_cleared), extension);
}
