/* What webparse's EGL vendor (egl_vendor.c) and the UI process (the shim's egl.c) agree on: the environment
 * variable that tells a web process, as it starts, which driver its EGL display comes from. */
#ifndef WEBPARSE_EGL_H
#define WEBPARSE_EGL_H

/* Set to WEBPARSE_EGL_MESA in the environment a web process starts with when its pages use WebGL; any other value
 * gives a display with no device. Both values are as long, so that the UI process switches it in place. */
#define WEBPARSE_EGL_VARIABLE "WEBPARSE_EGL"
#define WEBPARSE_EGL_NONE "none"
#define WEBPARSE_EGL_MESA "mesa"

/* The system's Mesa vendor, which a web process for WebGL hands over to. */
#define WEBPARSE_EGL_MESA_LIBRARY "libEGL_mesa.so.0"

#endif
