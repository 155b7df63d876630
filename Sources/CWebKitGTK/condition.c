/* CWebKitGTK: conditions over JSON values, evaluated by JavaScriptCore without a page (see wk_condition.h). */
#include "CWebKitGTK.h"

#include <fcntl.h>
#include <JavaScriptCore/JavaScript.h>
#include <stdio.h>
#include <unistd.h>
#include <webkit2/webkit2.h>

/* Exported by libjavascriptcoregtk and declared in WebKit's JSContextRefPrivate.h, which is not installed: calls
 * callback once JavaScript of the group has run limit seconds; true stops it (the call throws), false lets it run on. */
typedef bool (*JSShouldTerminateCallback)(JSContextRef context, void *data);
JS_EXPORT void JSContextGroupSetExecutionTimeLimit(JSContextGroupRef group, double limit,
                                                   JSShouldTerminateCallback callback, void *data);

typedef enum { STOPPED_NOT, STOPPED_TIME, STOPPED_MEMORY } stop_reason;

struct wk_condition {
    char *function_source;
    char *prelude;
    double max_seconds;
    size_t max_bytes;
    /* How often a running test is looked at, in seconds. */
    double check_every;
    JSContextGroupRef group;
    JSGlobalContextRef context;
    JSObjectRef function;
    /* The running test: when it began, how large the process was then, and why it was stopped. */
    gint64 started;
    size_t baseline;
    stop_reason stopped;
};

/* The process's resident memory, in bytes; 0 when it cannot be read. */
static size_t resident_bytes(void) {
    int file = open("/proc/self/statm", O_RDONLY | O_CLOEXEC);
    if (file < 0)
        return 0;
    char text[128];
    ssize_t length = read(file, text, sizeof text - 1);
    close(file);
    unsigned long long size = 0, resident = 0;
    if (length <= 0)
        return 0;
    text[length] = '\0';
    if (sscanf(text, "%llu %llu", &size, &resident) != 2)
        return 0;
    return (size_t)resident * (size_t)sysconf(_SC_PAGESIZE);
}

static bool should_stop(JSContextRef context, void *data) {
    (void)context;
    wk_condition *condition = data;
    if ((double)(g_get_monotonic_time() - condition->started) / G_USEC_PER_SEC >= condition->max_seconds) {
        condition->stopped = STOPPED_TIME;
        return true;
    }
    size_t resident = resident_bytes();
    if (resident > condition->baseline && resident - condition->baseline > condition->max_bytes) {
        condition->stopped = STOPPED_MEMORY;
        return true;
    }
    /* The watchdog fires once per limit: it is set again to look again. */
    JSContextGroupSetExecutionTimeLimit(condition->group, condition->check_every, should_stop, condition);
    return false;
}

/* The text of a thrown value, such as "TypeError: undefined is not an object (evaluating 'item.price')". */
static char *thrown_text(JSContextRef context, JSValueRef thrown) {
    JSStringRef string = JSValueToStringCopy(context, thrown, NULL);
    if (!string)
        return g_strdup("an exception");
    size_t size = JSStringGetMaximumUTF8CStringSize(string);
    char *text = g_malloc(size);
    JSStringGetUTF8CString(string, text, size);
    JSStringRelease(string);
    return text;
}

static JSValueRef evaluate(JSContextRef context, const char *source, JSValueRef *thrown) {
    JSStringRef script = JSStringCreateWithUTF8CString(source);
    JSValueRef value = JSEvaluateScript(context, script, NULL, NULL, 1, thrown);
    JSStringRelease(script);
    return value;
}

static void release_context(wk_condition *condition) {
    if (!condition->context)
        return;
    JSValueUnprotect(condition->context, condition->function);
    JSGlobalContextRelease(condition->context);
    JSContextGroupRelease(condition->group);
    condition->context = NULL;
    condition->group = NULL;
    condition->function = NULL;
}

/* Makes the condition's context: the prelude run, the function compiled, the watchdog set. */
static bool make_context(wk_condition *condition, char **message) {
    condition->group = JSContextGroupCreate();
    condition->context = JSGlobalContextCreateInGroup(condition->group, NULL);
    JSValueRef thrown = NULL;
    evaluate(condition->context, condition->prelude, &thrown);
    JSValueRef function = thrown ? NULL : evaluate(condition->context, condition->function_source, &thrown);
    if (thrown || !function || !JSValueIsObject(condition->context, function) ||
        !JSObjectIsFunction(condition->context, (JSObjectRef)function)) {
        *message = thrown ? thrown_text(condition->context, thrown) : g_strdup("it is not a function");
        JSGlobalContextRelease(condition->context);
        JSContextGroupRelease(condition->group);
        condition->context = NULL;
        condition->group = NULL;
        return false;
    }
    condition->function = (JSObjectRef)function;
    JSValueProtect(condition->context, function);
    JSContextGroupSetExecutionTimeLimit(condition->group, condition->check_every, should_stop, condition);
    return true;
}

wk_condition *wk_condition_new(const char *function_source, const char *prelude, double max_seconds, size_t max_bytes,
                               double check_every, char **message) {
    *message = NULL;
    wk_condition *condition = g_new0(wk_condition, 1);
    condition->function_source = g_strdup(function_source);
    condition->prelude = g_strdup(prelude);
    condition->max_seconds = max_seconds;
    condition->max_bytes = max_bytes;
    condition->check_every = check_every;
    if (!make_context(condition, message)) {
        wk_condition_free(condition);
        return NULL;
    }
    return condition;
}

/* Whether value is a thenable: what an async function returns. */
static bool is_promise(JSContextRef context, JSValueRef value) {
    if (!JSValueIsObject(context, value))
        return false;
    JSStringRef name = JSStringCreateWithUTF8CString("then");
    JSValueRef then = JSObjectGetProperty(context, (JSObjectRef)value, name, NULL);
    JSStringRelease(name);
    return then && JSValueIsObject(context, then) && JSObjectIsFunction(context, (JSObjectRef)then);
}

wk_condition_verdict wk_condition_test(wk_condition *condition, const char *json, char **message) {
    *message = NULL;
    if (!condition->context && !make_context(condition, message))
        return WK_CONDITION_THREW;
    JSContextRef context = condition->context;
    JSStringRef text = JSStringCreateWithUTF8CString(json);
    JSValueRef value = JSValueMakeFromJSONString(context, text);
    JSStringRelease(text);
    if (!value) {
        *message = g_strdup("the value is not JSON");
        return WK_CONDITION_THREW;
    }
    condition->started = g_get_monotonic_time();
    condition->baseline = resident_bytes();
    condition->stopped = STOPPED_NOT;
    JSValueRef arguments[] = {value, value};
    JSValueRef thrown = NULL;
    JSValueRef result = JSObjectCallAsFunction(context, condition->function, NULL, 2, arguments, &thrown);
    if (condition->stopped != STOPPED_NOT) {
        *message = condition->stopped == STOPPED_TIME
                       ? g_strdup_printf("it ran longer than %g s and was stopped", condition->max_seconds)
                       : g_strdup_printf("it used more than %zu MiB and was stopped", condition->max_bytes >> 20);
        release_context(condition);
        return WK_CONDITION_STOPPED;
    }
    if (thrown || !result) {
        *message = thrown ? thrown_text(context, thrown) : g_strdup("it gave no value");
        return WK_CONDITION_THREW;
    }
    if (is_promise(context, result)) {
        *message = g_strdup("it returned a Promise: a condition is synchronous");
        return WK_CONDITION_THREW;
    }
    return JSValueToBoolean(context, result) ? WK_CONDITION_TRUE : WK_CONDITION_FALSE;
}

void wk_condition_free(wk_condition *condition) {
    if (!condition)
        return;
    release_context(condition);
    g_free(condition->function_source);
    g_free(condition->prelude);
    g_free(condition);
}
