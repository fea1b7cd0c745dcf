/* A scenario built in code by key paths: a JSON tree grown by the same key-path walk as the overrides, then
 * validated exactly as a file is, so a built scenario and a file that writes the same keys are the same
 * scenario (and the same normalised text, which checkpoints compare). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scenario/scenario_impl.h"

struct sk_scenario_builder {
    json_t *root;
    sk_error first; /* the first setter's failure, returned by every later call and by sk_builder_finish */
};

sk_scenario_builder *sk_builder_create(void)
{
    sk_scenario_builder *b = calloc(1, sizeof *b);
    /* the format version, as every scenario file starts */
    if (b && (!(b->root = json_object()) || json_object_set_new(b->root, "skein", json_integer(1)))) {
        json_decref(b->root);
        free(b);
        return NULL;
    }
    return b;
}

void sk_builder_destroy(sk_scenario_builder *b)
{
    if (!b)
        return;
    json_decref(b->root);
    free(b);
}

/* Stores value (its reference is taken, NULL meaning out of memory) at path. */
static sk_status set(sk_scenario_builder *b, const char *path, json_t *value)
{
    if (!b)
        return SK_ERR_INVALID;
    if (b->first.status) {
        json_decref(value);
        return b->first.status;
    }
    if (!path || !path[0]) {
        json_decref(value);
        return sk_fail(&b->first, SK_ERR_INVALID, "builder: an empty key path");
    }
    if (!value)
        return sk_fail(&b->first, SK_ERR_NO_MEMORY, "builder %s: out of memory (or a string that is not UTF-8)",
                       path);
    if (strlen(path) > SK_SCN_PATH_MAX) {
        json_decref(value);
        return sk_fail(&b->first, SK_ERR_INVALID, "builder %.40s...: the path is longer than %d characters", path,
                       SK_SCN_PATH_MAX);
    }
    const sk_status st = (sk_status)sk_scn_set_path(b->root, "builder", path, path, value, true, &b->first);
    json_decref(value);
    return st;
}

sk_status sk_builder_set_number(sk_scenario_builder *b, const char *path, double value)
{
    /* jansson refuses NaN and infinities; say which key was given one */
    if (b && !b->first.status && !(value - value == 0))
        return sk_fail(&b->first, SK_ERR_INVALID, "builder %s: not a finite number", path ? path : "");
    return set(b, path, json_real(value));
}

sk_status sk_builder_set_integer(sk_scenario_builder *b, const char *path, long long value)
{
    return set(b, path, json_integer((json_int_t)value));
}

sk_status sk_builder_set_string(sk_scenario_builder *b, const char *path, const char *value)
{
    return set(b, path, value ? json_string(value) : json_null());
}

sk_status sk_builder_set_bool(sk_scenario_builder *b, const char *path, bool value)
{
    return set(b, path, json_boolean(value));
}

static json_t *number_array(const double *values, size_t n)
{
    json_t *a = json_array();
    for (size_t i = 0; a && i < n; i++)
        if (json_array_append_new(a, json_real(values[i]))) {
            json_decref(a);
            return NULL;
        }
    return a;
}

static bool all_finite(const double *values, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!(values[i] - values[i] == 0))
            return false;
    return true;
}

sk_status sk_builder_set_vec3(sk_scenario_builder *b, const char *path, sk_vec3 value)
{
    const double v[3] = {(double)value.x, (double)value.y, (double)value.z};
    if (b && !b->first.status && !all_finite(v, 3))
        return sk_fail(&b->first, SK_ERR_INVALID, "builder %s: not a vector of finite numbers", path ? path : "");
    return set(b, path, number_array(v, 3));
}

sk_status sk_builder_set_integers(sk_scenario_builder *b, const char *path, const long long *values, size_t n)
{
    json_t *a = json_array();
    for (size_t i = 0; a && i < n; i++)
        if (json_array_append_new(a, json_integer((json_int_t)values[i]))) {
            json_decref(a);
            a = NULL;
        }
    return set(b, path, a);
}

sk_status sk_builder_set_json(sk_scenario_builder *b, const char *path, const char *json)
{
    if (!b || b->first.status)
        return b ? b->first.status : SK_ERR_INVALID;
    json_error_t je;
    json_t *value = json ? json_loads(json, JSON_DECODE_ANY | JSON_REJECT_DUPLICATES, &je) : NULL;
    if (!value)
        return sk_fail(&b->first, SK_ERR_INVALID, "builder %s: %s", path ? path : "",
                       json ? je.text : "no JSON text");
    return set(b, path, value);
}

/* groups[<group>].sweep.<key> = spec */
static sk_status sweep(sk_scenario_builder *b, int group, const char *key, json_t *spec)
{
    char path[SK_SCN_PATH_MAX + 64];
    if (b && !b->first.status && (group < 0 || !key || !key[0] || strlen(key) > SK_SCN_PATH_MAX)) {
        json_decref(spec);
        return sk_fail(&b->first, SK_ERR_INVALID, "builder: a sweep of group %d needs a key path", group);
    }
    snprintf(path, sizeof path, "groups[%d].sweep.%s", group, key ? key : "");
    return set(b, path, spec);
}

sk_status sk_builder_sweep_linear(sk_scenario_builder *b, int group, const char *key, double from, double to)
{
    json_t *spec = json_pack("{s:f, s:f}", "from", from, "to", to);
    return sweep(b, group, key, spec);
}

sk_status sk_builder_sweep_values(sk_scenario_builder *b, int group, const char *key, const double *values, size_t n)
{
    if (b && !b->first.status && !all_finite(values, n))
        return sk_fail(&b->first, SK_ERR_INVALID, "builder groups[%d].sweep.%s: a value is not a finite number", group,
                       key ? key : "");
    json_t *list = number_array(values, n);
    json_t *spec = list ? json_pack("{s:o}", "values", list) : NULL;
    return sweep(b, group, key, spec);
}

sk_status sk_builder_sweep_random(sk_scenario_builder *b, int group, const char *key, double min, double max,
                                  uint64_t seed)
{
    /* the seed is a JSON integer: jansson's are signed 64-bit, and the loader reads seeds up to 2^63 - 1 */
    if (b && !b->first.status && seed > (uint64_t)INT64_MAX)
        return sk_fail(&b->first, SK_ERR_INVALID, "builder groups[%d].sweep.%s: seed %llu is above 2^63 - 1", group,
                       key ? key : "", (unsigned long long)seed);
    json_t *spec = json_pack("{s:{s:f, s:f, s:I}}", "random", "min", min, "max", max, "seed", (json_int_t)seed);
    return sweep(b, group, key, spec);
}

char *sk_builder_json(const sk_scenario_builder *b)
{
    return b ? json_dumps(b->root, JSON_INDENT(2) | JSON_PRESERVE_ORDER) : NULL;
}

sk_status sk_builder_finish(sk_scenario_builder *b, const char *name, sk_scenario *out, sk_error *err)
{
    memset(out, 0, sizeof *out);
    if (!b)
        return sk_fail(err, SK_ERR_INVALID, "%s: no builder", name ? name : "<built>");
    if (b->first.status) {
        if (err)
            *err = b->first;
        const sk_status st = b->first.status;
        sk_builder_destroy(b);
        return st;
    }
    json_t *root = b->root;
    b->root = NULL;
    sk_builder_destroy(b);
    return (sk_status)sk_scn_load_tree(root, name ? name : "<built>", NULL, out, err);
}
