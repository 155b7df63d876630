/* The VERSION file, one plain line, compiled in (#embed), so that the build notices when it changes (the compiler
 * tracks it as it tracks any included file). */
#include "webparse_version.h"

#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wc23-extensions"
static const char file[] = {
#embed "../../VERSION" suffix(, 0)
};
#pragma clang diagnostic pop

const char *webparse_version_file(void) { return file; }
