/* CWebKitGTK: XML files read as a stream with libxml2, in bounded memory. */
#ifndef WK_XML_READER_H
#define WK_XML_READER_H

#include <stdbool.h>

/* Called at the end of each element: its depth (the root is 0), its local name, the text directly inside it (at
 * most max_text bytes of it) and how many bytes of the file (after decompression) have been read. Returning false
 * stops the reading. */
typedef bool (*WKXMLElementCallback)(void *context, unsigned depth, const char *name, const char *text,
                                     unsigned long long consumed);

/* Reads the XML file at path (gzip'd or not) element by element, without loading entities or DTDs from anywhere,
 * past the faults it can recover from. Returns true when it read to the end (or was stopped) without a fault; false
 * when the file is no well-formed XML, with *line (1-based, 0 when unknown) and *message (free it with wk_free) saying
 * where its first fault is and what. Safe from any thread. */
bool wk_xml_read_elements(const char *path, unsigned max_text, WKXMLElementCallback callback, void *context,
                          unsigned *line, char **message);

#endif
