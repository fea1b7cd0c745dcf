/* The overflow-checked sizes are skein_util's (util/checked.h), which skein-view shares; this name of them
 * stays for the files that include it. */
#ifndef SKEIN_BASE_CHECKED_H
#define SKEIN_BASE_CHECKED_H

#include "util/checked.h"

#endif
