/*
 * CWebKitGTK: the only code in webparse that touches GTK, GLib and WebKitGTK.
 *
 * A flat C API over an offscreen WebKitWebView. It holds no policy: no retries, no timeouts, no JSON
 * handling beyond turning a JavaScript value into text. Every callback carries the context pointer it was
 * registered with. Every function except wk_main_invoke and wk_main_quit must be called on the thread that
 * called wk_main_init.
 */
#ifndef CWEBKITGTK_H
#define CWEBKITGTK_H

#include <stdbool.h>
#include <stddef.h>

#include "wk_error.h"
#include "wk_main.h"
#include "wk_context.h"
#include "wk_content_filter.h"
#include "wk_view.h"
#include "wk_script_syntax.h"
#include "wk_checksum.h"
#include "wk_http_date.h"
#include "wk_input.h"
#include "wk_loader.h"
#include "wk_download.h"
#include "wk_xml_reader.h"
#include "wk_condition.h"

#endif
