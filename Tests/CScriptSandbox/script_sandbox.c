/* CScriptSandbox: a JavaScriptCore context without a page (see script_sandbox.h). */
#include "script_sandbox.h"

#include <webkit2/webkit2.h>

struct ScriptSandbox {
    JSCContext *context;
};

ScriptSandbox *script_sandbox_new(void) {
    ScriptSandbox *sandbox = g_new0(ScriptSandbox, 1);
    sandbox->context = jsc_context_new();
    return sandbox;
}

void script_sandbox_free(ScriptSandbox *sandbox) {
    g_object_unref(sandbox->context);
    g_free(sandbox);
}

char *script_sandbox_evaluate(ScriptSandbox *sandbox, const char *source, const char *name, char **error) {
    *error = NULL;
    JSCValue *value = jsc_context_evaluate_with_source_uri(sandbox->context, source, -1, name, 1);
    JSCException *exception = jsc_context_get_exception(sandbox->context);
    if (exception) {
        *error = g_strdup_printf("line %u: %s", jsc_exception_get_line_number(exception),
                                 jsc_exception_get_message(exception));
        jsc_context_clear_exception(sandbox->context);
        g_object_unref(value);
        return NULL;
    }
    char *json = jsc_value_to_json(value, 0);
    jsc_context_clear_exception(sandbox->context);
    g_object_unref(value);
    return json ? json : g_strdup("undefined");
}

void script_sandbox_free_text(char *text) {
    g_free(text);
}
