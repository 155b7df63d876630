/* The VERSION file holds the version as a C string literal, so that it is compiled in here and the build
 * notices when it changes (the compiler tracks it as it tracks any included file). */
#include "webparse_version.h"

static const char version[] =
#include "../../VERSION"
;

const char *webparse_version(void) { return version; }
