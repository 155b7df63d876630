/* CWebKitGTK: The WebKit thread: GLib's default main context, owned by one thread, and work handed to it. */
#include "CWebKitGTK.h"

#include <gtk/gtk.h>

static GMainLoop *main_loop;

const char *wk_main_init(void) {
    if (!g_main_context_acquire(g_main_context_default()))
        return "another thread already owns the GLib main context";
    if (!gtk_init_check(NULL, NULL))
        return "GTK could not open the display";
    main_loop = g_main_loop_new(g_main_context_default(), FALSE);
    return NULL;
}

void wk_main_run(void) {
    g_main_loop_run(main_loop);
}

void wk_main_quit(void) {
    g_main_loop_quit(main_loop);
}

typedef struct {
    void (*function)(void *context);
    void *context;
} Invocation;

static gboolean run_invocation(gpointer data) {
    Invocation *invocation = data;
    invocation->function(invocation->context);
    return G_SOURCE_REMOVE;
}

void wk_main_invoke(void (*function)(void *context), void *context) {
    Invocation *invocation = g_new(Invocation, 1);
    invocation->function = function;
    invocation->context = context;
    g_idle_add_full(G_PRIORITY_DEFAULT, run_invocation, invocation, g_free);
}

bool wk_main_is_current_thread(void) {
    return g_main_context_is_owner(g_main_context_default());
}
