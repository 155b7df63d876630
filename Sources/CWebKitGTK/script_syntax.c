/* CWebKitGTK: JavaScript syntax checks in a context of their own. */
#include "CWebKitGTK.h"

#include <webkit2/webkit2.h>

bool wk_check_script_syntax(const char *source, unsigned *line, char **message) {
    JSCContext *context = jsc_context_new();
    JSCException *exception = NULL;
    JSCCheckSyntaxResult result = jsc_context_check_syntax(context, source, -1, JSC_CHECK_SYNTAX_MODE_SCRIPT, NULL, 1,
                                                           &exception);
    bool valid = result == JSC_CHECK_SYNTAX_RESULT_SUCCESS;
    if (!valid) {
        *line = exception ? jsc_exception_get_line_number(exception) : 0;
        *message = g_strdup(exception ? jsc_exception_get_message(exception) : "invalid JavaScript");
    }
    if (exception)
        g_object_unref(exception);
    g_object_unref(context);
    return valid;
}
