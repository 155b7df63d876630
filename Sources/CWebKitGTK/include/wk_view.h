/* CWebKitGTK: Views: an offscreen WebKitWebView, its loads, its JavaScript calls and its snapshots. */
#ifndef WK_VIEW_H
#define WK_VIEW_H

#include <stdbool.h>
#include <stddef.h>
#include "wk_context.h"
#include "wk_error.h"
#include "wk_content_filter.h"

typedef struct WKView WKView;

typedef enum {
    WK_LOAD_STARTED,
    WK_LOAD_REDIRECTED,
    WK_LOAD_COMMITTED,
    WK_LOAD_FINISHED
} WKLoadEvent;

typedef enum {
    /* A load began; text is its request's Accept header ("" when it has none). */
    WK_RESOURCE_STARTED,
    /* The load of the view's main document began (a main frame's navigation); text as for WK_RESOURCE_STARTED. */
    WK_RESOURCE_DOCUMENT_STARTED,
    /* Its response arrived; text is the response's MIME type ("" when it has none). */
    WK_RESOURCE_RESPONDED,
    /* It finished or failed; text is its URI, after any redirect. */
    WK_RESOURCE_ENDED
} WKResourceEvent;

typedef enum {
    WK_PROCESS_CRASHED,
    WK_PROCESS_EXCEEDED_MEMORY_LIMIT,
    /* Another view in the same web process was destroyed with its process (see wk_view_destroy). */
    WK_PROCESS_ENDED_BY_ANOTHER_VIEW
} WKProcessTermination;

/* The kinds of request whose responses a view captures (wk_view_set_capture). */
typedef enum {
    WK_CAPTURE_FETCH = 1,
    WK_CAPTURE_XHR = 2,
    /* A websocket or an event stream, as it opens. */
    WK_CAPTURE_OTHER = 4,
    /* Not a response: the fields a form posts as it is submitted (request_sent). */
    WK_CAPTURE_FORMS = 8
} WKCaptureKind;

/* A response a page's script read, as webparse's web process extension captured it. The strings and the body
 * are valid during the callback only. */
typedef struct {
    /* WK_CAPTURE_FETCH, WK_CAPTURE_XHR or WK_CAPTURE_OTHER. */
    WKCaptureKind kind;
    const char *url;
    const char *method;
    int status;
    const char *mime_type;
    /* Whether the main frame's document made the request (false: an iframe's). */
    bool main_frame;
    /* Whether body holds the exact bytes the server sent (false: text the page decoded). */
    bool exact;
    /* The body's whole size in bytes, also when it was not sent. */
    unsigned long long size;
    const unsigned char *body;
    size_t body_length;
    /* Why the body was not sent: NULL when it was, else "over-limit", "opaque", "unreadable", "websocket" or
     * "event-stream". */
    const char *omitted;
    /* The read (see read_started) this response ends; 0 for a websocket or an event stream. */
    unsigned long long read;
} WKCapturedResponse;

/* A resource load of the view's documents as it ended, for a view that records them (wk_view_record_resources).
 * Strings, lists and the body are valid during the callback only. Times are microseconds since 1970. */
typedef struct {
    const char *url;
    const char *method;
    /* 0 when no response came. */
    int status;
    /* "" when there is none. */
    const char *mime_type;
    /* Whether it is the view's main document. */
    bool main_document;
    long long started;
    /* 0 when no response came. */
    long long responded;
    long long ended;
    /* NULL, or why the load failed. */
    const char *failure;
    /* NULL-terminated name, value, name, value… lists. */
    const char *const *request_headers;
    const char *const *response_headers;
    /* The body's length as WebKit counted it (-1 when unknown). */
    long long encoded_length;
    /* Whether the body was asked for (resource_wanted); body is NULL when WebKit had none. */
    bool body_wanted;
    const unsigned char *body;
    size_t body_length;
} WKResourceRecord;

/* What a view reports. All are called on the WebKit thread with the view's callback context. */
typedef struct {
    /* A load event. uri is the view's current URI. At WK_LOAD_COMMITTED, http_status is the main resource's
     * HTTP status (0 when there is none, as for file: URIs), retry_after its Retry-After header (NULL when
     * absent) and refresh its Refresh header (NULL when absent); for the other events they are 0, NULL and NULL. */
    void (*load_changed)(void *context, WKLoadEvent event, const char *uri, int http_status, const char *retry_after,
                         const char *refresh);
    /* The main load failed with error; WK_LOAD_FINISHED follows. */
    void (*load_failed)(void *context, const char *failing_uri, WKError error);
    /* The estimated load progress, from 0 to 1. */
    void (*progress_changed)(void *context, double progress);
    /* The view's web process ended without this view asking for it (wk_view_destroy). */
    void (*process_terminated)(void *context, WKProcessTermination reason);
    /* Asked before the main frame or a subframe navigates to uri (not for new windows); false refuses it. */
    bool (*allow_navigation)(void *context, const char *uri);
    /* Asked when the main document's response arrives, with its MIME type and whether WebKit can show it;
     * false refuses it, and the load fails. */
    bool (*allow_response)(void *context, const char *mime_type, bool displayable);
    /* The view's URI changed without a load: the page called history.pushState or changed location.hash. */
    void (*uri_changed)(void *context, const char *uri);
    /* The page posted message (as text: a string's contents, any other value as JSON) to
     * window.webkit.messageHandlers.webparse. The Promise postMessage returned resolves once this returns true,
     * and rejects when it returns false. */
    bool (*script_message)(void *context, const char *message);
    /* The page at opener_uri opened a new window for uri (window.open, a link with a target), by a user's action
     * (a click, a key) when user_gesture, else by its own script (at load, on a timer); true loads uri in the view
     * in its place (the view never opens a second window), false ignores it. */
    bool (*popup)(void *context, const char *uri, const char *opener_uri, bool user_gesture);
    /* Asked when the certificate of uri's server is not trusted; true trusts it for that host and loads uri
     * again, as wk_view_trust_certificate does (the first load then ends with WK_LOAD_FINISHED), false lets the
     * load fail with the TLS error. */
    bool (*allow_certificate)(void *context, const char *uri);
    /* A resource of the view's documents (the main document, a frame's, a script, an XHR or fetch, an image…)
     * started loading, got its response or ended; id tells the loads of the view apart. The loads of a document
     * that a new load replaces end when it starts; one still going when the view is destroyed reports no end. */
    void (*resource_changed)(void *context, unsigned long long id, WKResourceEvent event, const char *text);
    /* Asked when a recorded load got its response: true fetches its body for resource_recorded. */
    bool (*resource_wanted)(void *context, const char *uri, const char *mime_type, bool main_document);
    /* A load ended, while the view records them (wk_view_record_resources). */
    void (*resource_recorded)(void *context, const WKResourceRecord *record);
    /* A script of the page read a response, while capture is on (wk_view_set_capture). */
    void (*response_captured)(void *context, const WKCapturedResponse *response);
    /* A script of the page made a request whose response it may read (a fetch, an XHR sent) of url by method,
     * while capture is on: read (never 0) names it until response_captured or read_ended with the same number. */
    void (*read_started)(void *context, unsigned long long read, const char *method, const char *url);
    /* The read ended without a response to capture: the request failed, or its response is not the page's own. */
    void (*read_ended)(void *context, unsigned long long read);
    /* A script of the page sent body (body_length bytes, of content_type) with a request of url by method (a fetch,
     * an XHR), or a form posted its fields (WK_CAPTURE_FORMS), while capture is on. */
    void (*request_sent)(void *context, const char *method, const char *url, const char *content_type,
                         const unsigned char *body, size_t body_length);
    /* Called once, when the view is destroyed, to release the callback context. */
    void (*release)(void *context);
} WKViewCallbacks;

typedef struct {
    int width;
    int height;
    /* NULL keeps WebKit's default user agent. */
    const char *user_agent;
    /* false removes the page's own scripts; JavaScript called through the view still runs. */
    bool page_scripts;
    /* false turns audio and video elements off: they load and play nothing. */
    bool media;
    /* NULL blocks nothing. The view keeps its own reference. */
    WKContentFilter *content_filter;
    /* NULL, or JavaScript run in the main world of the top frame of every document the view loads, before the
     * document's own scripts; window.webkit.messageHandlers.webparse exists only when this is set. */
    const char *document_start_script;
    /* NULL, or JavaScript run at the start of every top-frame document the view loads, before the document's own
     * scripts, in the isolated script world named watch_world. */
    const char *watch_script;
    const char *watch_world;
    /* true lets pages use WebGL; a view without a related view then gets a web process whose EGL display comes
     * from Mesa. false: no WebGL, as in a browser without a GPU. */
    bool webgl;
} WKViewOptions;

/* Creates a view of options.width x options.height inside a one-pixel GtkOffscreenWindow, beside its pixel (GTK
 * never draws it) and shown at the first load, with hardware acceleration off, console output kept off stdout,
 * media that never plays by itself, no second window, no service workers and script dialogs answered at once. With a related view (or NULL), the new view shares its web process while
 * the two load the same site (WebKit starts another for a different site): a new tab, with its own history,
 * session storage and window name. With related_content too, it also shares the related view's settings and
 * user content (options then give only the size and whether scripts message back), so that it costs no more
 * than a new document: meant for the view that replaces the related one, as script messages go to the view
 * connected first. */
WKView *wk_view_new(WKContext *context, WKViewOptions options, WKView *related, bool related_content,
                    WKViewCallbacks callbacks, void *callback_context);

/* Shows the view's window, then loads uri; headers is NULL or a NULL-terminated list of name, value, name,
 * value… added to the main document's request. When a server asks for HTTP authentication during this load, user and password (if not
 * NULL) are given once; otherwise, or when they were refused, the load goes on without, to the server's
 * answer (a 401 page). */
void wk_view_load_uri(WKView *view, const char *uri, const char *const *headers, const char *user,
                      const char *password);

/* Shows the view's window, then shows html as the document at uri, without asking a server: the document has
 * uri's origin (its storage, its cookies' site). */
void wk_view_load_html(WKView *view, const char *html, const char *uri);

/* The script worlds whose main-frame window gets a page's pending-work function (wk_view_set_page_settings). */
typedef enum {
    WK_WORK_IN_MAIN_WORLD = 1,
    /* webparse's own isolated script world, "webparse". */
    WK_WORK_IN_OWN_WORLD = 2
} WKWorkWorld;

/* Says what the view's next documents capture, from the next load on: the responses of the kinds (a mask of
 * WKCaptureKind) that the page's scripts read, bodies of at most max_body bytes sent whole; or nothing; and the name
 * under which the main frame's window, in the worlds of work_worlds (a mask of WKWorkWorld), gets the function that
 * tells what is pending in the page's frames (work_key; NULL or "": none; see
 * WebParseProtocol's webparse_capture.h). False when capture is asked of a context without the extension
 * (wk_context_set_extensions_directory). */
bool wk_view_set_page_settings(WKView *view, bool capture, unsigned long long max_body, unsigned kinds,
                               const char *work_key, unsigned work_worlds);

/* Reports every resource load of the view's documents through resource_recorded as it ends, from the next
 * load on, or no longer. A body WebKit does not have yet when its load ends is asked for once more
 * empty_body_retry_ms later (0: it is reported without). */
void wk_view_record_resources(WKView *view, bool records, unsigned empty_body_retry_ms);

/* Trusts certificate (from wk_context_check_certificate) for uri's host in the view's context and loads uri again,
 * as a load whose allow_certificate said true does: with the headers of the view's last load when uri is its URI. */
void wk_view_trust_certificate(WKView *view, WKCertificate *certificate, const char *uri);

typedef enum {
    WK_JS_UNDEFINED,
    WK_JS_NULL,
    /* text is the string's contents. */
    WK_JS_STRING,
    /* text is the value as JSON. */
    WK_JS_JSON,
    /* The value has no JSON form; text is NULL. */
    WK_JS_UNSERIALIZABLE,
    /* The call failed; error says why and text is NULL. */
    WK_JS_ERROR
} WKJavaScriptResultKind;

/* Called exactly once per wk_view_call_async_function, on the WebKit thread. */
typedef void (*WKJavaScriptCallback)(void *context, WKJavaScriptResultKind kind, const char *text, WKError error);

/* Calls body as the body of an async function in the page's main world (world NULL), or in the isolated script
 * world of that name (the page's DOM, but none of its scripts' objects, which see none of its own), and awaits a
 * returned Promise. source_uri names the code in error messages. */
void wk_view_call_async_function(WKView *view, const char *body, const char *source_uri, const char *world,
                                 WKJavaScriptCallback callback, void *context);

/* Evaluates a constant in the page's main world, which no page script can hold up or change: callback is
 * called once (its error argument is NULL, or why WebKit gave no answer) when the web process's thread was
 * free to answer. */
void wk_view_ping(WKView *view, WKDoneCallback callback, void *context);

/* The main document's title (its <title>, or what its scripts set), owned by the view until its next change; NULL
 * when it has none. */
const char *wk_view_title(WKView *view);

/* Writes a PNG of what the view shows (its visible area, or with full_document the whole document) to
 * png_path, then calls callback once. */
void wk_view_snapshot(WKView *view, bool full_document, const char *png_path, WKDoneCallback callback,
                      void *context);

/* Disconnects the view's callbacks (releasing their context), stops its load and destroys it. Unless
 * keep_process (its web process serves a related view), its web process is ended too, even one stuck in
 * JavaScript. The widgets go on the next main-loop iteration, so this may be called from inside one of the
 * view's own callbacks. A pending wk_view_call_async_function still calls back, with an error. */
void wk_view_destroy(WKView *view, bool keep_process);

#endif
