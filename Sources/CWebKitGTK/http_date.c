/* CWebKitGTK: HTTP dates, by libsoup's parser. */
#include "CWebKitGTK.h"

#include <libsoup/soup.h>

bool wk_parse_http_date(const char *text, int64_t *seconds) {
    GDateTime *date = soup_date_time_new_from_http_string(text);
    if (!date)
        return false;
    *seconds = g_date_time_to_unix(date);
    g_date_time_unref(date);
    return true;
}
