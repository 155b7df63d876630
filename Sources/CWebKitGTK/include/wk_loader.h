/* CWebKitGTK: What the dynamic loader spends its time on as a WebKit process starts. */
#ifndef WK_LOADER_H
#define WK_LOADER_H

#include <stddef.h>

/* The shared libraries loaded in this process for which the dynamic loader searches the most libraries in vain:
 * for each library, its relocations against symbols it defines itself (each is looked up in every library
 * loaded before it, in load order, before it is found in its own) times the number of libraries loaded before
 * it. Returns the paths of those at or above minimum_searches, separated by spaces (as LD_PRELOAD takes them),
 * or NULL when there is none; free it with wk_free. Safe from any thread. */
char *wk_libraries_searched_in_vain(size_t minimum_searches);

#endif
