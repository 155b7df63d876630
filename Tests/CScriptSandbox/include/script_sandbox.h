/*
 * CScriptSandbox: a JavaScriptCore context without a page, for the tests of the page's JavaScript files. It holds
 * no DOM: a test defines what a file reads (document, timers) in JavaScript before it runs the file.
 */
#ifndef SCRIPT_SANDBOX_H
#define SCRIPT_SANDBOX_H

typedef struct ScriptSandbox ScriptSandbox;

/* A fresh context with a global object of its own. */
ScriptSandbox *script_sandbox_new(void);
void script_sandbox_free(ScriptSandbox *sandbox);

/* Evaluates `source` as a script named `name` and returns its value as JSON text, or "undefined" for a value JSON
 * cannot show; NULL when it throws, with the exception's message ("line N: message") in *error. Promise jobs the
 * script queued have run when it returns. Free both with script_sandbox_free_text. */
char *script_sandbox_evaluate(ScriptSandbox *sandbox, const char *source, const char *name, char **error);
void script_sandbox_free_text(char *text);

#endif
