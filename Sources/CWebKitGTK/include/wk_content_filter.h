/* CWebKitGTK: Content filters: requests blocked before they reach the network. */
#ifndef WK_CONTENT_FILTER_H
#define WK_CONTENT_FILTER_H

#include <stdbool.h>
#include <stddef.h>

typedef struct WKContentFilter WKContentFilter;

/* Called once, on the WebKit thread, with the compiled filter (free it with wk_content_filter_free) or an
 * error message. */
typedef void (*WKContentFilterCallback)(void *context, WKContentFilter *filter, const char *error_message);

/* Compiles json_source, a content-blocker rule list in WebKit's format, into storage_directory under
 * identifier. */
void wk_content_filter_compile(const char *storage_directory, const char *identifier, const char *json_source,
                               WKContentFilterCallback callback, void *context);

void wk_content_filter_free(WKContentFilter *filter);

#endif
