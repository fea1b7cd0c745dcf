/* A viewer file that reaches past the public API: architecture.includes_refused checks that the include check
 * refuses it. Never compiled. */
#include "reference/reference.h"
#include "skein/skein.h"
