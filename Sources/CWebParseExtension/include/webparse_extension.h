/*
 * CWebParseExtension: the entry points of libwebparse-extension.so, which WebKit's web processes and libglvnd find
 * by name. Nothing else of the library is public; what it says to the UI process is in WebParseProtocol.
 */
#ifndef WEBPARSE_EXTENSION_H
#define WEBPARSE_EXTENSION_H

#include <EGL/egl.h>
#include <glvnd/libeglabi.h>
#include <webkit2/webkit-web-extension.h>

/* Called by WebKit in each web process it starts, with the settings of its pages until told (a GVariant of
 * WEBPARSE_PAGE_SETTINGS_FORMAT): hooks every frame's documents and answers the UI process's messages. */
G_MODULE_EXPORT void webkit_web_extension_initialize_with_user_data(WebKitWebExtension *extension,
                                                                     const GVariant *user_data);

/* Called by libglvnd when it loads the library as an EGL vendor: the display with no device, or Mesa's vendor
 * in a web process started for WebGL. */
EGLBoolean __egl_Main(uint32_t version, const __EGLapiExports *exports, __EGLvendorInfo *vendor,
                      __EGLapiImports *imports);

#endif
