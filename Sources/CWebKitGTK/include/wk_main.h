/* CWebKitGTK: The WebKit thread, the child processes the shim starts, and the memory it hands out. */
#ifndef WK_MAIN_H
#define WK_MAIN_H

#include <stdbool.h>
#include <stddef.h>

/* Makes the calling thread the owner of GLib's default main context and initialises GTK on it.
 * Returns NULL on success, or a static English message saying what failed. */
const char *wk_main_init(void);

/* Runs the default main loop on the calling thread until wk_main_quit is called. */
void wk_main_run(void);

/* Stops wk_main_run. Safe from any thread. */
void wk_main_quit(void);

/* Schedules function(context) on the WebKit thread's main loop; never runs it synchronously.
 * Safe from any thread. */
void wk_main_invoke(void (*function)(void *context), void *context);

/* True when the calling thread owns the default main context (is the WebKit thread). */
bool wk_main_is_current_thread(void);

/* Starts argv[0] (a path) with arguments argv (NULL-terminated) and environment envp (NULL-terminated; NULL:
 * this process's) in a process group of its own, with default signal handling, stdin, stdout and stderr on the
 * given descriptors (-1: /dev/null) and every other descriptor closed. With die_with_thread, the child is
 * killed when the calling thread ends. Returns the child's pid, which the caller must reap, or -1 with
 * *error_message set (free it with wk_free). */
int wk_spawn_process(const char *const *argv, const char *const *envp, int stdin_fd, int stdout_fd, int stderr_fd,
                     bool die_with_thread, char **error_message);

/* Puts the variable that tells a web process which EGL driver to start with (webparse's vendor with no device,
 * or Mesa) into the environment, saying "no device". Call once, before WebKit starts a web process. */
void wk_egl_install_marker(void);

/* Frees a string the shim handed out. */
void wk_free(void *pointer);

#endif
