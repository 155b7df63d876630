/* PageJavaScript: the .js files of scripts/, compiled in (#embed), each returned as a NUL-terminated string. */
#include "page_javascript.h"

#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wc23-extensions"
const char *wp_js_page_quiet(void) {
    static const char text[] = {
#embed "scripts/page_quiet.js"
        , 0
    };
    return text;
}
const char *wp_js_slice(void) {
    static const char text[] = {
#embed "scripts/slice.js"
        , 0
    };
    return text;
}
const char *wp_js_step(void) {
    static const char text[] = {
#embed "scripts/step.js"
        , 0
    };
    return text;
}
const char *wp_js_resolved(void) {
    static const char text[] = {
#embed "scripts/resolved.js"
        , 0
    };
    return text;
}
const char *wp_js_extraction(void) {
    static const char text[] = {
#embed "scripts/extraction.js"
        , 0
    };
    return text;
}
const char *wp_js_bridge(void) {
    static const char text[] = {
#embed "scripts/bridge.js"
        , 0
    };
    return text;
}
const char *wp_js_error_watch(void) {
    static const char text[] = {
#embed "scripts/error_watch.js"
        , 0
    };
    return text;
}
const char *wp_js_bot_protection(void) {
    static const char text[] = {
#embed "scripts/bot_protection.js"
        , 0
    };
    return text;
}
#pragma clang diagnostic pop
