/* PageJavaScript: the .js files of scripts/, compiled in (#embed), each followed by a NUL. */
#include "page_javascript.h"

#include <string.h>

#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wc23-extensions"
/* The files, in WPPageScript's order. */
static const char scripts[] = {
#embed "scripts/page_quiet.js" suffix(, 0,)
#embed "scripts/slice.js" suffix(, 0,)
#embed "scripts/step.js" suffix(, 0,)
#embed "scripts/resolved.js" suffix(, 0,)
#embed "scripts/extraction.js" suffix(, 0,)
#embed "scripts/bridge.js" suffix(, 0,)
#embed "scripts/error_watch.js" suffix(, 0,)
#embed "scripts/bot_protection.js" suffix(, 0,)
#embed "scripts/condition_prelude.js" suffix(, 0,)
#embed "scripts/local_storage.js" suffix(, 0,)
};
#pragma clang diagnostic pop

const char *wp_page_script(WPPageScript script) {
    const char *text = scripts;
    for (unsigned index = 0; index < (unsigned)script; index++)
        text += strlen(text) + 1;
    return text;
}
