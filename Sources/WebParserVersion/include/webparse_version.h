/* webparse's version, from the VERSION file at the top of the repository (its one place). */
#ifndef WEBPARSE_VERSION_H
#define WEBPARSE_VERSION_H

/* The VERSION file's text: its one line, such as "0.4.0", and the line's end. */
const char *webparse_version_file(void);

#endif
