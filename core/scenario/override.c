/* Overrides "PATH=VALUE" applied to the parsed JSON tree before validation, and the key-path walk the
 * builder shares. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scenario/scenario_impl.h"

/* Inside a "sweep" object the keys themselves hold dots ("link.stiffness"): take the longest sweepable
 * or existing key that the rest of the path starts with. */
static size_t sweep_key_length(json_t *sweep, const char *p)
{
    size_t best = 0;
    for (int i = 0; i < sk_scn_n_sweepables; i++) {
        size_t n = strlen(sk_scn_sweepables[i].key);
        if (n > best && strncmp(p, sk_scn_sweepables[i].key, n) == 0 && (p[n] == '.' || p[n] == '\0'))
            best = n;
    }
    const char *key;
    json_t *v;
    json_object_foreach(sweep, key, v) {
        size_t n = strlen(key);
        if (n > best && strncmp(p, key, n) == 0 && (p[n] == '.' || p[n] == '\0'))
            best = n;
    }
    return best;
}

static void append(char *done, const char *fmt, const char *key, size_t index)
{
    size_t used = strlen(done);
    if (key)
        snprintf(done + used, SK_SCN_PATH_MAX - used, fmt, key);
    else
        snprintf(done + used, SK_SCN_PATH_MAX - used, fmt, index);
}

/* Walks PATH from the root, creating missing objects, and stores value at its end. With grow (the builder),
 * a missing array is created and an index one past an array's end appends to it. Messages read
 * "<label> <set>: ...". */
int sk_scn_set_path(json_t *root, const char *label, const char *set, const char *p, json_t *value, bool grow,
                    sk_error *err)
{
    json_t *node = root;
    char done[SK_SCN_PATH_MAX] = "";
    bool in_sweep = false;
    for (;;) {
        size_t klen = in_sweep && json_is_object(node) ? sweep_key_length(node, p) : 0;
        if (klen == 0)
            klen = strcspn(p, ".[");
        if (klen == 0)
            return sk_fail(err, SK_ERR_INVALID, "%s %s: malformed path", label, set);
        if (!json_is_object(node))
            return sk_fail(err, SK_ERR_INVALID, "%s %s: %s is not an object", label, set,
                           done[0] ? done : "the top level");
        char *key = strndup(p, klen);
        if (!key)
            return sk_fail(err, SK_ERR_NO_MEMORY, "%s %s: out of memory", label, set);
        p += klen;
        append(done, done[0] ? ".%s" : "%s", key, 0);
        in_sweep = strcmp(key, "sweep") == 0;
        json_t *child = json_object_get(node, key);
        if (*p == '\0') {
            int rc = json_object_set(node, key, value);
            free(key);
            return rc ? sk_fail(err, SK_ERR_NO_MEMORY, "%s %s: out of memory", label, set) : 0;
        }
        if (!child && (*p == '.' || (*p == '[' && grow))) {
            child = *p == '.' ? json_object() : json_array();
            if (!child || json_object_set_new(node, key, child)) {
                free(key);
                return sk_fail(err, SK_ERR_NO_MEMORY, "%s %s: out of memory", label, set);
            }
        }
        free(key);
        while (*p == '[') {
            char *end;
            if (!isdigit((unsigned char)p[1]))
                return sk_fail(err, SK_ERR_INVALID, "%s %s: malformed path", label, set);
            unsigned long long i = strtoull(p + 1, &end, 10);
            if (*end != ']')
                return sk_fail(err, SK_ERR_INVALID, "%s %s: malformed path", label, set);
            p = end + 1;
            if (!child)
                return sk_fail(err, SK_ERR_INVALID, "%s %s: %s does not exist", label, set, done);
            if (!json_is_array(child))
                return sk_fail(err, SK_ERR_INVALID, "%s %s: %s is not an array", label, set, done);
            size_t n = json_array_size(child);
            if (grow && i == n && *p != '\0') { /* appends the object or array the rest of the path goes into */
                json_t *slot = *p == '[' ? json_array() : json_object();
                if (!slot || json_array_append_new(child, slot))
                    return sk_fail(err, SK_ERR_NO_MEMORY, "%s %s: out of memory", label, set);
                n++;
            }
            if (grow && i == n && *p == '\0')
                return json_array_append(child, value) ? sk_fail(err, SK_ERR_NO_MEMORY, "%s %s: out of memory", label, set)
                                                       : 0;
            if (i >= n)
                return sk_fail(err, SK_ERR_INVALID, "%s %s: index %llu out of range (%s has %zu element%s)", label,
                               set, i, done, n, n == 1 ? "" : "s");
            append(done, "[%zu]", NULL, (size_t)i);
            if (*p == '\0')
                return json_array_set(child, (size_t)i, value)
                           ? sk_fail(err, SK_ERR_NO_MEMORY, "%s %s: out of memory", label, set)
                           : 0;
            child = json_array_get(child, (size_t)i);
        }
        if (*p != '.' || p[1] == '\0')
            return sk_fail(err, SK_ERR_INVALID, "%s %s: malformed path", label, set);
        p++;
        node = child;
    }
}

static int apply_one(json_t *root, const char *label, const char *full, sk_error *err)
{
    char set[SK_SCN_SHOWN_MAX]; /* what messages show; full is what is applied */
    sk_scn_shown_set(set, sizeof set, full);
    const char *eq = strchr(full, '=');
    if (!eq || eq == full)
        return sk_fail(err, SK_ERR_INVALID, "%s %s: expected PATH=VALUE", label, set);
    /* Each component may add a level of nesting, which jansson frees recursively: bound the depth (a real
     * path is a few dozen characters). */
    if (eq - full > SK_SCN_PATH_MAX)
        return sk_fail(err, SK_ERR_INVALID, "%s %.40s...: PATH is longer than %d characters", label, set,
                       SK_SCN_PATH_MAX);
    /* VALUE is JSON when it parses as JSON, a string otherwise (so integrator=verlet needs no quotes); one
     * that opens an object, an array or a string was meant as JSON, and a mistake in it is said as such. */
    json_error_t je;
    json_t *value = json_loads(eq + 1, JSON_DECODE_ANY, &je);
    if (!value && strncmp(je.text, "too big integer", 15) == 0)
        return sk_fail(err, SK_ERR_INVALID, "%s %s: VALUE holds an integer beyond 2^63 - 1", label, set);
    if (!value && (eq[1] == '{' || eq[1] == '[' || eq[1] == '"'))
        return sk_fail(err, SK_ERR_INVALID, "%s %s: VALUE is not JSON (column %d: %s)", label, set, je.column,
                       je.text);
    if (!value)
        value = json_string(eq + 1);
    if (!value)
        return sk_fail(err, SK_ERR_INVALID, "%s %s: VALUE is not valid UTF-8", label, set);
    /* jansson refuses an object key that is not UTF-8; say so rather than "out of memory". */
    json_t *utf8 = json_stringn(full, (size_t)(eq - full));
    if (!utf8) {
        json_decref(value);
        return sk_fail(err, SK_ERR_INVALID, "%s %s: PATH is not valid UTF-8", label, set);
    }
    json_decref(utf8);
    char *path = strndup(full, (size_t)(eq - full));
    int rc = path ? sk_scn_set_path(root, label, set, path, value, false, err)
                  : (int)sk_fail(err, SK_ERR_NO_MEMORY, "%s %s: out of memory", label, set);
    free(path);
    json_decref(value);
    return rc;
}

int sk_scn_apply_sets(json_t *root, const sk_load_options *opt, sk_error *err)
{
    const char *label = opt && opt->label ? opt->label : "override";
    for (int i = 0; opt && i < opt->n_sets; i++) {
        int rc = apply_one(root, label, opt->sets[i], err);
        if (rc)
            return rc;
    }
    return 0;
}
