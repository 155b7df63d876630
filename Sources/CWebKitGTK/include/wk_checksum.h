/* CWebKitGTK: SHA-256 digests, by GLib's GChecksum. */
#ifndef WK_CHECKSUM_H
#define WK_CHECKSUM_H

#include <stddef.h>
#include <stdint.h>

/* Writes the 32-byte SHA-256 digest of the length bytes at data into digest. Safe from any thread. */
void wk_sha256(const void *data, size_t length, uint8_t digest[32]);

#endif
