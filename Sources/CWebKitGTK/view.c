/* CWebKitGTK: Views: an offscreen WebKitWebView, the signals it reports, its loads and its end. */
#include "CWebKitGTK.h"

#include "objects.h"

#include <string.h>

static void on_load_changed(WebKitWebView *web_view, WebKitLoadEvent event, gpointer data) {
    WKView *view = data;
    int http_status = 0;
    const char *retry_after = NULL;
    const char *refresh = NULL;
    if (event == WEBKIT_LOAD_COMMITTED) {
        WebKitWebResource *resource = webkit_web_view_get_main_resource(web_view);
        WebKitURIResponse *response = resource ? webkit_web_resource_get_response(resource) : NULL;
        if (response) {
            http_status = (int)webkit_uri_response_get_status_code(response);
            SoupMessageHeaders *headers = webkit_uri_response_get_http_headers(response);
            retry_after = headers ? soup_message_headers_get_one(headers, "Retry-After") : NULL;
            refresh = headers ? soup_message_headers_get_one(headers, "Refresh") : NULL;
        }
    }
    const char *uri = webkit_web_view_get_uri(web_view);
    view->callbacks.load_changed(view->callback_context, (WKLoadEvent)event, uri ? uri : "", http_status, retry_after,
                                refresh);
}

static gboolean on_load_failed(WebKitWebView *web_view, WebKitLoadEvent event, const char *failing_uri,
                               GError *error, gpointer data) {
    WKView *view = data;
    view->callbacks.load_failed(view->callback_context, failing_uri ? failing_uri : "", error_from(error));
    return TRUE; /* handled: WebKit must not load its own error page */
}

static void on_progress(GObject *object, GParamSpec *spec, gpointer data) {
    WKView *view = data;
    view->callbacks.progress_changed(view->callback_context,
                                     webkit_web_view_get_estimated_load_progress(WEBKIT_WEB_VIEW(object)));
}

static void on_process_terminated(WebKitWebView *web_view, WebKitWebProcessTerminationReason reason,
                                  gpointer data) {
    WKView *view = data;
    /* A view that ends its process is disconnected first (wk_view_destroy), so an end asked for through the API
     * was asked for by another view in the process. */
    WKProcessTermination termination = reason == WEBKIT_WEB_PROCESS_TERMINATED_BY_API        ? WK_PROCESS_ENDED_BY_ANOTHER_VIEW
                                       : reason == WEBKIT_WEB_PROCESS_EXCEEDED_MEMORY_LIMIT ? WK_PROCESS_EXCEEDED_MEMORY_LIMIT
                                                                                            : WK_PROCESS_CRASHED;
    view->callbacks.process_terminated(view->callback_context, termination);
}

static gboolean on_decide_policy(WebKitWebView *web_view, WebKitPolicyDecision *decision, WebKitPolicyDecisionType type,
                                 gpointer data) {
    WKView *view = data;
    gboolean allowed = TRUE;
    if (type == WEBKIT_POLICY_DECISION_TYPE_NAVIGATION_ACTION) {
        WebKitNavigationAction *action =
            webkit_navigation_policy_decision_get_navigation_action(WEBKIT_NAVIGATION_POLICY_DECISION(decision));
        const char *uri = webkit_uri_request_get_uri(webkit_navigation_action_get_request(action));
        allowed = view->callbacks.allow_navigation(view->callback_context, uri ? uri : "");
    } else if (type == WEBKIT_POLICY_DECISION_TYPE_RESPONSE) {
        WebKitResponsePolicyDecision *response_decision = WEBKIT_RESPONSE_POLICY_DECISION(decision);
        if (!webkit_response_policy_decision_is_main_frame_main_resource(response_decision))
            return FALSE;
        WebKitURIResponse *response = webkit_response_policy_decision_get_response(response_decision);
        const char *mime_type = webkit_uri_response_get_mime_type(response);
        allowed = view->callbacks.allow_response(view->callback_context, mime_type ? mime_type : "",
                                                 webkit_response_policy_decision_is_mime_type_supported(response_decision));
    } else {
        return FALSE;
    }
    if (allowed)
        webkit_policy_decision_use(decision);
    else
        webkit_policy_decision_ignore(decision);
    return TRUE;
}

static gboolean on_tls_errors(WebKitWebView *web_view, const char *failing_uri, GTlsCertificate *certificate,
                              GTlsCertificateFlags errors, gpointer data) {
    WKView *view = data;
    return view->callbacks.allow_certificate(view->callback_context, failing_uri)
           && trust_certificate(view, certificate, failing_uri);
}

static gboolean on_authenticate(WebKitWebView *web_view, WebKitAuthenticationRequest *request, gpointer data) {
    WKView *view = data;
    if (!view->user || webkit_authentication_request_is_retry(request)) {
        /* Go on without credentials: the server's 401 page loads, and says what happened. */
        webkit_authentication_request_authenticate(request, NULL);
        return TRUE;
    }
    WebKitCredential *credential = webkit_credential_new(view->user, view->password ? view->password : "",
                                                         WEBKIT_CREDENTIAL_PERSISTENCE_NONE);
    webkit_authentication_request_authenticate(request, credential);
    webkit_credential_free(credential);
    return TRUE;
}

static GtkWidget *on_create(WebKitWebView *web_view, WebKitNavigationAction *action, gpointer data) {
    WKView *view = data;
    WebKitURIRequest *request = webkit_navigation_action_get_request(action);
    const char *uri = webkit_uri_request_get_uri(request);
    const char *opener = webkit_web_view_get_uri(web_view);
    bool user_gesture = webkit_navigation_action_is_user_gesture(action);
    if (view->callbacks.popup(view->callback_context, uri ? uri : "", opener ? opener : "", user_gesture) && uri && *uri)
        webkit_web_view_load_request(web_view, request);
    return NULL; /* never a second window */
}

static void on_uri_changed(GObject *object, GParamSpec *spec, gpointer data) {
    WKView *view = data;
    const char *uri = webkit_web_view_get_uri(WEBKIT_WEB_VIEW(object));
    view->callbacks.uri_changed(view->callback_context, uri ? uri : "");
}

static gboolean on_script_message(WebKitUserContentManager *manager, JSCValue *value, WebKitScriptMessageReply *reply,
                                  gpointer data) {
    WKView *view = data;
    char *text = jsc_value_is_string(value) ? jsc_value_to_string(value) : jsc_value_to_json(value, 0);
    bool accepted = view->callbacks.script_message(view->callback_context, text ? text : "null");
    g_free(text);
    if (accepted) {
        JSCValue *received = jsc_value_new_boolean(jsc_value_get_context(value), TRUE);
        webkit_script_message_reply_return_value(reply, received);
        g_object_unref(received);
    } else {
        webkit_script_message_reply_return_error_message(reply, "webparse did not accept the message");
    }
    return TRUE;
}

static gboolean on_script_dialog(WebKitWebView *web_view, WebKitScriptDialog *dialog, gpointer data) {
    return TRUE; /* answered: alert returns, confirm is false, prompt is null */
}

static gboolean on_print(WebKitWebView *web_view, WebKitPrintOperation *operation, gpointer data) {
    return TRUE; /* handled: nothing is printed */
}

static gboolean on_permission_request(WebKitWebView *web_view, WebKitPermissionRequest *request,
                                      gpointer data) {
    webkit_permission_request_deny(request);
    return TRUE;
}

/* Turns off WebKit's runtime feature `identifier`, if this WebKit has it. */
static void turn_off_feature(WebKitSettings *settings, const char *identifier) {
    WebKitFeatureList *features = webkit_settings_get_all_features();
    for (gsize i = 0; i < webkit_feature_list_get_length(features); i++) {
        WebKitFeature *feature = webkit_feature_list_get(features, i);
        if (strcmp(webkit_feature_get_identifier(feature), identifier) == 0)
            webkit_settings_set_feature_enabled(settings, feature, FALSE);
    }
    webkit_feature_list_unref(features);
}

/* What a page reads of crossOriginIsolated with Cross-Origin-Opener-Policy turned off (WebKit then leaves the
 * global out): false, as on any page without COOP and COEP. */
static const char *const cross_origin_isolated_script =
    "if (!(\"crossOriginIsolated\" in globalThis)) Object.defineProperty(globalThis, \"crossOriginIsolated\", "
    "{ get: function crossOriginIsolated() { return false; }, enumerable: true, configurable: true });";

/* A view in context with its own settings and user content, made from options, in the web process of
 * process_of (or NULL); script messages go to view. */
static WebKitWebView *new_web_view(WKContext *context, WKViewOptions options, WKView *process_of, WKView *view) {
    WebKitSettings *settings = webkit_settings_new();
    webkit_settings_set_hardware_acceleration_policy(settings, WEBKIT_HARDWARE_ACCELERATION_POLICY_NEVER);
    webkit_settings_set_enable_write_console_messages_to_stdout(settings, FALSE);
    webkit_settings_set_media_playback_requires_user_gesture(settings, TRUE);
    /* Every window.open reaches on_create, which follows, ignores or refuses it, as the job says and as a popup
     * blocker would: WebKit's own would hide it. */
    webkit_settings_set_javascript_can_open_windows_automatically(settings, TRUE);
    webkit_settings_set_enable_javascript_markup(settings, options.page_scripts);
    webkit_settings_set_enable_media(settings, options.media);
    webkit_settings_set_enable_webgl(settings, options.webgl);
    /* A response's Cross-Origin-Opener-Policy makes WebKit move the page to a new browsing context group, in a
     * new web process, throwing away the warm process of the fresh tab (a job's page 3-4 times slower). The
     * group's purpose, cutting the page off from windows of other origins, is webparse's own rule anyway: a
     * view has no opener and never opens a second window (on_create). */
    turn_off_feature(settings, "CrossOriginOpenerPolicy");
    /* A service worker outlives the page that registered it: in the context every job shares, it would answer the
     * next job's requests from what an earlier job's page put there. Pages get no navigator.serviceWorker, as in a
     * browser without service workers, and load from the network. */
    turn_off_feature(settings, "ServiceWorkers");
    if (options.user_agent)
        webkit_settings_set_user_agent(settings, options.user_agent);
    WebKitUserContentManager *content = webkit_user_content_manager_new();
    WebKitUserScript *isolation = webkit_user_script_new(cross_origin_isolated_script, WEBKIT_USER_CONTENT_INJECT_ALL_FRAMES,
                                                         WEBKIT_USER_SCRIPT_INJECT_AT_DOCUMENT_START, NULL, NULL);
    webkit_user_content_manager_add_script(content, isolation);
    webkit_user_script_unref(isolation);
    if (options.watch_script) {
        WebKitUserScript *watch = webkit_user_script_new_for_world(
            options.watch_script, WEBKIT_USER_CONTENT_INJECT_TOP_FRAME, WEBKIT_USER_SCRIPT_INJECT_AT_DOCUMENT_START,
            options.watch_world, NULL, NULL);
        webkit_user_content_manager_add_script(content, watch);
        webkit_user_script_unref(watch);
    }
    if (options.content_filter)
        webkit_user_content_manager_add_filter(content, options.content_filter->filter);
    if (options.document_start_script) {
        WebKitUserScript *script = webkit_user_script_new(options.document_start_script, WEBKIT_USER_CONTENT_INJECT_TOP_FRAME,
                                                          WEBKIT_USER_SCRIPT_INJECT_AT_DOCUMENT_START, NULL, NULL);
        webkit_user_content_manager_add_script(content, script);
        webkit_user_script_unref(script);
        webkit_user_content_manager_register_script_message_handler_with_reply(content, "webparse", NULL);
        g_signal_connect(content, "script-message-with-reply-received::webparse", G_CALLBACK(on_script_message), view);
    }
    /* A related view brings its web context with it (WebKit refuses both). */
    WebKitWebView *web_view = WEBKIT_WEB_VIEW(
        process_of ? g_object_new(WEBKIT_TYPE_WEB_VIEW, "related-view", process_of->web_view, "settings", settings,
                                  "user-content-manager", content, NULL)
                   : g_object_new(WEBKIT_TYPE_WEB_VIEW, "web-context", context->web_context, "settings", settings,
                                  "user-content-manager", content, NULL));
    g_object_unref(settings);
    g_object_unref(content);
    return web_view;
}

WKView *wk_view_new(WKContext *context, WKViewOptions options, WKView *related, bool related_content,
                    WKViewCallbacks callbacks, void *callback_context) {
    WKView *view = g_new0(WKView, 1);
    view->context = context;
    view->callbacks = callbacks;
    view->callback_context = callback_context;

    if (related && related_content) {
        /* The same settings and user content as the related view: the web process has them already, so the
         * new page costs no more than a new document. */
        view->web_view = WEBKIT_WEB_VIEW(g_object_new(WEBKIT_TYPE_WEB_VIEW, "related-view", related->web_view,
                                                      "settings", webkit_web_view_get_settings(related->web_view),
                                                      "user-content-manager",
                                                      webkit_web_view_get_user_content_manager(related->web_view), NULL));
        if (options.document_start_script)
            g_signal_connect(webkit_web_view_get_user_content_manager(view->web_view),
                             "script-message-with-reply-received::webparse", G_CALLBACK(on_script_message), view);
    } else {
        view->web_view = new_web_view(context, options, related, view);
        view->starts_webgl_process = options.webgl && !related;
    }

    static const struct {
        const char *signal;
        GCallback handler;
    } handlers[] = {
        {"load-changed", G_CALLBACK(on_load_changed)},
        {"load-failed", G_CALLBACK(on_load_failed)},
        {"notify::estimated-load-progress", G_CALLBACK(on_progress)},
        {"web-process-terminated", G_CALLBACK(on_process_terminated)},
        {"decide-policy", G_CALLBACK(on_decide_policy)},
        {"load-failed-with-tls-errors", G_CALLBACK(on_tls_errors)},
        {"authenticate", G_CALLBACK(on_authenticate)},
        {"create", G_CALLBACK(on_create)},
        {"notify::uri", G_CALLBACK(on_uri_changed)},
        {"script-dialog", G_CALLBACK(on_script_dialog)},
        {"print", G_CALLBACK(on_print)},
        {"permission-request", G_CALLBACK(on_permission_request)},
    };
    for (size_t index = 0; index < G_N_ELEMENTS(handlers); index++)
        g_signal_connect(view->web_view, handlers[index].signal, handlers[index].handler, view);
    view_resources_watch(view);
    view_capture_watch(view);

    /* The view has the viewport's size, in a layout in a one-pixel window, beside that pixel, so GTK never draws
     * it; its window is shown at its first load. Nothing reads what GTK would draw (screenshots are drawn by the
     * web process), and drawing cost: GTK keeps an offscreen window's pixels in the X server (~4 MB a view at
     * 1280x800), WebKit keeps a copy of the page's picture for each view it has drawn (a fresh tab prepared ahead
     * too), and when GTK drew a view whose picture had not come yet, WebKit held webparse's WebKit thread, every
     * page's events, for up to 500 ms waiting for the web process to paint it (seen about once in thirty pages
     * when two pages share a process). Once shown, the view is mapped and visible: the page runs as shown. */
    view->window = gtk_offscreen_window_new();
    gtk_window_set_default_size(GTK_WINDOW(view->window), 1, 1);
    GtkWidget *layout = gtk_layout_new(NULL, NULL);
    gtk_widget_set_size_request(GTK_WIDGET(view->web_view), options.width, options.height);
    gtk_layout_put(GTK_LAYOUT(layout), GTK_WIDGET(view->web_view), 1, 1);
    gtk_container_add(GTK_CONTAINER(view->window), layout);
    gtk_widget_show_all(layout);
    return view;
}

void view_process_may_start(WKView *view, bool starting) {
    if (view->starts_webgl_process)
        egl_starting_process_for_webgl(starting);
}

/* Around a view's load: WebKit starts a view's web process inside its first load (or the first message sent to its
 * page), with the environment of that moment. */
static void begin_load(WKView *view) {
    view_process_may_start(view, true);
}

static void end_load(WKView *view) {
    view_process_may_start(view, false);
    view->starts_webgl_process = false;
}

void wk_view_load_uri(WKView *view, const char *uri, const char *const *headers, const char *user,
                      const char *password) {
    g_free(view->user);
    g_free(view->password);
    view->user = g_strdup(user);
    view->password = g_strdup(password);
    WebKitURIRequest *request = webkit_uri_request_new(uri);
    SoupMessageHeaders *request_headers = webkit_uri_request_get_http_headers(request);
    for (size_t index = 0; headers && headers[index] && headers[index + 1]; index += 2) {
        if (request_headers)
            soup_message_headers_replace(request_headers, headers[index], headers[index + 1]);
    }
    gtk_widget_show(view->window);
    begin_load(view);
    webkit_web_view_load_request(view->web_view, request);
    end_load(view);
    g_clear_object(&view->request);
    view->request = request;
}

void wk_view_load_html(WKView *view, const char *html, const char *uri) {
    gtk_widget_show(view->window);
    begin_load(view);
    webkit_web_view_load_html(view->web_view, html, uri);
    end_load(view);
}

static gboolean destroy_window(gpointer window) {
    gtk_widget_destroy(window);
    return G_SOURCE_REMOVE;
}

void wk_view_destroy(WKView *view, bool keep_process) {
    g_signal_handlers_disconnect_by_data(view->web_view, view);
    g_signal_handlers_disconnect_by_data(webkit_web_view_get_user_content_manager(view->web_view), view);
    view_resources_forget(view);
    view->callbacks.release(view->callback_context);
    webkit_web_view_stop_loading(view->web_view);
    if (!keep_process)
        webkit_web_view_terminate_web_process(view->web_view);
    /* At the priority of the loop's other work: an idle-priority source starves while pages keep the loop
     * busy, and every window not yet destroyed keeps its surface and is still painted. */
    gtk_widget_hide(view->window);
    g_idle_add_full(G_PRIORITY_DEFAULT, destroy_window, view->window, NULL);
    g_clear_object(&view->request);
    g_free(view->user);
    if (view->password)
        memset(view->password, 0, strlen(view->password));
    g_free(view->password);
    g_free(view);
}
