/* CWebKitGTK: JavaScript and XPath syntax checks, without a page. */
#ifndef WK_SCRIPT_SYNTAX_H
#define WK_SCRIPT_SYNTAX_H

#include <stdbool.h>
#include <stddef.h>

/* Checks that source is a valid classic script, without running it. Returns true when it is; otherwise false
 * with *line (1-based, 0 when unknown) and *message (free it with wk_free) saying what is wrong. Safe from any
 * thread. */
bool wk_check_script_syntax(const char *source, unsigned *line, char **message);

/* Checks that expression is a valid XPath 1.0 expression (as document.evaluate takes), without evaluating it.
 * Returns true when it is; otherwise false with *message (free it with wk_free) saying what is wrong. */
bool wk_check_xpath_syntax(const char *expression, char **message);

#endif
