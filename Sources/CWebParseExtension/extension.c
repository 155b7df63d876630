/*
 * CWebParseExtension: webparse's web process extension, which WebKit loads into every web process of a context
 * whose extensions folder holds it. At each document's start, before any of its scripts:
 * - pending_hook.js keeps track of what can still change the document (timers, frames, messages, workers, sockets,
 *   requests, animations…) in every frame; the page's accessor (made for the page's main frame, under the name the
 *   UI process gave, in the world the job's script runs in) asks every frame of the page what is pending, so that
 *   an answer is final the moment nothing can change it (WEBPARSE_PAGE_SETTINGS says the name); the scripts a page
 *   requests without an element to follow (a dynamic `import()`, a module's imports) are kept from their request
 *   (`send-request`) until a frame has seen them loaded, the look-ahead at most;
 * - capture_hook.js, in pages that capture, wraps fetch and XMLHttpRequest in the page's world and hands each body to
 *   a native function that no page script can reach (it is never put on window), which sends it to the UI process
 *   (WEBPARSE_CAPTURE_RESPONSE), with the start and the end of every read. The initialization data says what pages
 *   capture, and the UI process says it again for each page before each load.
 */
#include <webkit2/webkit-web-extension.h>
#include <string.h>

#include "webparse_capture.h"
#include "webparse_extension.h"

#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wc23-extensions"
static const char hook_source[] = {
#embed "capture_hook.js"
    , 0
};
static const char pending_source[] = {
#embed "pending_hook.js"
    , 0
};
#pragma clang diagnostic pop

/* What a page captures, and the name and world of its pending-work accessor (none: ""), set by the UI process before
 * each load; kept on the WebKitWebPage. */
typedef struct {
    gboolean enabled;
    guint64 max_body;
    guint kinds;
    char *work_key;
    guint work_worlds;
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
static Settings default_settings = {.work_key = ""};

static void read_settings(GVariant *parameters, Settings *settings) {
    if (parameters && g_variant_is_of_type(parameters, G_VARIANT_TYPE(WEBPARSE_PAGE_SETTINGS_FORMAT)))
        g_variant_get(parameters, WEBPARSE_PAGE_SETTINGS_FORMAT, &settings->enabled, &settings->max_body,
                      &settings->kinds, &settings->work_key, &settings->work_worlds);
    if (!settings->work_key)
        settings->work_key = g_strdup("");
}

static void settings_free(Settings *settings) {
    g_free(settings->work_key);
    g_free(settings);
}

static const Settings *page_settings(WebKitWebPage *page) {
    Settings *settings = g_object_get_data(G_OBJECT(page), settings_key);
    return settings ? settings : &default_settings;
}

/* The extension, and webparse's own script world, the one the UI process names WEBPARSE_OWN_WORLD. */
static WebKitWebExtension *the_extension;
static WebKitScriptWorld *own_world;

/* The pending-work state function of each frame of a page, kept on its WebKitWebPage: the frame (not referenced; the
 * entry goes with it) and the function pending_hook.js returned in its current document. */
typedef struct {
    WebKitFrame *frame;
    JSCValue *state;
} FrameWork;

static const char *work_key = "webparse-work";

static void frame_work_free(FrameWork *work) {
    if (work->frame)
        g_object_remove_weak_pointer(G_OBJECT(work->frame), (gpointer *)&work->frame);
    g_clear_object(&work->state);
    g_free(work);
}

/* Keeps state as frame's pending-work function, in place of its previous document's. */
static void keep_frame_work(WebKitWebPage *page, WebKitFrame *frame, JSCValue *state) {
    GPtrArray *frames = g_object_get_data(G_OBJECT(page), work_key);
    if (!frames) {
        frames = g_ptr_array_new_with_free_func((GDestroyNotify)frame_work_free);
        g_object_set_data_full(G_OBJECT(page), work_key, frames, (GDestroyNotify)g_ptr_array_unref);
    }
    for (guint index = 0; index < frames->len;) {
        FrameWork *work = g_ptr_array_index(frames, index);
        if (!work->frame || work->frame == frame)
            g_ptr_array_remove_index_fast(frames, index);
        else
            index++;
    }
    FrameWork *work = g_new0(FrameWork, 1);
    work->frame = frame;
    work->state = g_object_ref(state);
    g_object_add_weak_pointer(G_OBJECT(frame), (gpointer *)&work->frame);
    g_ptr_array_add(frames, work);
}

/* A text property of a frame's state, or NULL. */
static char *text_property(JSCValue *object, const char *name) {
    JSCValue *value = jsc_value_object_get_property(object, name);
    char *text = jsc_value_is_string(value) ? jsc_value_to_string(value) : NULL;
    g_object_unref(value);
    return text;
}

/* A script the page requested: its URL, and when (g_get_monotonic_time). Kept on the WebKitWebPage, the most recent
 * `most_scripts`, until a frame's hook has seen it loaded or the look-ahead has gone by; a new document of the main
 * frame starts afresh. */
typedef struct {
    char *uri;
    gint64 requested;
} ScriptRequest;

static const char *scripts_key = "webparse-scripts";
static const guint most_scripts = 64;

static void script_request_free(ScriptRequest *script) {
    g_free(script->uri);
    g_free(script);
}

static GPtrArray *page_scripts(WebKitWebPage *page) {
    GPtrArray *scripts = g_object_get_data(G_OBJECT(page), scripts_key);
    if (!scripts) {
        scripts = g_ptr_array_new_with_free_func((GDestroyNotify)script_request_free);
        g_object_set_data_full(G_OBJECT(page), scripts_key, scripts, (GDestroyNotify)g_ptr_array_unref);
    }
    return scripts;
}

/* Keeps a script the page requests (not a redirect of one): WebKit tells the UI process of a request only a moment
 * later, and an import has no element whose load event says it has run. */
static gboolean on_send_request(WebKitWebPage *page, WebKitURIRequest *request, WebKitURIResponse *redirected,
                                gpointer data) {
    SoupMessageHeaders *headers = webkit_uri_request_get_http_headers(request);
    const char *destination = headers ? soup_message_headers_get_one(headers, "Sec-Fetch-Dest") : NULL;
    if (redirected || g_strcmp0(destination, "script") != 0)
        return FALSE;
    GPtrArray *scripts = page_scripts(page);
    if (scripts->len >= most_scripts)
        g_ptr_array_remove_index(scripts, 0);
    ScriptRequest *script = g_new0(ScriptRequest, 1);
    script->uri = g_strdup(webkit_uri_request_get_uri(request));
    script->requested = g_get_monotonic_time();
    g_ptr_array_add(scripts, script);
    return FALSE;
}

/* The scripts requested within horizon ms and not seen loaded yet, as the hooks' state functions take them: a line
 * "AGE URL" each, AGE in ms; older ones are forgotten (the UI process follows their requests by then). */
static char *scripts_in_flight(GPtrArray *scripts, double horizon) {
    GString *lines = g_string_new(NULL);
    gint64 now = g_get_monotonic_time();
    for (guint index = 0; scripts && index < scripts->len;) {
        ScriptRequest *script = g_ptr_array_index(scripts, index);
        double age = (double)(now - script->requested) / 1000;
        if (age > horizon) {
            g_ptr_array_remove_index(scripts, index);
            continue;
        }
        g_string_append_printf(lines, "%.0f %s\n", age, script->uri);
        index++;
    }
    return g_string_free(lines, FALSE);
}

/* Marks in `loaded` (one flag for each of the `asked` scripts) those a frame's state says it has seen loaded (its
 * `loaded`: their lines' numbers, from 0, comma separated). */
static void mark_loaded(JSCValue *state, gboolean *loaded, guint asked) {
    g_autofree char *numbers = text_property(state, "loaded");
    if (!numbers)
        return;
    char **parts = g_strsplit(numbers, ",", -1);
    for (char **part = parts; *part; part++) {
        guint64 number = g_ascii_strtoull(*part, NULL, 10);
        if (**part && number < asked)
            loaded[number] = TRUE;
    }
    g_strfreev(parts);
}

/* Forgets the scripts marked in `loaded`. */
static void forget_loaded(GPtrArray *scripts, const gboolean *loaded) {
    for (guint index = scripts->len; index > 0; index--)
        if (loaded[index - 1])
            g_ptr_array_remove_index(scripts, index - 1);
}

/* The accessor: work(horizon) asks every frame of the page what is pending within horizon ms (telling each the scripts
 * requested and not seen loaded yet) and answers, in the caller's world, {busy, dueIn, never, frames}: the first
 * frame's that has something, else a script being loaded; the latest dueIn. */
static JSCValue *on_work(GPtrArray *arguments, gpointer data) {
    guint64 page_id = GPOINTER_TO_SIZE(data);
    JSCContext *caller = jsc_context_get_current();
    double horizon = arguments->len > 0 && jsc_value_is_number(arguments->pdata[0]) ? jsc_value_to_double(arguments->pdata[0]) : 0;
    char *busy = NULL, *never = NULL;
    double due_in = 0;
    guint counted = 0;
    WebKitWebPage *page = webkit_web_extension_get_page(the_extension, page_id);
    GPtrArray *frames = page ? g_object_get_data(G_OBJECT(page), work_key) : NULL;
    GPtrArray *scripts = page ? g_object_get_data(G_OBJECT(page), scripts_key) : NULL;
    g_autofree char *requested = scripts_in_flight(scripts, horizon);
    guint asked = scripts ? scripts->len : 0;
    g_autofree gboolean *loaded = g_new0(gboolean, asked);
    for (guint index = 0; frames && index < frames->len; index++) {
        FrameWork *work = g_ptr_array_index(frames, index);
        if (!work->frame)
            continue;
        JSCValue *state = jsc_value_function_call(work->state, G_TYPE_DOUBLE, horizon, G_TYPE_STRING, requested, G_TYPE_NONE);
        JSCContext *context = jsc_value_get_context(work->state);
        if (jsc_context_get_exception(context)) {
            jsc_context_clear_exception(context);
            if (!never)
                never = g_strdup("a frame webparse could not read");
        } else if (jsc_value_is_object(state)) {
            counted++;
            char *frame_busy = text_property(state, "busy"), *frame_never = text_property(state, "never");
            JSCValue *frame_due = jsc_value_object_get_property(state, "dueIn");
            if (frame_busy && !busy)
                busy = g_strdup(frame_busy);
            if (frame_never && !never)
                never = g_strdup(frame_never);
            if (frame_busy && jsc_value_is_number(frame_due))
                due_in = MAX(due_in, jsc_value_to_double(frame_due));
            mark_loaded(state, loaded, asked);
            g_object_unref(frame_due);
            g_free(frame_busy);
            g_free(frame_never);
        }
        g_object_unref(state);
    }
    if (scripts)
        forget_loaded(scripts, loaded);
    if (!busy && scripts && scripts->len > 0)
        busy = g_strdup("a script being imported");
    JSCValue *answer = jsc_value_new_object(caller, NULL, NULL);
    JSCValue *busy_value = busy ? jsc_value_new_string(caller, busy) : jsc_value_new_null(caller);
    JSCValue *never_value = never ? jsc_value_new_string(caller, never) : jsc_value_new_null(caller);
    JSCValue *due_value = jsc_value_new_number(caller, due_in);
    JSCValue *frames_value = jsc_value_new_number(caller, counted);
    jsc_value_object_set_property(answer, "busy", busy_value);
    jsc_value_object_set_property(answer, "dueIn", due_value);
    jsc_value_object_set_property(answer, "never", never_value);
    jsc_value_object_set_property(answer, "frames", frames_value);
    g_object_unref(busy_value);
    g_object_unref(never_value);
    g_object_unref(due_value);
    g_object_unref(frames_value);
    g_free(busy);
    g_free(never);
    return answer;
}

/* Puts the page's accessor on the window of frame's world, if the page's settings name one for that world. */
static void define_work_accessor(WebKitWebPage *page, WebKitFrame *frame, WebKitScriptWorld *world) {
    const Settings *settings = page_settings(page);
    guint wanted = world == own_world ? WEBPARSE_WORK_IN_OWN_WORLD : WEBPARSE_WORK_IN_MAIN_WORLD;
    if (!webkit_frame_is_main_frame(frame) || !*settings->work_key || !(settings->work_worlds & wanted))
        return;
    JSCContext *context = webkit_frame_get_js_context_for_script_world(frame, world);
    JSCValue *accessor = jsc_value_new_function_variadic(context, NULL, G_CALLBACK(on_work),
                                                         GSIZE_TO_POINTER(webkit_web_page_get_id(page)), NULL,
                                                         JSC_TYPE_VALUE);
    JSCValue *global = jsc_context_get_global_object(context);
    jsc_value_object_define_property_data(global, settings->work_key, 0, accessor);
    jsc_context_clear_exception(context);
    g_object_unref(global);
    g_object_unref(accessor);
    g_object_unref(context);
}

static void on_own_world_cleared(WebKitScriptWorld *world, WebKitWebPage *page, WebKitFrame *frame, gpointer data) {
    define_work_accessor(page, frame, world);
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
    /* What a request sends is recorded within a limit of its own: it is the request's, not a response body. */
    guint64 limit = g_strcmp0(kind, "sent") == 0 ? WEBPARSE_SENT_BODY_LIMIT : sender->max_body;
    if (bytes && g_bytes_get_size(bytes) > limit) {
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

/* Runs the pending-work hook in the frame's document and keeps its state function. */
static void hook_pending_work(WebKitScriptWorld *world, WebKitWebPage *page, WebKitFrame *frame) {
    JSCContext *context = webkit_frame_get_js_context_for_script_world(frame, world);
    JSCValue *hook = jsc_context_evaluate_with_source_uri(context, pending_source, -1, "webparse-pending", 1);
    if (jsc_value_is_function(hook)) {
        JSCValue *state = jsc_value_function_call(hook, G_TYPE_NONE);
        if (jsc_value_is_function(state))
            keep_frame_work(page, frame, state);
        g_object_unref(state);
    }
    jsc_context_clear_exception(context);
    g_object_unref(hook);
    g_object_unref(context);
}

static void on_window_object_cleared(WebKitScriptWorld *world, WebKitWebPage *page, WebKitFrame *frame,
                                     gpointer data) {
    if (webkit_frame_is_main_frame(frame))
        g_ptr_array_set_size(page_scripts(page), 0);
    hook_pending_work(world, page, frame);
    define_work_accessor(page, frame, world);
    const Settings *settings = page_settings(page);
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
    if (g_strcmp0(webkit_user_message_get_name(message), WEBPARSE_PAGE_SETTINGS) != 0)
        return FALSE;
    Settings *settings = g_new0(Settings, 1);
    read_settings(webkit_user_message_get_parameters(message), settings);
    g_object_set_data_full(G_OBJECT(page), settings_key, settings, (GDestroyNotify)settings_free);
    return TRUE;
}

static void on_page_created(WebKitWebExtension *extension, WebKitWebPage *page, gpointer data) {
    g_signal_connect(page, "user-message-received", G_CALLBACK(on_message), NULL);
    g_signal_connect(page, "send-request", G_CALLBACK(on_send_request), NULL);
}

G_MODULE_EXPORT void webkit_web_extension_initialize_with_user_data(WebKitWebExtension *extension,
                                                                     const GVariant *user_data) {
    read_settings((GVariant *)user_data, &default_settings);
    g_signal_connect(extension, "page-created", G_CALLBACK(on_page_created), NULL);
    g_signal_connect(webkit_script_world_get_default(), "window-object-cleared",
                     G_CALLBACK(on_window_object_cleared), extension);
    the_extension = extension;
    own_world = webkit_script_world_new_with_name(WEBPARSE_OWN_WORLD);
    g_signal_connect(own_world, "window-object-cleared", G_CALLBACK(on_own_world_cleared), extension);
}
