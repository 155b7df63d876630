/* CWebKitGTK: Memory the shim hands out. */
#include "CWebKitGTK.h"

#include <glib.h>

void wk_free(void *pointer) {
    g_free(pointer);
}
