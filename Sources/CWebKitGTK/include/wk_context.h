/* CWebKitGTK: The web context: one network process, its cookies, cache and languages. */
#ifndef WK_CONTEXT_H
#define WK_CONTEXT_H

#include <stdbool.h>
#include <stddef.h>

typedef struct WKContext WKContext;

/* Where a persistent web context keeps its data: local storage and the rest in data_directory, the HTTP cache
 * in cache_directory, cookies in the SQLite file cookie_file. The caller names every path. */
typedef struct {
    const char *data_directory;
    const char *cache_directory;
    const char *cookie_file;
} WKStorage;

/* A web context. Its data (cookies, local storage, HTTP cache) lives where storage says, or in memory only when
 * storage is NULL. When memory_limit_mb is not 0, a web process that uses more than that many MiB is killed (its
 * view reports WK_PROCESS_EXCEEDED_MEMORY_LIMIT); WebKit checks every poll_interval seconds. */
WKContext *wk_context_new(const WKStorage *storage, unsigned memory_limit_mb, double poll_interval);

/* The file name of webparse's web process extension. */
const char *wk_extension_file_name(void);

/* Loads webparse's web process extension (the folder holds libwebparse-extension.so and no other library) into
 * the context's web processes, for wk_view_set_page_settings. With capture, every document captures every kind,
 * bodies of at most max_body bytes, until its view says otherwise: a page WebKit moves to a new web process (for a
 * navigation to another site) keeps capturing; without, none does until told. Must be called before the context's
 * first view. */
void wk_context_set_extensions_directory(WKContext *context, const char *directory, bool capture,
                                         unsigned long long max_body);

/* Sends every request through proxy_uri (http, https or socks), except to the hosts in no_proxy (a
 * NULL-terminated list, or NULL); a NULL proxy_uri means no proxy at all. */
void wk_context_set_proxy(WKContext *context, const char *proxy_uri, const char *const *no_proxy);

/* A cookie as plain data. expires is in seconds since 1970, or negative for a session cookie; a domain that
 * starts with a dot also covers its subdomains. */
typedef enum { WK_SAME_SITE_NONE, WK_SAME_SITE_LAX, WK_SAME_SITE_STRICT } WKSameSite;

typedef struct {
    const char *name;
    const char *value;
    const char *domain;
    const char *path;
    long long expires;
    bool secure;
    bool http_only;
    WKSameSite same_site;
} WKCookie;

/* Called once, on the WebKit thread, when an operation has ended; error_message is NULL on success. */
typedef void (*WKDoneCallback)(void *context, const char *error_message);

/* Called once with every cookie of the context (valid during the call only), or with an error. */
typedef void (*WKCookiesCallback)(void *context, const WKCookie *cookies, size_t count, const char *error_message);

void wk_context_add_cookie(WKContext *context, WKCookie cookie, WKDoneCallback callback, void *callback_context);

void wk_context_get_cookies(WKContext *context, WKCookiesCallback callback, void *callback_context);

/* Removes the context's cached responses, and unless only_cache its cookies and stored items too. */
void wk_context_clear_data(WKContext *context, bool only_cache, WKDoneCallback callback, void *callback_context);

/* Calls back once the network process has answered a listing of every kind of stored data: by then it has done
 * what it had queued on its stores, such as creating their folders. */
void wk_context_sync_data(WKContext *context, WKDoneCallback callback, void *callback_context);

/* A server's certificate. */
typedef struct WKCertificate WKCertificate;

/* Called once per wk_context_check_certificate, on the WebKit thread: untrusted is the certificate the server
 * presented when it is not trusted (valid during the call only), NULL when it is trusted (by the system, or for
 * its host by wk_view_trust_certificate or allow_certificate earlier) or the server was not reached within 10
 * seconds. */
typedef void (*WKCertificateCallback)(void *context, WKCertificate *untrusted);

/* Connects to the server of uri (https) as the context's requests do, through its proxy, and checks the
 * certificate it presents against the system's trusted authorities and uri's host, as WebKit does. */
void wk_context_check_certificate(WKContext *context, const char *uri, WKCertificateCallback callback,
                                  void *callback_context);

void wk_context_free(WKContext *context);

/* Sets the languages pages ask for (Accept-Language, navigator.language, the Intl locale), best first;
 * NULL restores the default. WebKit applies this to every context of the process and to pages created
 * after the call. */
void wk_context_set_preferred_languages(WKContext *context, const char *const *languages);

#endif
