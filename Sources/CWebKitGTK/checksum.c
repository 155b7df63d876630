/* CWebKitGTK: SHA-256 digests, by GLib's GChecksum. */
#include "CWebKitGTK.h"

#include <glib.h>

void wk_sha256(const void *data, size_t length, uint8_t digest[32]) {
    GChecksum *checksum = g_checksum_new(G_CHECKSUM_SHA256);
    g_checksum_update(checksum, data, (gssize)length);
    gsize size = 32;
    g_checksum_get_digest(checksum, digest, &size);
    g_checksum_free(checksum);
}
