/* CWebKitGTK: input a user makes, sent to a view as the window system's events, so that the page gets trusted
 * events (event.isTrusted) through WebKit's own input handling. */
#ifndef WK_INPUT_H
#define WK_INPUT_H

#include <stdbool.h>
#include "wk_view.h"

/* Moves the pointer to (x, y), in CSS pixels from the view's top left corner, and clicks the primary button
 * there once. */
void wk_view_click(WKView *view, double x, double y);

/* Presses and releases the key named key_name: an XKB key name ("Return", "Tab", "Down", "a") or one
 * character. false when no key has that name. The key goes to the page's focused element. */
bool wk_view_press_key(WKView *view, const char *key_name);

#endif
