/* CWebKitGTK: HTTP dates, by libsoup's parser. */
#ifndef WK_HTTP_DATE_H
#define WK_HTTP_DATE_H

#include <stdbool.h>
#include <stdint.h>

/* Reads text as an HTTP date in any of HTTP's three formats (IMF-fixdate, RFC 850, asctime). Returns true with
 * *seconds since 1970 set, or false when it is no such date. Safe from any thread. */
bool wk_parse_http_date(const char *text, int64_t *seconds);

#endif
