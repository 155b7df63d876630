#include <libxml/xpath.h>
