/* CWebKitGTK: JavaScript syntax checks in a context of their own, XPath syntax checks with libxml2. */
#include "CWebKitGTK.h"

#include <libxml/xpath.h>
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

/* Keeps libxml2's message of the last error instead of printing it. */
static void keep_error(void *data, const xmlError *error) {
    char **message = data;
    if (!*message && error && error->message)
        *message = g_strstrip(g_strdup(error->message));
}

bool wk_check_xpath_syntax(const char *expression, char **message) {
    *message = NULL;
    xmlSetStructuredErrorFunc(message, (xmlStructuredErrorFunc)keep_error);
    xmlXPathCompExprPtr compiled = xmlXPathCompile((const xmlChar *)expression);
    xmlSetStructuredErrorFunc(NULL, NULL);
    if (compiled) {
        xmlXPathFreeCompExpr(compiled);
        g_clear_pointer(message, g_free);
        return true;
    }
    if (!*message)
        *message = g_strdup("invalid XPath expression");
    return false;
}
