/* CWebKitGTK: files loaded to disk through a web context's network process (its proxy and cookies). */
#ifndef WK_DOWNLOAD_H
#define WK_DOWNLOAD_H

#include <stdbool.h>

#include "wk_context.h"
#include "wk_error.h"

typedef struct WKDownload WKDownload;

/* Called once, on the WebKit thread, when a download has ended: the response's HTTP status (0 when none came) and
 * MIME type ("" when none came), whether it was stopped for passing max_bytes, and WebKit's error when it failed
 * otherwise (NULL when the file was written whole; valid during the call). The WKDownload is freed after the call. */
typedef void (*WKDownloadCallback)(void *context, unsigned status, const char *mime_type, bool too_large, const WKError *error);

/* Loads uri into the file at path (replacing it), stopping once more than max_bytes came. The returned download
 * may be cancelled with wk_download_cancel until its callback is called. */
WKDownload *wk_context_download(WKContext *context, const char *uri, const char *path, unsigned long long max_bytes,
                                WKDownloadCallback callback, void *callback_context);

/* Stops a download that has not ended: its callback comes with WebKit's error. */
void wk_download_cancel(WKDownload *download);

#endif
