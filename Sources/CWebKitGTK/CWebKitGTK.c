#include "CWebKitGTK.h"

#include <gtk/gtk.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>
#include <webkit2/webkit2.h>

/* ---- The WebKit thread ------------------------------------------------------------------------------ */

static GMainLoop *main_loop;

const char *wk_main_init(void) {
    if (!g_main_context_acquire(g_main_context_default()))
        return "another thread already owns the GLib main context";
    if (!gtk_init_check(NULL, NULL))
        return "GTK could not open the display";
    main_loop = g_main_loop_new(g_main_context_default(), FALSE);
    return NULL;
}

void wk_main_run(void) {
    g_main_loop_run(main_loop);
}

void wk_main_quit(void) {
    g_main_loop_quit(main_loop);
}

typedef struct {
    void (*function)(void *context);
    void *context;
} Invocation;

static gboolean run_invocation(gpointer data) {
    Invocation *invocation = data;
    invocation->function(invocation->context);
    return G_SOURCE_REMOVE;
}

void wk_main_invoke(void (*function)(void *context), void *context) {
    Invocation *invocation = g_new(Invocation, 1);
    invocation->function = function;
    invocation->context = context;
    g_idle_add_full(G_PRIORITY_DEFAULT, run_invocation, invocation, g_free);
}

bool wk_main_is_current_thread(void) {
    return g_main_context_is_owner(g_main_context_default());
}

/* ---- Child processes ------------------------------------------------------------------------------- */

/* Runs in the child before exec: undo what the spawning thread or process had set for itself (a worker
 * thread blocks signals; webparse ignores SIGINT and SIGTERM to handle them itself), and leave the parent's
 * process group. */
typedef struct {
    bool die_with_thread;
    pid_t parent;
} ChildSetup;

static void prepare_child(gpointer data) {
    const ChildSetup *setup = data;
    static const int signals[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE};
    for (size_t index = 0; index < G_N_ELEMENTS(signals); index++)
        signal(signals[index], SIG_DFL);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    setpgid(0, 0);
    if (setup->die_with_thread) {
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() != setup->parent) /* the parent died before the line above */
            _exit(1);
    }
}

int wk_spawn_process(const char *const *argv, int stdout_fd, int stderr_fd, bool die_with_thread,
                     char **error_message) {
    ChildSetup setup = {die_with_thread, getpid()};
    GSpawnFlags flags = G_SPAWN_DO_NOT_REAP_CHILD | G_SPAWN_STDIN_FROM_DEV_NULL;
    if (stdout_fd < 0)
        flags |= G_SPAWN_STDOUT_TO_DEV_NULL;
    if (stderr_fd < 0)
        flags |= G_SPAWN_STDERR_TO_DEV_NULL;
    GPid pid = 0;
    GError *error = NULL;
    if (!g_spawn_async_with_pipes_and_fds(NULL, argv, NULL, flags, prepare_child, &setup, -1, stdout_fd,
                                          stderr_fd, NULL, NULL, 0, &pid, NULL, NULL, NULL, &error)) {
        *error_message = g_strdup(error->message);
        g_error_free(error);
        return -1;
    }
    return pid;
}

void wk_free(void *pointer) {
    g_free(pointer);
}

/* ---- The web context -------------------------------------------------------------------------------- */

struct WKContext {
    WebKitWebContext *web_context;
};

WKContext *wk_context_new(const char *data_directory, unsigned memory_limit_mb, double poll_interval) {
    WKContext *context = g_new0(WKContext, 1);
    WebKitMemoryPressureSettings *memory = NULL;
    if (memory_limit_mb) {
        memory = webkit_memory_pressure_settings_new();
        webkit_memory_pressure_settings_set_memory_limit(memory, memory_limit_mb);
        webkit_memory_pressure_settings_set_poll_interval(memory, poll_interval);
        webkit_memory_pressure_settings_set_kill_threshold(memory, 1.0);
        /* The network process too: it buffers what pages have not read yet (an endless response). */
        webkit_website_data_manager_set_memory_pressure_settings(memory);
    }
    WebKitWebsiteDataManager *data;
    if (data_directory) {
        char *cache = g_build_filename(data_directory, "cache", NULL);
        data = webkit_website_data_manager_new("base-data-directory", data_directory, "base-cache-directory", cache, NULL);
        char *cookies = g_build_filename(data_directory, "cookies.sqlite", NULL);
        webkit_cookie_manager_set_persistent_storage(webkit_website_data_manager_get_cookie_manager(data), cookies,
                                                     WEBKIT_COOKIE_PERSISTENT_STORAGE_SQLITE);
        g_free(cookies);
        g_free(cache);
    } else {
        data = webkit_website_data_manager_new_ephemeral();
    }
    context->web_context = WEBKIT_WEB_CONTEXT(g_object_new(WEBKIT_TYPE_WEB_CONTEXT, "website-data-manager", data,
                                                           "memory-pressure-settings", memory, NULL));
    g_object_unref(data);
    if (memory)
        webkit_memory_pressure_settings_free(memory);
    webkit_web_context_set_cache_model(context->web_context, WEBKIT_CACHE_MODEL_DOCUMENT_BROWSER);
    return context;
}

void wk_context_set_proxy(WKContext *context, const char *proxy_uri, const char *const *no_proxy) {
    WebKitWebsiteDataManager *data = webkit_web_context_get_website_data_manager(context->web_context);
    if (!proxy_uri) {
        webkit_website_data_manager_set_network_proxy_settings(data, WEBKIT_NETWORK_PROXY_MODE_NO_PROXY, NULL);
        return;
    }
    WebKitNetworkProxySettings *settings = webkit_network_proxy_settings_new(proxy_uri, no_proxy);
    webkit_website_data_manager_set_network_proxy_settings(data, WEBKIT_NETWORK_PROXY_MODE_CUSTOM, settings);
    webkit_network_proxy_settings_free(settings);
}

static WebKitCookieManager *cookie_manager(WKContext *context) {
    return webkit_website_data_manager_get_cookie_manager(webkit_web_context_get_website_data_manager(context->web_context));
}

typedef struct {
    WKDoneCallback done;
    WKCookiesCallback cookies;
    void *context;
} Operation;

static Operation *operation_new(WKDoneCallback done, WKCookiesCallback cookies, void *context) {
    Operation *operation = g_new(Operation, 1);
    operation->done = done;
    operation->cookies = cookies;
    operation->context = context;
    return operation;
}

static void finish_operation(Operation *operation, GError *error) {
    operation->done(operation->context, error ? error->message : NULL);
    if (error)
        g_error_free(error);
    g_free(operation);
}

static void on_cookie_added(GObject *manager, GAsyncResult *result, gpointer data) {
    GError *error = NULL;
    webkit_cookie_manager_add_cookie_finish(WEBKIT_COOKIE_MANAGER(manager), result, &error);
    finish_operation(data, error);
}

void wk_context_add_cookie(WKContext *context, WKCookie cookie, WKDoneCallback callback, void *callback_context) {
    SoupCookie *soup = soup_cookie_new(cookie.name, cookie.value, cookie.domain, cookie.path ? cookie.path : "/", -1);
    if (cookie.expires >= 0) {
        GDateTime *expires = g_date_time_new_from_unix_utc(cookie.expires);
        soup_cookie_set_expires(soup, expires);
        g_date_time_unref(expires);
    }
    soup_cookie_set_secure(soup, cookie.secure);
    soup_cookie_set_http_only(soup, cookie.http_only);
    soup_cookie_set_same_site_policy(soup, cookie.same_site == WK_SAME_SITE_STRICT ? SOUP_SAME_SITE_POLICY_STRICT
                                           : cookie.same_site == WK_SAME_SITE_LAX ? SOUP_SAME_SITE_POLICY_LAX
                                                                                  : SOUP_SAME_SITE_POLICY_NONE);
    webkit_cookie_manager_add_cookie(cookie_manager(context), soup, NULL, on_cookie_added,
                                     operation_new(callback, NULL, callback_context));
    soup_cookie_free(soup);
}

static void on_cookies(GObject *manager, GAsyncResult *result, gpointer data) {
    Operation *operation = data;
    GError *error = NULL;
    GList *list = webkit_cookie_manager_get_all_cookies_finish(WEBKIT_COOKIE_MANAGER(manager), result, &error);
    if (error) {
        operation->cookies(operation->context, NULL, 0, error->message);
        g_error_free(error);
        g_free(operation);
        return;
    }
    guint count = g_list_length(list);
    WKCookie *cookies = g_new0(WKCookie, count ? count : 1);
    guint index = 0;
    for (GList *item = list; item; item = item->next, index++) {
        SoupCookie *soup = item->data;
        GDateTime *expires = soup_cookie_get_expires(soup);
        SoupSameSitePolicy same_site = soup_cookie_get_same_site_policy(soup);
        cookies[index] = (WKCookie){soup_cookie_get_name(soup), soup_cookie_get_value(soup),
                                    soup_cookie_get_domain(soup), soup_cookie_get_path(soup),
                                    expires ? g_date_time_to_unix(expires) : -1, soup_cookie_get_secure(soup),
                                    soup_cookie_get_http_only(soup),
                                    same_site == SOUP_SAME_SITE_POLICY_STRICT ? WK_SAME_SITE_STRICT
                                    : same_site == SOUP_SAME_SITE_POLICY_LAX ? WK_SAME_SITE_LAX : WK_SAME_SITE_NONE};
    }
    operation->cookies(operation->context, cookies, count, NULL);
    g_free(cookies);
    g_list_free_full(list, (GDestroyNotify)soup_cookie_free);
    g_free(operation);
}

void wk_context_get_cookies(WKContext *context, WKCookiesCallback callback, void *callback_context) {
    webkit_cookie_manager_get_all_cookies(cookie_manager(context), NULL, on_cookies,
                                          operation_new(NULL, callback, callback_context));
}

static void on_cleared(GObject *manager, GAsyncResult *result, gpointer data) {
    GError *error = NULL;
    webkit_website_data_manager_clear_finish(WEBKIT_WEBSITE_DATA_MANAGER(manager), result, &error);
    finish_operation(data, error);
}

void wk_context_clear_data(WKContext *context, bool only_cache, WKDoneCallback callback, void *callback_context) {
    WebKitWebsiteDataTypes types = only_cache ? WEBKIT_WEBSITE_DATA_MEMORY_CACHE | WEBKIT_WEBSITE_DATA_DISK_CACHE
                                              : WEBKIT_WEBSITE_DATA_ALL;
    webkit_website_data_manager_clear(webkit_web_context_get_website_data_manager(context->web_context), types, 0,
                                      NULL, on_cleared,
                                      operation_new(callback, NULL, callback_context));
}

void wk_context_free(WKContext *context) {
    g_object_unref(context->web_context);
    g_free(context);
}

void wk_context_set_preferred_languages(WKContext *context, const char *const *languages) {
    webkit_web_context_set_preferred_languages(context->web_context, languages);
}

/* ---- Content filters -------------------------------------------------------------------------------- */

struct WKContentFilter {
    WebKitUserContentFilter *filter;
};

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

/* ---- Views ------------------------------------------------------------------------------------------ */

struct WKView {
    GtkWidget *window;
    WebKitWebView *web_view;
    WKViewCallbacks callbacks;
    void *callback_context;
    /* The credentials for the current load, offered once. */
    char *user;
    char *password;
};

static void on_load_changed(WebKitWebView *web_view, WebKitLoadEvent event, gpointer data) {
    WKView *view = data;
    int http_status = 0;
    const char *retry_after = NULL;
    if (event == WEBKIT_LOAD_COMMITTED) {
        WebKitWebResource *resource = webkit_web_view_get_main_resource(web_view);
        WebKitURIResponse *response = resource ? webkit_web_resource_get_response(resource) : NULL;
        if (response) {
            http_status = (int)webkit_uri_response_get_status_code(response);
            SoupMessageHeaders *headers = webkit_uri_response_get_http_headers(response);
            retry_after = headers ? soup_message_headers_get_one(headers, "Retry-After") : NULL;
        }
    }
    const char *uri = webkit_web_view_get_uri(web_view);
    view->callbacks.load_changed(view->callback_context, (WKLoadEvent)event, uri ? uri : "", http_status, retry_after);
}

static gboolean on_load_failed(WebKitWebView *web_view, WebKitLoadEvent event, const char *failing_uri,
                               GError *error, gpointer data) {
    WKView *view = data;
    view->callbacks.load_failed(view->callback_context, failing_uri ? failing_uri : "",
                                g_quark_to_string(error->domain), error->code, error->message);
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
    if (reason == WEBKIT_WEB_PROCESS_TERMINATED_BY_API)
        return; /* asked for: not news */
    view->callbacks.process_terminated(view->callback_context, reason == WEBKIT_WEB_PROCESS_CRASHED
                                                                   ? WK_PROCESS_CRASHED
                                                                   : WK_PROCESS_EXCEEDED_MEMORY_LIMIT);
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
    if (!view->callbacks.allow_certificate(view->callback_context, failing_uri))
        return FALSE;
    GUri *uri = g_uri_parse(failing_uri, G_URI_FLAGS_NONE, NULL);
    if (!uri)
        return FALSE;
    webkit_web_context_allow_tls_certificate_for_host(webkit_web_view_get_context(web_view), certificate,
                                                      g_uri_get_host(uri));
    g_uri_unref(uri);
    webkit_web_view_load_uri(web_view, failing_uri);
    return TRUE;
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
    if (view->callbacks.popup(view->callback_context, uri ? uri : "", opener ? opener : "") && uri && *uri)
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

/* A view in context with its own settings and user content, made from options; script messages go to view. */
static WebKitWebView *new_web_view(WKContext *context, WKViewOptions options, WKView *view) {
    WebKitSettings *settings = webkit_settings_new();
    webkit_settings_set_hardware_acceleration_policy(settings, WEBKIT_HARDWARE_ACCELERATION_POLICY_NEVER);
    webkit_settings_set_enable_write_console_messages_to_stdout(settings, FALSE);
    webkit_settings_set_media_playback_requires_user_gesture(settings, TRUE);
    /* Every window.open reaches on_create, which follows or ignores it: a popup blocker would hide it. */
    webkit_settings_set_javascript_can_open_windows_automatically(settings, TRUE);
    webkit_settings_set_enable_javascript_markup(settings, options.page_scripts);
    webkit_settings_set_enable_media(settings, options.media);
    if (options.user_agent)
        webkit_settings_set_user_agent(settings, options.user_agent);
    WebKitUserContentManager *content = webkit_user_content_manager_new();
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
    WebKitWebView *web_view = WEBKIT_WEB_VIEW(g_object_new(WEBKIT_TYPE_WEB_VIEW, "web-context", context->web_context,
                                                           "settings", settings, "user-content-manager", content, NULL));
    g_object_unref(settings);
    g_object_unref(content);
    return web_view;
}

WKView *wk_view_new(WKContext *context, WKViewOptions options, WKView *related, WKViewCallbacks callbacks,
                    void *callback_context) {
    WKView *view = g_new0(WKView, 1);
    view->callbacks = callbacks;
    view->callback_context = callback_context;

    if (related) {
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
        view->web_view = new_web_view(context, options, view);
    }

    g_signal_connect(view->web_view, "load-changed", G_CALLBACK(on_load_changed), view);
    g_signal_connect(view->web_view, "load-failed", G_CALLBACK(on_load_failed), view);
    g_signal_connect(view->web_view, "notify::estimated-load-progress", G_CALLBACK(on_progress), view);
    g_signal_connect(view->web_view, "web-process-terminated", G_CALLBACK(on_process_terminated), view);
    g_signal_connect(view->web_view, "decide-policy", G_CALLBACK(on_decide_policy), view);
    g_signal_connect(view->web_view, "load-failed-with-tls-errors", G_CALLBACK(on_tls_errors), view);
    g_signal_connect(view->web_view, "authenticate", G_CALLBACK(on_authenticate), view);
    g_signal_connect(view->web_view, "create", G_CALLBACK(on_create), view);
    g_signal_connect(view->web_view, "notify::uri", G_CALLBACK(on_uri_changed), view);
    g_signal_connect(view->web_view, "script-dialog", G_CALLBACK(on_script_dialog), view);
    g_signal_connect(view->web_view, "print", G_CALLBACK(on_print), view);
    g_signal_connect(view->web_view, "permission-request", G_CALLBACK(on_permission_request), view);

    view->window = gtk_offscreen_window_new();
    gtk_window_set_default_size(GTK_WINDOW(view->window), options.width, options.height);
    gtk_container_add(GTK_CONTAINER(view->window), GTK_WIDGET(view->web_view));
    gtk_widget_show_all(view->window);
    return view;
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
    webkit_web_view_load_request(view->web_view, request);
    g_object_unref(request);
}

typedef struct {
    char *png_path;
    WKDoneCallback callback;
    void *context;
} Snapshot;

static void on_snapshot(GObject *object, GAsyncResult *result, gpointer data) {
    Snapshot *snapshot = data;
    GError *error = NULL;
    cairo_surface_t *surface = webkit_web_view_get_snapshot_finish(WEBKIT_WEB_VIEW(object), result, &error);
    if (!surface) {
        snapshot->callback(snapshot->context, error->message);
        g_error_free(error);
    } else {
        cairo_status_t status = cairo_surface_write_to_png(surface, snapshot->png_path);
        snapshot->callback(snapshot->context, status == CAIRO_STATUS_SUCCESS ? NULL : cairo_status_to_string(status));
        cairo_surface_destroy(surface);
    }
    g_free(snapshot->png_path);
    g_free(snapshot);
}

void wk_view_snapshot(WKView *view, bool full_document, const char *png_path, WKDoneCallback callback,
                      void *context) {
    Snapshot *snapshot = g_new(Snapshot, 1);
    snapshot->png_path = g_strdup(png_path);
    snapshot->callback = callback;
    snapshot->context = context;
    webkit_web_view_get_snapshot(view->web_view, full_document ? WEBKIT_SNAPSHOT_REGION_FULL_DOCUMENT : WEBKIT_SNAPSHOT_REGION_VISIBLE,
                                 WEBKIT_SNAPSHOT_OPTIONS_NONE, NULL, on_snapshot, snapshot);
}

typedef struct {
    WKJavaScriptCallback callback;
    void *context;
} JavaScriptCall;

static void on_javascript_finished(GObject *object, GAsyncResult *result, gpointer data) {
    JavaScriptCall *call = data;
    GError *error = NULL;
    JSCValue *value = webkit_web_view_call_async_javascript_function_finish(WEBKIT_WEB_VIEW(object), result,
                                                                           &error);
    if (!value) {
        call->callback(call->context, WK_JS_ERROR, NULL, g_quark_to_string(error->domain), error->code,
                       error->message);
        g_error_free(error);
    } else if (jsc_value_is_undefined(value)) {
        call->callback(call->context, WK_JS_UNDEFINED, NULL, NULL, 0, NULL);
    } else if (jsc_value_is_null(value)) {
        call->callback(call->context, WK_JS_NULL, NULL, NULL, 0, NULL);
    } else if (jsc_value_is_string(value)) {
        char *text = jsc_value_to_string(value);
        call->callback(call->context, WK_JS_STRING, text, NULL, 0, NULL);
        g_free(text);
    } else {
        char *text = jsc_value_to_json(value, 0);
        call->callback(call->context, text ? WK_JS_JSON : WK_JS_UNSERIALIZABLE, text, NULL, 0, NULL);
        g_free(text);
    }
    if (value)
        g_object_unref(value);
    g_free(call);
}

void wk_view_call_async_function(WKView *view, const char *body, const char *source_uri,
                                 WKJavaScriptCallback callback, void *context) {
    JavaScriptCall *call = g_new(JavaScriptCall, 1);
    call->callback = callback;
    call->context = context;
    webkit_web_view_call_async_javascript_function(view->web_view, body, -1, NULL, NULL, source_uri, NULL,
                                                   on_javascript_finished, call);
}

static gboolean destroy_window(gpointer window) {
    gtk_widget_destroy(window);
    return G_SOURCE_REMOVE;
}

void wk_view_destroy(WKView *view, bool keep_process) {
    g_signal_handlers_disconnect_by_data(view->web_view, view);
    g_signal_handlers_disconnect_by_data(webkit_web_view_get_user_content_manager(view->web_view), view);
    view->callbacks.release(view->callback_context);
    webkit_web_view_stop_loading(view->web_view);
    if (!keep_process)
        webkit_web_view_terminate_web_process(view->web_view);
    /* At the priority of the loop's other work: an idle-priority source starves while pages keep the loop
     * busy, and every window not yet destroyed keeps its surface and is still painted. */
    gtk_widget_hide(view->window);
    g_idle_add_full(G_PRIORITY_DEFAULT, destroy_window, view->window, NULL);
    g_free(view->user);
    if (view->password)
        memset(view->password, 0, strlen(view->password));
    g_free(view->password);
    g_free(view);
}

/* ---- JavaScript syntax ------------------------------------------------------------------------------ */

bool wk_check_script_syntax(const char *source, unsigned *line, char **message) {
    JSCContext *context = jsc_context_new();
    JSCException *exception = NULL;
    JSCCheckSyntaxResult result = jsc_context_check_syntax(context, source, -1, JSC_CHECK_SYNTAX_MODE_SCRIPT, NULL, 1,
                                                           &exception);
    bool valid = result == JSC_CHECK_SYNTAX_RESULT_SUCCESS;
    if (!valid) {
        *line = exception ? jsc_exception_get_line_number(exception) : 0;
        *message = g_strdup(exception ? jsc_exception_get_message(exception) : "invalid JavaScript");
    }
    if (exception)
        g_object_unref(exception);
    g_object_unref(context);
    return valid;
}
