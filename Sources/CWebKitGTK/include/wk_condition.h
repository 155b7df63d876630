/* CWebKitGTK: conditions over JSON values, evaluated by JavaScriptCore without a page. */
#ifndef WK_CONDITION_H
#define WK_CONDITION_H

#include <stdbool.h>
#include <stddef.h>

/* A compiled condition and the JavaScriptCore context it runs in: no DOM, no network, no timers. */
typedef struct wk_condition wk_condition;

/* What a condition said of one value. */
typedef enum {
    WK_CONDITION_FALSE = 0,
    WK_CONDITION_TRUE = 1,
    /* It threw: *message says what. */
    WK_CONDITION_THREW = 2,
    /* It ran past its time or memory and was stopped: *message says which. */
    WK_CONDITION_STOPPED = 3
} wk_condition_verdict;

/* Compiles function_source, the source of a JavaScript function expression, into a context of its own whose clock is
 * removed by prelude (a script run first). Each test is stopped once it has run max_seconds, or once the process has
 * grown by max_bytes since the test began (both checked every check_every seconds while it runs). Returns NULL with
 * *message (free it with wk_free) when the source does not compile to a function. Use it from one thread at a time;
 * safe from any thread but the WebKit thread before WebKit has started. */
wk_condition *wk_condition_new(const char *function_source, const char *prelude, double max_seconds, size_t max_bytes,
                               double check_every, char **message);

/* Calls the condition's function with the value of json (JSON text) as its two arguments, and says whether what it
 * returned is truthy. For THREW and STOPPED, *message (free it with wk_free) says why; after STOPPED the condition
 * starts a fresh context for the next test, so that what the stopped test held is let go. */
wk_condition_verdict wk_condition_test(wk_condition *condition, const char *json, char **message);

/* Frees the condition and its context. */
void wk_condition_free(wk_condition *condition);

#endif
