/*
 * PageJavaScript: the JavaScript webparse runs in pages, compiled in from the .js files beside this target's C file
 * (scripts/), one per concern. Each file is a function expression, which webparse calls with its settings as JSON;
 * the comment at the top of each file says what it takes and returns. Each function returns its file's text, a NUL-terminated string that lives as long as the program.
 */
#ifndef PAGE_JAVASCRIPT_H
#define PAGE_JAVASCRIPT_H

/* The page's quiet state: requests in flight, pending work, whether the document can change (page_quiet.js). */
const char *wp_js_page_quiet(void);
/* A job's script evaluated in slices until its answer has settled (slice.js). */
const char *wp_js_slice(void);
/* A job's step, the next page's link, and whether a click landed (step.js). */
const char *wp_js_step(void);
/* A value awaited only if it is a promise or thenable of its own (resolved.js). */
const char *wp_js_resolved(void);
/* An extraction's fields read from the document (extraction.js). */
const char *wp_js_extraction(void);
/* The channel of user scripts, emit and the console (bridge.js). */
const char *wp_js_bridge(void);
/* The page's last uncaught error (error_watch.js). */
const char *wp_js_error_watch(void);
/* The bot protection service whose page the document is (bot_protection.js). */
const char *wp_js_bot_protection(void);

#endif
