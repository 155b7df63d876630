/* webparse's version, from the VERSION file at the top of the repository (its one place). */
#ifndef WEBPARSE_VERSION_H
#define WEBPARSE_VERSION_H

/* The version, such as "0.4.0". */
const char *webparse_version(void);

#endif
