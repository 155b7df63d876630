/*
 * WebParseProtocol: what webparse's UI process (the shim, CWebKitGTK) and its web process extension
 * (CWebParseExtension) say to each other about capturing responses and the pages' pending work. The one place both
 * sides read.
 */
#ifndef WEBPARSE_CAPTURE_H
#define WEBPARSE_CAPTURE_H

/* The extension's file, as SwiftPM names the dynamic library product webparse-extension. */
#define WEBPARSE_EXTENSION_FILE "libwebparse-extension.so"

/* UI process to page, before each load: what to capture in the page's documents from then on, and where its
 * pending-work accessor goes. Parameters "(btusu)": capture or not, the largest body sent whole (bytes; a larger one
 * is sent as its size only), the kinds hooked (WEBPARSE_CAPTURE_*), the name of the accessor on the main frame's
 * window ("": none), and the worlds it goes in (WEBPARSE_WORK_IN_*). The accessor, called with a horizon in ms,
 * answers what is pending in every frame of the page: {busy, dueIn, never, frames} (see pending_hook.js). The
 * initialization data has the same format: the settings of a page until told. */
#define WEBPARSE_PAGE_SETTINGS "webparse-page"
#define WEBPARSE_PAGE_SETTINGS_FORMAT "(btusu)"

#define WEBPARSE_WORK_IN_MAIN_WORLD 1u
#define WEBPARSE_WORK_IN_OWN_WORLD 2u

/* webparse's own isolated script world, as both sides name it. */
#define WEBPARSE_OWN_WORLD "webparse"

#define WEBPARSE_CAPTURE_FETCH 1u
#define WEBPARSE_CAPTURE_XHR 2u
/* Websockets and event streams, recorded as they open, without a body. */
#define WEBPARSE_CAPTURE_OTHER 4u
/* The fields of forms that post, sent as they are submitted ("sent" below). */
#define WEBPARSE_CAPTURE_FORMS 8u

/* Page to UI process: one response. Parameters "(sssisbbtayst)": kind ("fetch", "xhr" or "other"), URL, method, HTTP
 * status, MIME type, whether the main frame made the request, whether the body is the exact bytes (false: text
 * the page decoded), the body's whole size in bytes, the body (empty when it was not sent), why it was not
 * sent ("" when it was), and the read it ends (0: none).
 * The same message with kind "begin" says a script started a read (a fetch, an XHR sent) of the URL by the
 * method, whose record or whose "end" (no record: the request failed, or its response is not the page's own)
 * follows; the other fields are empty. Kind "sent" says what a request sends: its URL, method, content type (in
 * the MIME type's place) and body (a fetch's or an XHR's body, or the fields of a form that posts); status, size
 * and read are 0. A body sent is passed on up to WEBPARSE_SENT_BODY_LIMIT bytes, whatever the capture's limit. */
#define WEBPARSE_SENT_BODY_LIMIT (10u << 20)
#define WEBPARSE_CAPTURE_RESPONSE "webparse-response"
#define WEBPARSE_CAPTURE_RESPONSE_FORMAT "(sssisbbtayst)"

/* The number of a read: the hooked document's number in its web process, and the read's in the document (the
 * first 24 bits; a document's reads past 16 million share numbers). Never 0. */
#define WEBPARSE_CAPTURE_READ(document, read) (((document) << 24) | ((read) & 0xFFFFFFu))

#endif
