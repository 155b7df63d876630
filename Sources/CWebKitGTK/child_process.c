/* CWebKitGTK: Child processes the shim starts (Xvfb, Apprise): their own process group, no inherited
 * descriptors. */
#include "CWebKitGTK.h"

#include <glib.h>
#include <signal.h>
#include <sys/prctl.h>
#include <unistd.h>

/* Runs in the child before exec: undo what the spawning thread or process had set for itself (a worker
 * thread blocks signals; webparse ignores SIGINT and SIGTERM to handle them itself), and leave the parent's
 * process group. */
typedef struct {
    bool die_with_thread;
    pid_t parent;
} ChildSetup;

static void prepare_child(gpointer data) {
    const ChildSetup *setup = data;
    static const int signals[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE};
    for (size_t index = 0; index < G_N_ELEMENTS(signals); index++)
        signal(signals[index], SIG_DFL);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    setpgid(0, 0);
    if (setup->die_with_thread) {
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() != setup->parent) /* the parent died before the line above */
            _exit(1);
    }
}

int wk_spawn_process(const char *const *argv, const char *const *envp, int stdin_fd, int stdout_fd, int stderr_fd,
                     bool die_with_thread, char **error_message) {
    ChildSetup setup = {die_with_thread, getpid()};
    GSpawnFlags flags = G_SPAWN_DO_NOT_REAP_CHILD;
    if (stdin_fd < 0)
        flags |= G_SPAWN_STDIN_FROM_DEV_NULL;
    if (stdout_fd < 0)
        flags |= G_SPAWN_STDOUT_TO_DEV_NULL;
    if (stderr_fd < 0)
        flags |= G_SPAWN_STDERR_TO_DEV_NULL;
    GPid pid = 0;
    GError *error = NULL;
    if (!g_spawn_async_with_pipes_and_fds(NULL, argv, envp, flags, prepare_child, &setup, stdin_fd, stdout_fd,
                                          stderr_fd, NULL, NULL, 0, &pid, NULL, NULL, NULL, &error)) {
        *error_message = g_strdup(error->message);
        g_error_free(error);
        return -1;
    }
    return pid;
}
