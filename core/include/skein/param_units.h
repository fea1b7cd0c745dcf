/* The SI units of the numeric parameters a sweep may vary, for outputs that label them. */
#ifndef SKEIN_PARAM_UNITS_H
#define SKEIN_PARAM_UNITS_H

/* Units of a sweep key as written ("link.stiffness", "anchor.point[1]"): "N/m", "m", "1" for a pure
 * number; NULL for a key that is not a sweepable parameter. */
const char *sk_param_units(const char *key);

#endif
