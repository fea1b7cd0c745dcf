/* Typed readers of scenario JSON values that name the key path of whatever is wrong. */
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "scenario/scenario_impl.h"

/* The last override whose PATH is path or a key path above it, NULL when none set it. */
static const char *override_of(const sk_load_options *opt, const char *path)
{
    const char *found = NULL;
    for (int i = 0; opt && i < opt->n_sets; i++) {
        const char *set = opt->sets[i], *eq = strchr(set, '=');
        const size_t len = eq ? (size_t)(eq - set) : 0;
        if (len > 0 && strncmp(path, set, len) == 0 && (path[len] == '\0' || path[len] == '.' || path[len] == '['))
            found = set;
    }
    return found;
}

void sk_scn_shown_set(char *buf, size_t size, const char *set)
{
    const char *eq = strchr(set, '=');
    size_t len = strlen(set);
    if (eq && len - (size_t)(eq + 1 - set) > SK_SCN_SHOWN_VALUE)
        snprintf(buf, size, "%.*s...", (int)(eq + 1 - set) + SK_SCN_SHOWN_VALUE, set);
    else
        snprintf(buf, size, "%s", set);
}

int sk_scn_fail(const sk_scn_ctx *c, const char *path, const char *fmt, ...)
{
    char what[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    const char *set = override_of(c->opt, path);
    if (set) {
        char shown[SK_SCN_SHOWN_MAX];
        sk_scn_shown_set(shown, sizeof shown, set);
        return sk_fail(c->err, SK_ERR_INVALID, "%s %s: %s: %s", c->opt->label ? c->opt->label : "override", shown,
                       path, what);
    }
    return sk_fail(c->err, SK_ERR_INVALID, "%s: %s: %s", c->name, path, what);
}

/* A path cut at the buffer's end says so, since user-written keys can be any length. */
static void mark_cut(char *buf, int written)
{
    if (written >= SK_SCN_PATH_MAX)
        memcpy(buf + SK_SCN_PATH_MAX - 4, "...", 4);
}

void sk_scn_path_key(char *buf, const char *parent, const char *key)
{
    if (parent[0])
        mark_cut(buf, snprintf(buf, SK_SCN_PATH_MAX, "%s.%s", parent, key));
    else
        mark_cut(buf, snprintf(buf, SK_SCN_PATH_MAX, "%s", key));
}

void sk_scn_path_index(char *buf, const char *parent, size_t i)
{
    mark_cut(buf, snprintf(buf, SK_SCN_PATH_MAX, "%s[%zu]", parent, i));
}

bool sk_scn_range_ok(sk_scn_range r, double v)
{
    switch (r) {
    case SK_RANGE_GT0: return v > 0;
    case SK_RANGE_MASS: {
        /* in the real type the engines compute in, as core/model/rope_constants.c does */
        const sk_real m = (sk_real)v, w = (sk_real)1 / m;
        return m > 0 && isfinite(w) && w > 0 && isfinite((sk_real)1 / w);
    }
    case SK_RANGE_TIME_STEP: {
        const sk_real dt = (sk_real)v, dt2 = dt * dt;
        return dt > 0 && isfinite(dt2) && dt2 > 0 && isfinite((sk_real)1 / dt2);
    }
    case SK_RANGE_GE0: return v >= 0;
    case SK_RANGE_UNIT_OPEN0: return v > 0 && v <= 1;
    case SK_RANGE_UNIT: return v >= 0 && v <= 1;
    case SK_RANGE_UNIT_OPEN1: return v >= 0 && v < 1;
    case SK_RANGE_ANY:
    case SK_RANGE_ANCHOR_LENGTH: break; /* resolved by the caller before use */
    }
    return isfinite(v);
}

const char *sk_scn_range_text(sk_scn_range r, double v)
{
    switch (r) {
    case SK_RANGE_GT0: return "must be > 0";
    case SK_RANGE_MASS: return v > 0 ? "is too small: 1/mass overflows" : "must be > 0";
    case SK_RANGE_TIME_STEP: return v > 0 ? "is too small or too large: 1/dt^2 must be finite and > 0" : "must be > 0";
    case SK_RANGE_GE0: return "must be >= 0";
    case SK_RANGE_UNIT_OPEN0: return "must be in (0, 1]";
    case SK_RANGE_UNIT: return "must be in [0, 1]";
    case SK_RANGE_UNIT_OPEN1: return "must be in [0, 1)";
    case SK_RANGE_ANY:
    case SK_RANGE_ANCHOR_LENGTH: break;
    }
    return "must be finite";
}

bool sk_scn_fits_real(double v)
{
    if (!isfinite(v))
        return false;
    sk_real r = (sk_real)v;
    return !isinf(r) && (v == 0 || r != 0);
}

int sk_scn_check_keys(const sk_scn_ctx *c, const char *path, json_t *obj, const char *const *allowed)
{
    const char *key;
    json_t *val;
    json_object_foreach(obj, key, val) {
        bool known = false;
        for (const char *const *a = allowed; *a && !known; a++)
            known = strcmp(*a, key) == 0;
        if (!known) {
            char p[SK_SCN_PATH_MAX];
            sk_scn_path_key(p, path, key);
            const char *near = sk_scn_nearest(key, allowed, -1);
            if (near)
                return sk_scn_fail(c, p, "unknown key; did you mean \"%s\"?", near);
            return sk_scn_fail(c, p, "unknown key");
        }
    }
    return 0;
}

int sk_scn_real_value(const sk_scn_ctx *c, const char *path, json_t *v, sk_scn_range r, sk_real *out)
{
    if (!json_is_number(v))
        return sk_scn_fail(c, path, "must be a number");
    double d = json_number_value(v);
    if (!sk_scn_fits_real(d))
        return sk_scn_fail(c, path, "out of range for %s", SK_REAL_NAME);
    sk_real x = (sk_real)d;
    /* The check reads the value the engine will use, so a float build never runs with, say, a Verlet
     * damping of 0.99999999 rounded up to 1. */
    if (!sk_scn_range_ok(r, (double)x))
        return sk_scn_fail(c, path, "%s", sk_scn_range_text(r, (double)x));
    *out = x;
    return 0;
}

/* obj's key, its key path in p; NULL where obj lacks it, *rc then the failure of a required key, else 0 (the
 * reader takes its default). */
static json_t *member(const sk_scn_ctx *c, char p[SK_SCN_PATH_MAX], const char *path, json_t *obj, const char *key,
                      bool required, int *rc)
{
    sk_scn_path_key(p, path, key);
    json_t *v = json_object_get(obj, key);
    *rc = !v && required ? sk_scn_fail(c, p, "required") : 0;
    return v;
}

int sk_scn_read_real(const sk_scn_ctx *c, const char *path, json_t *obj, const char *key, bool required,
                     double def, sk_scn_range r, sk_real *out)
{
    char p[SK_SCN_PATH_MAX];
    int rc;
    json_t *v = member(c, p, path, obj, key, required, &rc);
    if (!v && rc == 0)
        *out = (sk_real)def;
    return v ? sk_scn_real_value(c, p, v, r, out) : rc;
}

int sk_scn_vec3_value(const sk_scn_ctx *c, const char *path, json_t *v, sk_vec3 *out)
{
    if (!json_is_array(v) || json_array_size(v) != 3)
        return sk_scn_fail(c, path, "must be an array of 3 numbers [x, y, z]");
    sk_real xyz[3];
    for (size_t i = 0; i < 3; i++) {
        char pi[SK_SCN_PATH_MAX];
        sk_scn_path_index(pi, path, i);
        int rc = sk_scn_real_value(c, pi, json_array_get(v, i), SK_RANGE_ANY, &xyz[i]);
        if (rc)
            return rc;
    }
    *out = (sk_vec3){xyz[0], xyz[1], xyz[2]};
    return 0;
}

int sk_scn_read_vec3(const sk_scn_ctx *c, const char *path, json_t *obj, const char *key, bool required,
                     sk_vec3 def, sk_vec3 *out)
{
    char p[SK_SCN_PATH_MAX];
    int rc;
    json_t *v = member(c, p, path, obj, key, required, &rc);
    if (!v && rc == 0)
        *out = def;
    return v ? sk_scn_vec3_value(c, p, v, out) : rc;
}

int sk_scn_int_value(const sk_scn_ctx *c, const char *path, json_t *v, long long min, long long max,
                     long long *out)
{
    long long x = json_is_integer(v) ? (long long)json_integer_value(v) : 0;
    if (!json_is_integer(v) || x < min || x > max) {
        /* what was written, so that a number that reads as whole (1e30, 5.0) is told apart */
        char got[64] = "";
        if (json_is_real(v) && json_real_value(v) == floor(json_real_value(v)) &&
            (json_real_value(v) < (double)min || json_real_value(v) > (double)max ||
             json_real_value(v) >= 9223372036854775808.0))
            snprintf(got, sizeof got, " (%.17g is too %s)", json_real_value(v),
                     json_real_value(v) < (double)min ? "small" : "large");
        else if (json_is_real(v) && json_real_value(v) == floor(json_real_value(v)))
            snprintf(got, sizeof got, " (%.17g is written as a real number)", json_real_value(v));
        else if (json_is_real(v))
            snprintf(got, sizeof got, " (%.17g is not a whole number)", json_real_value(v));
        if (max == LLONG_MAX)
            return sk_scn_fail(c, path, "must be an integer >= %lld%s", min, got);
        return sk_scn_fail(c, path, "must be an integer in [%lld, %lld]%s", min, max, got);
    }
    *out = x;
    return 0;
}

int sk_scn_read_int(const sk_scn_ctx *c, const char *path, json_t *obj, const char *key, bool required,
                    long long def, long long min, long long max, long long *out)
{
    char p[SK_SCN_PATH_MAX];
    int rc;
    json_t *v = member(c, p, path, obj, key, required, &rc);
    if (!v && rc == 0)
        *out = def;
    return v ? sk_scn_int_value(c, p, v, min, max, out) : rc;
}

int sk_scn_read_enum(const sk_scn_ctx *c, const char *path, json_t *obj, const char *key,
                     const char *const *names, int def, int *out)
{
    char p[SK_SCN_PATH_MAX];
    int rc;
    json_t *v = member(c, p, path, obj, key, def < 0, &rc);
    if (!v) {
        if (rc == 0)
            *out = def;
        return rc;
    }
    const char *s = json_string_value(v);
    char list[256] = "";
    for (int i = 0; names[i]; i++) {
        if (s && strcmp(s, names[i]) == 0) {
            *out = i;
            return 0;
        }
        size_t used = strlen(list);
        snprintf(list + used, sizeof list - used, "%s%s", i ? ", " : "", names[i]);
    }
    return sk_scn_fail(c, p, "must be one of %s", list);
}

int sk_scn_read_object(const sk_scn_ctx *c, const char *path, json_t *obj, const char *key, bool required,
                       json_t **out)
{
    char p[SK_SCN_PATH_MAX];
    int rc;
    json_t *v = member(c, p, path, obj, key, required, &rc);
    *out = NULL;
    if (!v)
        return rc;
    if (!json_is_object(v))
        return sk_scn_fail(c, p, "must be an object");
    *out = v;
    return 0;
}
