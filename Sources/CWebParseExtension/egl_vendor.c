/*
 * CWebParseExtension: an EGL vendor for libglvnd with no device. WebKitGTK's web process needs an EGL display to
 * start, even when it draws without hardware acceleration, and Mesa's driver brings LLVM into every web process
 * (~50 MB PSS a process, measured). webparse names this library as the only EGL vendor
 * (__EGL_VENDOR_LIBRARY_FILENAMES): it gives a display for any platform, initialises it, and has no configs and
 * no contexts, so a page's WebGL finds no GPU, as in a browser without one. A web process started for pages
 * that use WebGL (WEBPARSE_EGL=mesa in its environment) hands itself over to Mesa's vendor instead.
 */
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <dlfcn.h>
#include <glvnd/libeglabi.h>
#include <stdlib.h>
#include <string.h>

#include "webparse_egl.h"
#include "webparse_extension.h"

/* The one display: any non-null address no other vendor gives. */
static char display_token;
#define DISPLAY ((EGLDisplay) & display_token)

static EGLDisplay get_platform_display(EGLenum platform, void *native_display, const EGLAttrib *attributes) {
    (void)platform;
    (void)native_display;
    (void)attributes;
    return DISPLAY;
}

static EGLBoolean supports_api(EGLenum api) {
    return api == EGL_OPENGL_ES_API || api == EGL_OPENGL_API;
}

/* The client extensions WebKit looks for before it asks for a surfaceless or GBM display. */
static const char client_extensions[] = "EGL_EXT_platform_base EGL_EXT_client_extensions EGL_MESA_platform_surfaceless "
                                        "EGL_KHR_platform_gbm EGL_MESA_platform_gbm EGL_KHR_platform_x11 EGL_EXT_platform_x11";

static const char *vendor_string(int name) {
    return name == __EGL_VENDOR_STRING_PLATFORM_EXTENSIONS ? client_extensions : NULL;
}

static EGLBoolean EGLAPIENTRY initialize(EGLDisplay display, EGLint *major, EGLint *minor) {
    (void)display;
    if (major)
        *major = 1;
    if (minor)
        *minor = 5;
    return EGL_TRUE;
}

static const char *EGLAPIENTRY query_string(EGLDisplay display, EGLint name) {
    switch (name) {
    case EGL_VENDOR:
        return "webparse (no device)";
    case EGL_VERSION:
        return "1.5";
    case EGL_CLIENT_APIS:
        return "OpenGL_ES";
    case EGL_EXTENSIONS:
        return display == EGL_NO_DISPLAY ? client_extensions : "EGL_KHR_surfaceless_context";
    default:
        return NULL;
    }
}

static EGLBoolean EGLAPIENTRY no_configs(EGLDisplay display, const EGLint *attributes, EGLConfig *configs, EGLint size,
                                         EGLint *count) {
    (void)display;
    (void)attributes;
    (void)configs;
    (void)size;
    if (count)
        *count = 0;
    return EGL_TRUE;
}

static EGLBoolean EGLAPIENTRY get_configs(EGLDisplay display, EGLConfig *configs, EGLint size, EGLint *count) {
    return no_configs(display, NULL, configs, size, count);
}

/* Only "nothing current" can be made current: there are no contexts. */
static EGLBoolean EGLAPIENTRY make_current(EGLDisplay display, EGLSurface draw, EGLSurface read, EGLContext context) {
    (void)display;
    (void)draw;
    (void)read;
    return context == EGL_NO_CONTEXT;
}

static EGLint EGLAPIENTRY get_error(void) {
    return EGL_SUCCESS;
}

static EGLBoolean EGLAPIENTRY succeed(void) {
    return EGL_TRUE;
}

static EGLBoolean EGLAPIENTRY fail(void) {
    return EGL_FALSE;
}

static void *EGLAPIENTRY nothing(void) {
    return NULL;
}

static const struct {
    const char *name;
    void *function;
} functions[] = {
    {"eglInitialize", initialize},
    {"eglQueryString", query_string},
    {"eglChooseConfig", no_configs},
    {"eglGetConfigs", get_configs},
    {"eglMakeCurrent", make_current},
    {"eglGetError", get_error},
    {"eglTerminate", succeed},
    {"eglBindAPI", succeed},
    {"eglReleaseThread", succeed},
    {"eglWaitClient", succeed},
    {"eglWaitGL", succeed},
    {"eglWaitNative", succeed},
    {"eglCreateContext", nothing},
    {"eglCreatePbufferSurface", nothing},
    {"eglCreatePixmapSurface", nothing},
    {"eglCreateWindowSurface", nothing},
    {"eglCreatePlatformWindowSurface", nothing},
    {"eglCreatePlatformPixmapSurface", nothing},
    {"eglCreatePbufferFromClientBuffer", nothing},
    {"eglCreateSync", nothing},
    {"eglCreateImage", nothing},
    {"eglCopyBuffers", fail},
    {"eglDestroyContext", fail},
    {"eglDestroySurface", fail},
    {"eglGetConfigAttrib", fail},
    {"eglQueryContext", fail},
    {"eglQuerySurface", fail},
    {"eglSwapBuffers", fail},
    {"eglBindTexImage", fail},
    {"eglReleaseTexImage", fail},
    {"eglSurfaceAttrib", fail},
    {"eglSwapInterval", fail},
    {"eglDestroySync", fail},
    {"eglClientWaitSync", fail},
    {"eglGetSyncAttrib", fail},
    {"eglDestroyImage", fail},
    {"eglWaitSync", fail},
};

static void *get_proc_address(const char *name) {
    for (size_t index = 0; index < sizeof functions / sizeof functions[0]; index++) {
        if (strcmp(functions[index].name, name) == 0)
            return functions[index].function;
    }
    return NULL;
}

static void *get_dispatch_address(const char *name) {
    (void)name;
    return NULL;
}

static void set_dispatch_index(const char *name, int index) {
    (void)name;
    (void)index;
}

/* libglvnd's entry point: Mesa's, for a web process started for WebGL (when Mesa is there), else this vendor. */
EGLBoolean __egl_Main(uint32_t version, const __EGLapiExports *exports, __EGLvendorInfo *vendor, __EGLapiImports *imports) {
    const char *driver = getenv(WEBPARSE_EGL_VARIABLE);
    if (driver && strcmp(driver, WEBPARSE_EGL_MESA) == 0) {
        void *mesa = dlopen(WEBPARSE_EGL_MESA_LIBRARY, RTLD_NOW | RTLD_LOCAL);
        __PFNEGLMAINPROC mesa_main = mesa ? (__PFNEGLMAINPROC)dlsym(mesa, __EGL_MAIN_PROTO_NAME) : NULL;
        if (mesa_main)
            return mesa_main(version, exports, vendor, imports);
    }
    if (EGL_VENDOR_ABI_GET_MAJOR_VERSION(version) != EGL_VENDOR_ABI_MAJOR_VERSION)
        return EGL_FALSE;
    imports->getPlatformDisplay = get_platform_display;
    imports->getSupportsAPI = supports_api;
    imports->getVendorString = vendor_string;
    imports->getProcAddress = get_proc_address;
    imports->getDispatchAddress = get_dispatch_address;
    imports->setDispatchIndex = set_dispatch_index;
    return EGL_TRUE;
}
