/* CWebKitGTK: The web context: its website data, proxy, cookies and languages. */
#include "CWebKitGTK.h"

#include "objects.h"

WKContext *wk_context_new(const WKStorage *storage, unsigned memory_limit_mb, double poll_interval) {
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
    if (storage) {
        data = webkit_website_data_manager_new("base-data-directory", storage->data_directory,
                                               "base-cache-directory", storage->cache_directory, NULL);
        webkit_cookie_manager_set_persistent_storage(webkit_website_data_manager_get_cookie_manager(data),
                                                     storage->cookie_file, WEBKIT_COOKIE_PERSISTENT_STORAGE_SQLITE);
    } else {
        data = webkit_website_data_manager_new_ephemeral();
    }
    context->web_context = WEBKIT_WEB_CONTEXT(g_object_new(WEBKIT_TYPE_WEB_CONTEXT, "website-data-manager", data,
                                                           "memory-pressure-settings", memory, NULL));
    g_object_unref(data);
    if (memory)
        webkit_memory_pressure_settings_free(memory);
    webkit_web_context_set_cache_model(context->web_context, WEBKIT_CACHE_MODEL_DOCUMENT_BROWSER);
    context->trusted_certificates = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, (GDestroyNotify)g_ptr_array_unref);
    return context;
}

void wk_context_set_extensions_directory(WKContext *context, const char *directory, bool capture,
                                         unsigned long long max_body) {
    webkit_web_context_set_web_extensions_directory(context->web_context, directory);
    webkit_web_context_set_web_extensions_initialization_user_data(
        context->web_context,
        wk_page_settings(capture, max_body, WK_CAPTURE_FETCH | WK_CAPTURE_XHR | WK_CAPTURE_OTHER, NULL, 0));
    context->has_extension = true;
}

void wk_context_set_proxy(WKContext *context, const char *proxy_uri, const char *const *no_proxy) {
    WebKitWebsiteDataManager *data = webkit_web_context_get_website_data_manager(context->web_context);
    g_clear_object(&context->proxy_resolver);
    context->direct = !proxy_uri;
    if (!proxy_uri) {
        webkit_website_data_manager_set_network_proxy_settings(data, WEBKIT_NETWORK_PROXY_MODE_NO_PROXY, NULL);
        return;
    }
    /* The resolver WebKit makes of the same settings for its own connections. */
    context->proxy_resolver = g_simple_proxy_resolver_new(proxy_uri, (char **)no_proxy);
    WebKitNetworkProxySettings *settings = webkit_network_proxy_settings_new(proxy_uri, no_proxy);
    webkit_website_data_manager_set_network_proxy_settings(data, WEBKIT_NETWORK_PROXY_MODE_CUSTOM, settings);
    webkit_network_proxy_settings_free(settings);
}

static WebKitCookieManager *cookie_manager(WKContext *context) {
    return webkit_website_data_manager_get_cookie_manager(webkit_web_context_get_website_data_manager(context->web_context));
}

static void on_cookie_added(GObject *manager, GAsyncResult *result, gpointer data) {
    GError *error = NULL;
    webkit_cookie_manager_add_cookie_finish(WEBKIT_COOKIE_MANAGER(manager), result, &error);
    pending_done(data, error);
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
                                     pending_new((void (*)(void))callback, callback_context, NULL));
    soup_cookie_free(soup);
}

static void on_cookies(GObject *manager, GAsyncResult *result, gpointer data) {
    Pending *pending = data;
    WKCookiesCallback callback = (WKCookiesCallback)pending->callback;
    GError *error = NULL;
    GList *list = webkit_cookie_manager_get_all_cookies_finish(WEBKIT_COOKIE_MANAGER(manager), result, &error);
    if (error) {
        callback(pending->context, NULL, 0, error->message);
        g_error_free(error);
        pending_free(pending);
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
    callback(pending->context, cookies, count, NULL);
    g_free(cookies);
    g_list_free_full(list, (GDestroyNotify)soup_cookie_free);
    pending_free(pending);
}

void wk_context_get_cookies(WKContext *context, WKCookiesCallback callback, void *callback_context) {
    webkit_cookie_manager_get_all_cookies(cookie_manager(context), NULL, on_cookies,
                                          pending_new((void (*)(void))callback, callback_context, NULL));
}

static void on_cleared(GObject *manager, GAsyncResult *result, gpointer data) {
    GError *error = NULL;
    webkit_website_data_manager_clear_finish(WEBKIT_WEBSITE_DATA_MANAGER(manager), result, &error);
    pending_done(data, error);
}

void wk_context_clear_data(WKContext *context, bool only_cache, WKDoneCallback callback, void *callback_context) {
    WebKitWebsiteDataTypes types = only_cache ? WEBKIT_WEBSITE_DATA_MEMORY_CACHE | WEBKIT_WEBSITE_DATA_DISK_CACHE
                                              : WEBKIT_WEBSITE_DATA_ALL;
    webkit_website_data_manager_clear(webkit_web_context_get_website_data_manager(context->web_context), types, 0,
                                      NULL, on_cleared,
                                      pending_new((void (*)(void))callback, callback_context, NULL));
}

static void on_fetched(GObject *manager, GAsyncResult *result, gpointer data) {
    GError *error = NULL;
    GList *list = webkit_website_data_manager_fetch_finish(WEBKIT_WEBSITE_DATA_MANAGER(manager), result, &error);
    g_list_free_full(list, (GDestroyNotify)webkit_website_data_unref);
    pending_done(data, error);
}

void wk_context_sync_data(WKContext *context, WKDoneCallback callback, void *callback_context) {
    webkit_website_data_manager_fetch(webkit_web_context_get_website_data_manager(context->web_context),
                                      WEBKIT_WEBSITE_DATA_ALL, NULL, on_fetched,
                                      pending_new((void (*)(void))callback, callback_context, NULL));
}

void wk_context_free(WKContext *context) {
    g_object_unref(context->web_context);
    g_clear_object(&context->proxy_resolver);
    g_hash_table_unref(context->trusted_certificates);
    g_free(context);
}

void wk_context_set_preferred_languages(WKContext *context, const char *const *languages) {
    webkit_web_context_set_preferred_languages(context->web_context, languages);
}
