/* The build's scalar type: double by default, float with -DSKEIN_REAL=float. */
#ifndef SKEIN_REAL_H
#define SKEIN_REAL_H

#ifdef SKEIN_REAL_FLOAT
typedef float sk_real;
#define SK_REAL_NAME "float"
/* Enough digits that a printed number reads back to the same bits. */
#define SK_REAL_FMT "%.9g"
#else
typedef double sk_real;
#define SK_REAL_NAME "double"
#define SK_REAL_FMT "%.17g"
#endif

typedef struct sk_vec3 {
    sk_real x, y, z;
} sk_vec3;

#endif
