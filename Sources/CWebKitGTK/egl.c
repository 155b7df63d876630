/* CWebKitGTK: which EGL driver a web process starts with (webparse's vendor with no device, or Mesa for pages
 * that use WebGL), through the variable the vendor reads (webparse_egl.h). */
#include "CWebKitGTK.h"
#include "objects.h"

#include "webparse_egl.h"

#include <stdlib.h>
#include <string.h>

/* The variable, in the environment itself (putenv): switched in place, so that it never reallocates the
 * environment under a thread that reads it. */
static char marker[] = WEBPARSE_EGL_VARIABLE "=" WEBPARSE_EGL_NONE;

void wk_egl_install_marker(void) {
    putenv(marker);
}

void egl_starting_process_for_webgl(bool webgl) {
    memcpy(marker + strlen(WEBPARSE_EGL_VARIABLE "="), webgl ? WEBPARSE_EGL_MESA : WEBPARSE_EGL_NONE, strlen(WEBPARSE_EGL_NONE));
}
