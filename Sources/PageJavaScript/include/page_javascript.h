/*
 * PageJavaScript: the JavaScript webparse runs in pages, compiled in from the .js files beside this target's C file
 * (scripts/), one per concern. Each file is a function expression, which webparse calls with its settings as JSON;
 * the comment at the top of each file says what it takes and returns.
 */
#ifndef PAGE_JAVASCRIPT_H
#define PAGE_JAVASCRIPT_H

/* The files, in the order page_javascript.c embeds them. */
typedef enum {
    /* The page's quiet state: requests in flight, pending work, whether the document can change (page_quiet.js). */
    WP_SCRIPT_PAGE_QUIET = 0,
    /* A job's script evaluated in slices until its answer has settled (slice.js). */
    WP_SCRIPT_SLICE,
    /* A job's step, the next page's link, and whether a click landed (step.js). */
    WP_SCRIPT_STEP,
    /* A value awaited only if it is a promise or thenable of its own (resolved.js). */
    WP_SCRIPT_RESOLVED,
    /* An extraction's fields read from the document (extraction.js). */
    WP_SCRIPT_EXTRACTION,
    /* The channel of user scripts, emit and the console (bridge.js). */
    WP_SCRIPT_BRIDGE,
    /* The page's last uncaught error (error_watch.js). */
    WP_SCRIPT_ERROR_WATCH,
    /* The bot protection service whose page the document is (bot_protection.js). */
    WP_SCRIPT_BOT_PROTECTION,
    /* The context of a job's `when`, which is no page's: no clock, no huge value at once (condition_prelude.js). */
    WP_SCRIPT_CONDITION_PRELUDE,
    /* The window's localStorage stored or read, for a session's storage state (local_storage.js). */
    WP_SCRIPT_LOCAL_STORAGE
} WPPageScript;

/* The text of `script`'s file, a NUL-terminated string that lives as long as the program. */
const char *wp_page_script(WPPageScript script);

#endif
