/* CWebKitGTK: What the dynamic loader spends its time on as a WebKit process starts. */
#ifndef WK_LOADER_H
#define WK_LOADER_H

#include <stddef.h>

/* Among libwebkit2gtk and the libraries it needs (what WebKit's processes load too), as this process loaded them,
 * those for which the dynamic loader searches other libraries the most in vain: a relocation against a symbol a
 * library defines itself (global, of default visibility) is looked up in every library loaded before it first;
 * the count is those relocations times the libraries loaded before it. Returns the paths of those at or above
 * minimum_searches, separated by spaces (as LD_PRELOAD takes them; paths holding a space or a colon are left
 * out), or NULL when there is none; free it with wk_free. Safe from any thread. */
char *wk_libraries_searched_in_vain(size_t minimum_searches);

#endif
