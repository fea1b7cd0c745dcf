/* Parsing and validation of one rope group of a scenario: structure, links, anchor, forces, deployment. */
#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "model/vec3.h"
#include "scenario/scenario_impl.h"


static const char *const group_keys[] = {"count",  "particles", "start", "end",      "mass",
                                         "damping", "verlet_damping", "velocity", "pinned", "link",
                                         "anchor", "drag",      "buoyancy", "bending", "deploy", "sweep", "payloads", "line",
#define OBJECT_KEY(NAME, object) object,
                                         SK_FORCE_OBJECTS(OBJECT_KEY)
#undef OBJECT_KEY
                                         NULL};

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* obj[key] as an array (*out NULL when absent); p gets its path. must: what the error says it must be. */
static int optional_array(const sk_scn_ctx *c, const char *path, json_t *obj, const char *key, const char *must,
                          char p[SK_SCN_PATH_MAX], json_t **out)
{
    sk_scn_path_key(p, path, key);
    *out = json_object_get(obj, key);
    if (*out && !json_is_array(*out))
        return sk_scn_fail(c, p, "must be %s", must);
    return 0;
}

static int parse_pinned(const sk_scn_ctx *c, const char *path, json_t *obj, sk_group *g)
{
    char p[SK_SCN_PATH_MAX];
    json_t *v;
    int rc = optional_array(c, path, obj, "pinned", "an array of particle indices", p, &v);
    if (rc || !v)
        return rc;
    size_t n = json_array_size(v);
    if (n == 0)
        return 0;
    g->pinned = malloc(n * sizeof *g->pinned);
    if (!g->pinned)
        return sk_fail(c->err, SK_ERR_NO_MEMORY, "%s: out of memory", c->name);
    for (size_t i = 0; i < n; i++) {
        char pi[SK_SCN_PATH_MAX];
        sk_scn_path_index(pi, p, i);
        long long x;
        if ((rc = sk_scn_int_value(c, pi, json_array_get(v, i), 0, g->particles - 1, &x)))
            return rc;
        g->pinned[i] = (int)x;
    }
    qsort(g->pinned, n, sizeof *g->pinned, cmp_int);
    int kept = 0;
    for (size_t i = 0; i < n; i++)
        if (kept == 0 || g->pinned[kept - 1] != g->pinned[i])
            g->pinned[kept++] = g->pinned[i];
    g->n_pinned = kept;
    return 0;
}

/* Points of a path: at most this many (each a time and a vector, stepped through per step). */
#define SK_MAX_PATH_POINTS 1000000

/* Time i of a table's "times" (path q) into out[i]: strictly greater than the time before it after rounding
 * to the build's real (two times one real apart would make a zero interval), and not so far from it that
 * their difference overflows (the interpolation divides by the interval). */
static int read_table_time(const sk_scn_ctx *c, const char *q, json_t *times, size_t i, sk_real *out)
{
    char t[SK_SCN_PATH_MAX];
    sk_scn_path_index(t, q, i);
    int rc = sk_scn_real_value(c, t, json_array_get(times, i), SK_RANGE_ANY, &out[i]);
    if (rc)
        return rc;
    if (i > 0 && !(out[i] > out[i - 1]))
        return sk_scn_fail(c, t, "must be greater than the time before it (times strictly increase)");
    if (i > 0 && !isfinite(out[i] - out[i - 1]))
        return sk_scn_fail(c, t, "too far from the time before it (their difference overflows)");
    return 0;
}

/* What a table {"times": [t0, t1, ...], key: [v0, v1, ...]} holds beside its times. */
typedef struct table_spec {
    const char *key;    /* the values' key */
    const char *rows;   /* what its limit counts, in the message */
    const char *values; /* what the values must be, in the message */
    size_t size;        /* bytes of one value */
    /* reads value i (path t) into values[i] */
    int (*row)(const sk_scn_ctx *c, const char *t, json_t *v, void *values, size_t i);
} table_spec;

/* The table o at p: as many times as values, at most SK_MAX_PATH_POINTS, times as read_table_time reads
 * them, into *times, *values (malloc'd) and *count, row by row. */
static int parse_table(const sk_scn_ctx *c, const char *p, json_t *o, const table_spec *spec, sk_real **times,
                       void **values, int *count)
{
    const char *const keys[] = {"times", spec->key, NULL};
    char q[SK_SCN_PATH_MAX], e[SK_SCN_PATH_MAX];
    int rc = sk_scn_check_keys(c, p, o, keys);
    if (rc)
        return rc;
    json_t *tj = json_object_get(o, "times"), *vj = json_object_get(o, spec->key);
    sk_scn_path_key(q, p, "times");
    if (!json_is_array(tj) || json_array_size(tj) == 0)
        return sk_scn_fail(c, q, "required: a non-empty array of times (s)");
    size_t n = json_array_size(tj);
    if (n > SK_MAX_PATH_POINTS)
        return sk_scn_fail(c, q, "at most %d %s", SK_MAX_PATH_POINTS, spec->rows);
    sk_scn_path_key(e, p, spec->key);
    if (!json_is_array(vj) || json_array_size(vj) != n)
        return sk_scn_fail(c, e, "required: an array of as many %s as times (%zu)", spec->values, n);
    *times = malloc(n * sizeof **times);
    *values = malloc(n * spec->size);
    if (!*times || !*values)
        return sk_fail(c->err, SK_ERR_NO_MEMORY, "%s: out of memory", c->name);
    *count = (int)n;
    for (size_t i = 0; i < n; i++) {
        char t[SK_SCN_PATH_MAX];
        if ((rc = read_table_time(c, q, tj, i, *times)))
            return rc;
        sk_scn_path_index(t, e, i);
        if ((rc = spec->row(c, t, json_array_get(vj, i), *values, i)))
            return rc;
    }
    return 0;
}

/* A deploy.velocity table's speed: of either sign (negative reels in), its difference from the one before it
 * finite (the interpolation scales it). */
static int speed_row(const sk_scn_ctx *c, const char *t, json_t *v, void *values, size_t i)
{
    sk_real *u = values;
    int rc = sk_scn_real_value(c, t, v, SK_RANGE_ANY, &u[i]);
    if (rc == 0 && i > 0 && !isfinite(u[i] - u[i - 1]))
        rc = sk_scn_fail(c, t, "too far from the speed before it (their difference overflows)");
    return rc;
}

/* deploy.velocity as a table {"times": [t0, t1, ...], "values": [u0, u1, ...]}: as many of each, times as a
 * path's. */
static int parse_speed_table(const sk_scn_ctx *c, const char *p, json_t *o, sk_group *g)
{
    static const table_spec spec = {"values", "rows", "speeds (m/s)", sizeof(sk_real), speed_row};
    void *values = NULL;
    const int rc = parse_table(c, p, o, &spec, &g->speed_times, &values, &g->speed_count);
    g->speed_values = values;
    return rc;
}

static int parse_deploy(const sk_scn_ctx *c, const char *path, json_t *obj, sk_group *g)
{
    static const char *const keys[] = {"velocity", "initial_particles", "insert_velocity", "max_length",
                                       NULL};
    json_t *d;
    int rc = sk_scn_read_object(c, path, obj, "deploy", false, &d);
    if (rc || !d)
        return rc;
    char p[SK_SCN_PATH_MAX];
    sk_scn_path_key(p, path, "deploy");
    if ((rc = sk_scn_check_keys(c, p, d, keys)))
        return rc;
    g->deploys = true;
    long long n0;
    int iv;
    /* a number (sweepable, paying out only) or a table of speeds for the group (either sign) */
    json_t *u = json_object_get(d, "velocity");
    char q[SK_SCN_PATH_MAX];
    sk_scn_path_key(q, p, "velocity");
    if (json_is_object(u))
        rc = parse_speed_table(c, q, u, g);
    else if (u && !json_is_number(u))
        return sk_scn_fail(c, q, "must be a number (m/s) or a table {\"times\": [...], \"values\": [...]}");
    else if (!(rc = sk_scn_read_real(c, p, d, "velocity", true, 0, SK_RANGE_ANY, &g->base.deploy_velocity)) &&
             !(g->base.deploy_velocity > 0))
        return sk_scn_fail(c, q, "must be > 0 (a table {times, values} may reel in at negative speeds)");
    if (rc || (rc = sk_scn_read_int(c, p, d, "initial_particles", false, 1, 1, g->particles, &n0)) ||
        (rc = sk_scn_read_enum(c, p, d, "insert_velocity", sk_scn_insert_names, SK_INSERT_SEED, &iv)))
        return rc;
    g->deploy_initial = (int)n0;
    g->insert_velocity = (sk_insert_velocity)iv;
    if (json_object_get(d, "max_length")) {
        g->deploy_has_max_length = true;
        rc = sk_scn_read_real(c, p, d, "max_length", true, 0, SK_RANGE_GT0, &g->base.deploy_max_length);
    }
    return rc;
}

/* A key the type at hand does not use: an error, so that a typo'd type does not silently drop it. */
static int not_allowed(const sk_scn_ctx *c, const char *path, json_t *obj, const char *key,
                       const char *type, const char *what)
{
    if (!json_object_get(obj, key))
        return 0;
    char p[SK_SCN_PATH_MAX];
    sk_scn_path_key(p, path, key);
    return sk_scn_fail(c, p, "not allowed for %s %s %s", sk_scn_article(type), type, what);
}


/* A property along the rope at key path p (value v, present): a number, a list of `count` values (one per
 * particle or link, `what`), or a linear profile {"from", "to"} whose ends go to *from and *to. */
static int parse_profile(const sk_scn_ctx *c, const char *p, json_t *v, int count, const char *what,
                         sk_scn_range range, sk_profile_kind *kind, sk_real *from, sk_real *to, sk_real **list)
{
    static const char *const keys[] = {"from", "to", NULL};
    if (json_is_number(v)) {
        *kind = SK_PROFILE_NONE;
        return sk_scn_real_value(c, p, v, range, from);
    }
    if (json_is_object(v)) {
        int rc;
        *kind = SK_PROFILE_LINEAR;
        if ((rc = sk_scn_check_keys(c, p, v, keys)) || (rc = sk_scn_read_real(c, p, v, "from", true, 0, range, from)))
            return rc;
        return sk_scn_read_real(c, p, v, "to", true, 0, range, to);
    }
    if (!json_is_array(v))
        return sk_scn_fail(c, p, "must be a number, a list of numbers (one per %s) or a linear profile {from, to}",
                           what);
    size_t n = json_array_size(v);
    if (n != (size_t)count)
        return sk_scn_fail(c, p, "must hold %d numbers (one per %s), not %zu", count, what, n);
    *kind = SK_PROFILE_LIST;
    *list = malloc((size_t)(count > 0 ? count : 1) * sizeof **list);
    if (!*list)
        return sk_fail(c->err, SK_ERR_NO_MEMORY, "%s: out of memory", c->name);
    for (size_t i = 0; i < n; i++) {
        char pi[SK_SCN_PATH_MAX];
        sk_scn_path_index(pi, p, i);
        int rc = sk_scn_real_value(c, pi, json_array_get(v, i), range, &(*list)[i]);
        if (rc)
            return rc;
    }
    *from = (*list)[0]; /* the base value, which no rope of the group uses */
    return 0;
}

/* "mass": a number, a list (one per particle) or a linear profile. */
static int parse_mass(const sk_scn_ctx *c, const char *path, json_t *obj, sk_group *g)
{
    char p[SK_SCN_PATH_MAX];
    sk_scn_path_key(p, path, "mass");
    json_t *v = json_object_get(obj, "mass");
    if (g->line_by_ea) /* parse_line refused "mass" and set it */
        return 0;
    g->base.mass = 1;
    if (!v)
        return 0;
    return parse_profile(c, p, v, g->particles, "particle", SK_RANGE_MASS, &g->mass_profile, &g->base.mass,
                         &g->base.mass_to, &g->mass_list);
}

/* "payloads": [{"index": i, "mass": m}, ...], at most SK_MAX_PAYLOADS; a negative index counts from the end. */
static int parse_payloads(const sk_scn_ctx *c, const char *path, json_t *obj, sk_group *g)
{
    static const char *const keys[] = {"index", "mass", NULL};
    char p[SK_SCN_PATH_MAX];
    json_t *v;
    int rc = optional_array(c, path, obj, "payloads", "an array of {index, mass}", p, &v);
    if (rc || !v)
        return rc;
    size_t n = json_array_size(v);
    if (n > SK_MAX_PAYLOADS)
        return sk_scn_fail(c, p, "at most %d payloads, not %zu", SK_MAX_PAYLOADS, n);
    for (size_t k = 0; k < n; k++) {
        char pk[SK_SCN_PATH_MAX];
        sk_scn_path_index(pk, p, k);
        json_t *e = json_array_get(v, k);
        if (!json_is_object(e))
            return sk_scn_fail(c, pk, "must be an object {index, mass}");
        long long index;
        if ((rc = sk_scn_check_keys(c, pk, e, keys)) ||
            (rc = sk_scn_read_int(c, pk, e, "index", true, 0, -(long long)g->particles, g->particles - 1, &index)) ||
            (rc = sk_scn_read_real(c, pk, e, "mass", true, 0, SK_RANGE_GE0, &g->base.payload_mass[k])))
            return rc;
        g->payload_index[k] = (int)(index < 0 ? g->particles + index : index);
    }
    g->n_payloads = (int)n;
    return 0;
}

/* Properties along the rope need each particle's own mass and each link's own constants in every pass; the
 * passes that do not take them yet refuse them (docs/scenario-format.md). */
static int check_profiles(const sk_scn_ctx *c, const char *path, sk_group *g)
{
    g->has_profiles = g->mass_profile != SK_PROFILE_NONE || g->stiffness_profile != SK_PROFILE_NONE ||
                      g->length_profile != SK_PROFILE_NONE || g->n_payloads > 0 || g->line_by_ea;
    /* A deploying group's masses and payloads hold over the capacity (an inserted particle takes its index's
     * mass); its links stay uniform: every insertion and reel-in moves one rest length L through the anchored
     * segment (docs/model.md section 7). */
    if (!g->deploys || (g->stiffness_profile == SK_PROFILE_NONE && g->length_profile == SK_PROFILE_NONE))
        return 0;
    char p[SK_SCN_PATH_MAX];
    sk_scn_path_key(p, path, g->stiffness_profile != SK_PROFILE_NONE ? "link.stiffness" : "link.length");
    return sk_scn_fail(c, p, "a profile or payload is not supported with a deploying group");
}

/* link.damping (N s) or link.damping_ratio, one of the two, on a spring or bungee (docs/model.md section 3). */
static int parse_link_damping(const sk_scn_ctx *c, const char *p, json_t *l, const char *name, sk_group *g)
{
    json_t *damping = json_object_get(l, "damping"), *ratio = json_object_get(l, "damping_ratio");
    if (!damping && !ratio)
        return 0;
    char pk[SK_SCN_PATH_MAX];
    sk_scn_path_key(pk, p, ratio ? "damping_ratio" : "damping");
    if (damping && ratio)
        return sk_scn_fail(c, pk, "not allowed with link.damping: give one of the two");
    if (g->link != SK_LINK_SPRING && g->link != SK_LINK_BUNGEE)
        return sk_scn_fail(c, pk, "not allowed for %s %s link (only springs and bungees are damped)",
                           sk_scn_article(name), name);
    g->has_link_damping = true;
    g->link_damping_by_ratio = ratio != NULL;
    return ratio ? sk_scn_read_real(c, p, l, "damping_ratio", true, 0, SK_RANGE_GE0, &g->base.link_damping_ratio)
                 : sk_scn_read_real(c, p, l, "damping", true, 0, SK_RANGE_GE0, &g->base.link_damping);
}

/* Most segments a line given by EA may have: its particles are an int, and each is a row of every pack. */
#define SK_MAX_LINE_SEGMENTS 1000000

/* A line's coefficients {"normal", "tangential"} at key `key` of o (each >= 0, 0 where absent). */
static int read_coefficients(const sk_scn_ctx *c, const char *p, json_t *o, const char *key, sk_real *normal,
                             sk_real *tangential)
{
    static const char *const pair[] = {"normal", "tangential", NULL};
    char q[SK_SCN_PATH_MAX];
    json_t *sub;
    int rc = sk_scn_read_object(c, p, o, key, false, &sub);
    if (rc || !sub)
        return rc;
    sk_scn_path_key(q, p, key);
    if ((rc = sk_scn_check_keys(c, q, sub, pair)) ||
        (rc = sk_scn_read_real(c, q, sub, "normal", false, 0, SK_RANGE_GE0, normal)))
        return rc;
    return sk_scn_read_real(c, q, sub, "tangential", false, 0, SK_RANGE_GE0, tangential);
}

/* "line" (docs/model.md section 3.6): a diameter and Morison's coefficients, and optionally the line as
 * engineers give it: mass_per_length, EA, length and segments together, in place of particles, mass and
 * the link's stiffness and length. Read before the particles, which the segments give. */
static int parse_line(const sk_scn_ctx *c, const char *path, json_t *obj, sk_group *g)
{
    static const char *const keys[] = {"diameter", "drag", "added_mass", "mass_per_length", "EA", "length",
                                       "segments", NULL};
    static const char *const engineers[] = {"mass_per_length", "EA", "length", "segments"};
    char p[SK_SCN_PATH_MAX], q[SK_SCN_PATH_MAX];
    json_t *o;
    int rc = sk_scn_read_object(c, path, obj, "line", false, &o);
    if (rc || !o)
        return rc;
    sk_scn_path_key(p, path, "line");
    g->has_line = true;
    sk_rope_params *b = &g->base;
    if ((rc = sk_scn_check_keys(c, p, o, keys)) ||
        (rc = sk_scn_read_real(c, p, o, "diameter", true, 0, SK_RANGE_GT0, &b->line_diameter)))
        return rc;
    if ((rc = read_coefficients(c, p, o, "drag", &b->line_drag_normal, &b->line_drag_tangential)) ||
        (rc = read_coefficients(c, p, o, "added_mass", &b->line_added_normal, &b->line_added_tangential)))
        return rc;
    int given = 0;
    for (int k = 0; k < 4; k++)
        given += json_object_get(o, engineers[k]) != NULL;
    if (given == 0)
        return 0;
    for (int k = 0; k < 4; k++)
        if (!json_object_get(o, engineers[k])) {
            sk_scn_path_key(q, p, engineers[k]);
            return sk_scn_fail(c, q, "required with line.%s (a line given by EA takes mass_per_length, EA, length "
                                     "and segments)", engineers[k == 0 ? 1 : 0]);
        }
    static const char *const replaced[] = {"particles", "mass"};
    for (int k = 0; k < 2; k++)
        if (json_object_get(obj, replaced[k])) {
            sk_scn_path_key(q, path, replaced[k]);
            return sk_scn_fail(c, q, "not allowed with a line given by EA (line.segments gives the particles, "
                                     "line.mass_per_length their masses)");
        }
    long long segments;
    if ((rc = sk_scn_read_real(c, p, o, "mass_per_length", true, 0, SK_RANGE_GT0, &b->line_mass_per_length)) ||
        (rc = sk_scn_read_real(c, p, o, "EA", true, 0, SK_RANGE_GT0, &b->line_ea)) ||
        (rc = sk_scn_read_real(c, p, o, "length", true, 0, SK_RANGE_GT0, &b->line_length)) ||
        (rc = sk_scn_read_int(c, p, o, "segments", true, 0, 1, SK_MAX_LINE_SEGMENTS, &segments)))
        return rc;
    g->line_by_ea = true;
    /* A deploying line is a reel of line: its last segment is the anchored one, from the newest particle to the
     * anchor point, so it holds as many particles as segments (docs/model.md section 7.1). */
    g->particles = json_object_get(obj, "deploy") ? (int)segments : (int)segments + 1;
    const sk_real segment = b->line_length / (sk_real)segments;
    b->link_length = segment;
    b->link_stiffness = b->line_ea / segment;
    b->mass = b->line_mass_per_length * segment;
    if (!isfinite(b->link_stiffness) || !(b->link_stiffness > 0) || !isfinite(1 / b->mass) || !(b->mass > 0)) {
        sk_scn_path_key(q, p, "segments");
        return sk_scn_fail(c, q, "gives segments whose stiffness EA / (length / segments) or mass is not a "
                                 "finite positive number");
    }
    return 0;
}

/* The link of a line given by EA: its type only (a bungee, as a line takes no compression, where absent). */
static int parse_line_link(const sk_scn_ctx *c, const char *path, json_t *obj, sk_group *g)
{
    static const char *const keys[] = {"type", "damping", "damping_ratio", NULL};
    char p[SK_SCN_PATH_MAX];
    sk_scn_path_key(p, path, "link");
    json_t *l;
    int rc = sk_scn_read_object(c, path, obj, "link", false, &l);
    if (rc)
        return rc;
    g->link = g->deploys ? SK_LINK_SPRING : SK_LINK_BUNGEE; /* deployment's links are springs (section 7) */
    if (!l)
        return 0;
    if (json_object_get(l, "stiffness") || json_object_get(l, "length")) {
        char q[SK_SCN_PATH_MAX];
        sk_scn_path_key(q, p, json_object_get(l, "stiffness") ? "stiffness" : "length");
        return sk_scn_fail(c, q, "not allowed with a line given by EA (line.EA and line.length give it)");
    }
    if ((rc = sk_scn_check_keys(c, p, l, keys)))
        return rc;
    int t;
    if ((rc = sk_scn_read_enum(c, p, l, "type", sk_scn_link_names, -1, &t)))
        return rc;
    g->link = (sk_link_type)(t + 1);
    if (g->link != SK_LINK_SPRING && (g->deploys || g->link != SK_LINK_BUNGEE)) {
        char q[SK_SCN_PATH_MAX];
        sk_scn_path_key(q, p, "type");
        return sk_scn_fail(c, q, g->deploys ? "must be spring for a deploying group"
                                            : "must be spring or bungee for a line given by EA");
    }
    return parse_link_damping(c, p, l, sk_scn_link_names[t], g);
}

/* A line has links (its particles' shares of it); a deploying line given by EA pays out no more line than its
 * reel holds, line.length (water and a compliant seabed are refused for deploying lines in load.c). */
static int check_line(const sk_scn_ctx *c, const char *path, const sk_group *g)
{
    if (!g->has_line)
        return 0;
    char p[SK_SCN_PATH_MAX];
    sk_scn_path_key(p, path, "line");
    if ((g->particles < 2 && !g->deploys) || (g->link != SK_LINK_SPRING && g->link != SK_LINK_BUNGEE))
        return sk_scn_fail(c, p, "needs at least two particles joined by spring or bungee links");
    if (!g->line_by_ea || !g->deploys)
        return 0;
    const sk_rope_params *b = &g->base;
    char q[SK_SCN_PATH_MAX];
    if (g->deploy_has_max_length && b->deploy_max_length > b->line_length) {
        sk_scn_path_key(p, path, "deploy");
        sk_scn_path_key(q, p, "max_length");
        return sk_scn_fail(c, q, "must be at most line.length (" SK_REAL_FMT " m): the line holds no more",
                           b->line_length);
    }
    /* n0 - 1 links and the anchored segment are out at the start */
    const sk_real out = (sk_real)(g->deploy_initial - 1) * b->link_length + b->anchor_length;
    if (out > b->line_length) {
        sk_scn_path_key(p, path, "anchor");
        sk_scn_path_key(q, p, "length");
        return sk_scn_fail(c, q, "puts " SK_REAL_FMT " m of line out at the start (deploy.initial_particles - 1 "
                                 "segments and anchor.length), more than line.length (" SK_REAL_FMT " m)", out,
                           b->line_length);
    }
    return 0;
}

static int parse_link(const sk_scn_ctx *c, const char *path, json_t *obj, sk_group *g)
{
    if (g->line_by_ea)
        return parse_line_link(c, path, obj, g);
    static const char *const keys[] = {"type", "stiffness", "length", "restitution", "damping", "damping_ratio", NULL};
    char p[SK_SCN_PATH_MAX];
    sk_scn_path_key(p, path, "link");
    json_t *l;
    bool needed = g->particles > 1 || g->deploys;
    int rc = sk_scn_read_object(c, path, obj, "link", needed, &l);
    if (rc)
        return rc;
    if (!needed) {
        g->link = SK_LINK_NONE;
        return l ? sk_scn_fail(c, p, "not allowed: a rope of one particle that does not deploy has no links")
                 : 0;
    }
    if ((rc = sk_scn_check_keys(c, p, l, keys)))
        return rc;
    int t;
    if ((rc = sk_scn_read_enum(c, p, l, "type", sk_scn_link_names, -1, &t)))
        return rc;
    g->link = (sk_link_type)(t + 1);
    const char *name = sk_scn_link_names[t];
    char pt[SK_SCN_PATH_MAX];
    sk_scn_path_key(pt, p, "type");
    if (g->deploys && g->link != SK_LINK_SPRING)
        return sk_scn_fail(c, pt, "must be spring for a deploying group");

    char ps[SK_SCN_PATH_MAX];
    sk_scn_path_key(ps, p, "stiffness");
    json_t *stiffness = json_object_get(l, "stiffness");
    if ((g->link == SK_LINK_SPRING || g->link == SK_LINK_BUNGEE) && !stiffness)
        rc = sk_scn_fail(c, ps, "required");
    else if (g->link == SK_LINK_SPRING || g->link == SK_LINK_BUNGEE)
        rc = parse_profile(c, ps, stiffness, g->particles - 1, "link", SK_RANGE_GT0, &g->stiffness_profile,
                           &g->base.link_stiffness, &g->base.link_stiffness_to, &g->stiffness_list);
    else
        rc = not_allowed(c, p, l, "stiffness", name, "link");
    if (rc)
        return rc;

    char pl[SK_SCN_PATH_MAX];
    sk_scn_path_key(pl, p, "length");
    json_t *len = json_object_get(l, "length");
    if (!len || (json_is_string(len) && strcmp(json_string_value(len), "auto") == 0)) {
        g->link_length_auto = true;
        if (sk_group_initial_particles(g) == 1)
            return sk_scn_fail(c, pl,
                               "must be a number: \"auto\" (the default) needs deploy.initial_particles >= 2");
    } else if (!json_is_number(len) && !json_is_array(len) && !json_is_object(len)) {
        return sk_scn_fail(c, pl, "must be > 0, \"auto\", a list of numbers (one per link) or a linear profile {from, to}");
    } else if ((rc = parse_profile(c, pl, len, g->particles - 1, "link", SK_RANGE_GT0, &g->length_profile,
                                   &g->base.link_length, &g->base.link_length_to, &g->length_list))) {
        return rc;
    }

    if ((rc = parse_link_damping(c, p, l, name, g)))
        return rc;
    if (g->link == SK_LINK_CABLE)
        return sk_scn_read_real(c, p, l, "restitution", false, 0, SK_RANGE_UNIT, &g->base.link_restitution);
    return not_allowed(c, p, l, "restitution", name, "link");
}


/* An anchor.motion.path point: its difference from the one before it finite (the interpolation scales it). */
static int point_row(const sk_scn_ctx *c, const char *t, json_t *v, void *values, size_t i)
{
    sk_vec3 *x = values;
    int rc = sk_scn_vec3_value(c, t, v, &x[i]);
    if (rc == 0 && i > 0) {
        const sk_vec3 step = sk_vec3_sub(x[i], x[i - 1]);
        if (!isfinite(step.x) || !isfinite(step.y) || !isfinite(step.z))
            rc = sk_scn_fail(c, t, "too far from the point before it (their difference overflows)");
    }
    return rc;
}

/* anchor.motion.path: {"times": [t0, t1, ...], "points": [[x, y, z], ...]}, as many of each, times strictly
 * increasing (after rounding to the build's real: two times one real apart would make a zero interval). */
static int parse_path(const sk_scn_ctx *c, const char *path, json_t *m, sk_group *g)
{
    static const table_spec spec = {"points", "points", "[x, y, z]", sizeof(sk_vec3), point_row};
    json_t *o;
    int rc = sk_scn_read_object(c, path, m, "path", false, &o);
    if (rc || !o)
        return rc;
    char p[SK_SCN_PATH_MAX];
    sk_scn_path_key(p, path, "path");
    void *points = NULL;
    rc = parse_table(c, p, o, &spec, &g->path_times, &points, &g->path_count);
    g->path_points = points;
    return rc;
}

/* anchor.motion: any of a sine (amplitude and omega, phase optional), a towing velocity and a path; their
 * displacements add up (docs/model.md section 6.5). */
static int parse_motion(const sk_scn_ctx *c, const char *path, json_t *a, sk_group *g)
{
    static const char *const keys[] = {"amplitude", "omega", "phase", "velocity", "path", NULL};
    json_t *m;
    int rc = sk_scn_read_object(c, path, a, "motion", false, &m);
    if (rc || !m)
        return rc;
    char p[SK_SCN_PATH_MAX];
    sk_scn_path_key(p, path, "motion");
    g->anchor_driven = true;
    sk_rope_params *b = &g->base;
    if ((rc = sk_scn_check_keys(c, p, m, keys)))
        return rc;
    g->motion_sine = json_object_get(m, "amplitude") || json_object_get(m, "omega") || json_object_get(m, "phase");
    g->motion_tow = json_object_get(m, "velocity") != NULL;
    if (g->motion_sine &&
        ((rc = sk_scn_read_vec3(c, p, m, "amplitude", true, (sk_vec3){0, 0, 0}, &b->motion_amplitude)) ||
         (rc = sk_scn_read_real(c, p, m, "omega", true, 0, SK_RANGE_ANY, &b->motion_omega)) ||
         (rc = sk_scn_read_real(c, p, m, "phase", false, 0, SK_RANGE_ANY, &b->motion_phase))))
        return rc;
    if ((rc = sk_scn_read_vec3(c, p, m, "velocity", false, (sk_vec3){0, 0, 0}, &b->motion_velocity)) ||
        (rc = parse_path(c, p, m, g)))
        return rc;
    if (!g->motion_sine && !g->motion_tow && g->path_count == 0)
        return sk_scn_fail(c, p, "give a sine (amplitude and omega), a velocity or a path");
    return 0;
}

/* A pin anchor holds particle 0 as a pinned particle (infinite mass: forces, integration and contacts leave
 * it to the anchor): 0 joins `pinned`, which keeps it sorted and unique. */
static int pin_first(const sk_scn_ctx *c, sk_group *g)
{
    if (g->n_pinned > 0 && g->pinned[0] == 0)
        return 0;
    int *p = realloc(g->pinned, ((size_t)g->n_pinned + 1) * sizeof *p);
    if (!p)
        return sk_fail(c->err, SK_ERR_NO_MEMORY, "%s: out of memory", c->name);
    memmove(p + 1, p, (size_t)g->n_pinned * sizeof *p);
    p[0] = 0;
    g->pinned = p;
    g->n_pinned++;
    return 0;
}

static int parse_anchor(const sk_scn_ctx *c, const char *path, json_t *obj, sk_group *g)
{
    static const char *const keys[] = {"type",   "point",       "stiffness", "length",
                                       "damping", "restitution", "motion",    NULL};
    char p[SK_SCN_PATH_MAX];
    sk_scn_path_key(p, path, "anchor");
    json_t *a;
    int rc = sk_scn_read_object(c, path, obj, "anchor", false, &a);
    if (rc)
        return rc;
    if (!a) {
        g->anchor = SK_ANCHOR_NONE;
        return g->deploys ? sk_scn_fail(c, p, "required for a deploying group (type anchored_spring)") : 0;
    }
    if ((rc = sk_scn_check_keys(c, p, a, keys)))
        return rc;
    int t;
    if ((rc = sk_scn_read_enum(c, p, a, "type", sk_scn_anchor_names, -1, &t)))
        return rc;
    g->anchor = (sk_anchor_type)(t + 1);
    const char *name = sk_scn_anchor_names[t];
    if (g->deploys && g->anchor != SK_ANCHOR_SPRING) {
        char pt[SK_SCN_PATH_MAX];
        sk_scn_path_key(pt, p, "type");
        return sk_scn_fail(c, pt, "must be anchored_spring for a deploying group");
    }
    sk_rope_params *b = &g->base;
    if ((rc = sk_scn_read_vec3(c, p, a, "point", true, (sk_vec3){0, 0, 0}, &b->anchor_point)))
        return rc;

    bool rigid = g->anchor == SK_ANCHOR_ROD || g->anchor == SK_ANCHOR_CABLE;
    const bool pin = g->anchor == SK_ANCHOR_PIN;
    if (rigid || pin)
        rc = not_allowed(c, p, a, "stiffness", name, "anchor");
    else if (g->line_by_ea && g->deploys && json_object_get(a, "stiffness")) {
        char q[SK_SCN_PATH_MAX];
        sk_scn_path_key(q, p, "stiffness");
        rc = sk_scn_fail(c, q, "not allowed for a deploying line given by EA (the anchored segment's stiffness is "
                               "line.EA over its rest length)");
    } else if (g->line_by_ea && g->deploys)
        rc = 0; /* sk_group_rope_params sets it */
    else
        rc = sk_scn_read_real(c, p, a, "stiffness", true, 0, SK_RANGE_GT0, &b->anchor_stiffness);
    if (rc)
        return rc;

    if (rigid)
        rc = sk_scn_read_real(c, p, a, "length", true, 0, SK_RANGE_GT0, &b->anchor_length);
    else if (g->anchor == SK_ANCHOR_FAKE_SPRING || pin)
        rc = not_allowed(c, p, a, "length", name, "anchor");
    else
        rc = sk_scn_read_real(c, p, a, "length", false, 0, SK_RANGE_GE0, &b->anchor_length);
    if (rc)
        return rc;

    if (g->anchor == SK_ANCHOR_FAKE_SPRING)
        rc = sk_scn_read_real(c, p, a, "damping", false, 0, SK_RANGE_GE0, &b->anchor_damping);
    else
        rc = not_allowed(c, p, a, "damping", name, "anchor");
    if (rc)
        return rc;

    if (g->anchor == SK_ANCHOR_CABLE)
        rc = sk_scn_read_real(c, p, a, "restitution", false, 0, SK_RANGE_UNIT, &b->anchor_restitution);
    else
        rc = not_allowed(c, p, a, "restitution", name, "anchor");
    if (rc || (pin && (rc = pin_first(c, g))))
        return rc;
    return parse_motion(c, p, a, g);
}

static int parse_forces(const sk_scn_ctx *c, const char *path, json_t *obj, sk_group *g)
{
    static const char *const drag_keys[] = {"k1", "k2", NULL};
    static const char *const buoyancy_keys[] = {"water_height", "max_depth", "density", "volume", NULL};
    sk_rope_params *b = &g->base;
    char p[SK_SCN_PATH_MAX];
    json_t *o;
    int rc = sk_scn_read_object(c, path, obj, "drag", false, &o);
    if (rc)
        return rc;
    if (o) {
        sk_scn_path_key(p, path, "drag");
        g->has_drag = true;
        if ((rc = sk_scn_check_keys(c, p, o, drag_keys)) ||
            (rc = sk_scn_read_real(c, p, o, "k1", false, 0, SK_RANGE_GE0, &b->drag_k1)) ||
            (rc = sk_scn_read_real(c, p, o, "k2", false, 0, SK_RANGE_GE0, &b->drag_k2)))
            return rc;
    }
    if ((rc = sk_scn_read_object(c, path, obj, "buoyancy", false, &o)) || !o)
        return rc;
    sk_scn_path_key(p, path, "buoyancy");
    g->has_buoyancy = true;
    if ((rc = sk_scn_check_keys(c, p, o, buoyancy_keys)) ||
        (rc = sk_scn_read_real(c, p, o, "water_height", false, 0, SK_RANGE_ANY, &b->buoyancy_water_height)) ||
        (rc = sk_scn_read_real(c, p, o, "max_depth", true, 0, SK_RANGE_GT0, &b->buoyancy_max_depth)) ||
        (rc = sk_scn_read_real(c, p, o, "density", false, 1000, SK_RANGE_GE0, &b->buoyancy_density)))
        return rc;
    return sk_scn_read_real(c, p, o, "volume", true, 0, SK_RANGE_GE0, &b->buoyancy_volume);
}

/* The force objects (model/force_objects.h), each read from its rows of SK_FORCE_PARAMS. */
typedef struct force_row {
    int object;
    const char *key;
    bool vec3, required;
    double def;
    sk_scn_range range;
    size_t offset; /* of the member in sk_rope_params */
} force_row;
#define FORCE_ROW(X, kind, member, OBJECT, object, key, units, range, required, def) \
    {SK_FORCE_##OBJECT, key, SK_PARAM_REALS_##kind == 3, required, def, SK_RANGE_##range, offsetof(sk_rope_params, member)},
static const force_row force_rows[] = {SK_FORCE_PARAMS(FORCE_ROW, _)};
#undef FORCE_ROW
#define OBJECT_NAME(NAME, object) object,
static const char *const force_object_names[] = {SK_FORCE_OBJECTS(OBJECT_NAME)};
#undef OBJECT_NAME
enum { FORCE_ROWS = sizeof force_rows / sizeof force_rows[0] };

static int parse_force_objects(const sk_scn_ctx *c, const char *path, json_t *obj, sk_group *g)
{
    for (int f = 0; f < SK_FORCE_OBJECT_COUNT; f++) {
        json_t *o;
        int rc = sk_scn_read_object(c, path, obj, force_object_names[f], false, &o);
        if (rc)
            return rc;
        if (!o)
            continue;
        char p[SK_SCN_PATH_MAX];
        sk_scn_path_key(p, path, force_object_names[f]);
        g->force_objects |= 1u << f;
        const char *keys[FORCE_ROWS + 1];
        int n = 0;
        for (int r = 0; r < FORCE_ROWS; r++)
            if (force_rows[r].object == f)
                keys[n++] = force_rows[r].key;
        keys[n] = NULL;
        if ((rc = sk_scn_check_keys(c, p, o, keys)))
            return rc;
        for (int r = 0; r < FORCE_ROWS; r++) {
            const force_row *row = &force_rows[r];
            char *member = (char *)&g->base + row->offset;
            if (row->object != f)
                continue;
            if (row->vec3) {
                const sk_real d = (sk_real)row->def;
                rc = sk_scn_read_vec3(c, p, o, row->key, row->required, (sk_vec3){d, d, d}, (sk_vec3 *)(void *)member);
            } else {
                rc = sk_scn_read_real(c, p, o, row->key, row->required, row->def, row->range, (sk_real *)(void *)member);
            }
            if (rc)
                return rc;
        }
    }
    return 0;
}

/* Bending stiffness EI between consecutive links (docs/model.md section 3.4): needs links, whose rest
 * length turns EI into each hinge's constant. */
static int parse_bending(const sk_scn_ctx *c, const char *path, json_t *obj, sk_group *g)
{
    static const char *const keys[] = {"stiffness", NULL};
    char p[SK_SCN_PATH_MAX];
    json_t *o;
    int rc = sk_scn_read_object(c, path, obj, "bending", false, &o);
    if (rc || !o)
        return rc;
    sk_scn_path_key(p, path, "bending");
    if (g->link == SK_LINK_NONE)
        return sk_scn_fail(c, p, "not allowed: a rope of one particle that does not deploy has no links to bend");
    g->has_bending = true;
    if ((rc = sk_scn_check_keys(c, p, o, keys)))
        return rc;
    return sk_scn_read_real(c, p, o, "stiffness", true, 0, SK_RANGE_GE0, &g->base.bending_stiffness);
}

int sk_scn_parse_group(const sk_scn_ctx *c, const char *path, json_t *obj, sk_group *g)
{
    if (!json_is_object(obj))
        return sk_scn_fail(c, path, "must be an object");
    int rc = sk_scn_check_keys(c, path, obj, group_keys);
    if (rc)
        return rc;
    long long count, particles;
    sk_rope_params *b = &g->base;
    const sk_vec3 zero = {0, 0, 0};
    if ((rc = sk_scn_read_int(c, path, obj, "count", true, 0, 1, LLONG_MAX, &count)) || (rc = parse_line(c, path, obj, g)))
        return rc;
    if (!g->line_by_ea) {
        if ((rc = sk_scn_read_int(c, path, obj, "particles", true, 0, 1, INT_MAX, &particles)))
            return rc;
        g->particles = (int)particles;
    }
    g->count = (size_t)count;
    if ((rc = sk_scn_read_vec3(c, path, obj, "start", true, zero, &b->start)) ||
        (rc = sk_scn_read_vec3(c, path, obj, "end", true, zero, &b->end)) ||
        (rc = parse_mass(c, path, obj, g)) || (rc = parse_payloads(c, path, obj, g)) ||
        (rc = sk_scn_read_real(c, path, obj, "damping", false, 1, SK_RANGE_UNIT_OPEN0, &b->damping)) ||
        (rc = sk_scn_read_real(c, path, obj, "verlet_damping", false, 0, SK_RANGE_UNIT_OPEN1,
                               &b->verlet_damping)) ||
        (rc = sk_scn_read_vec3(c, path, obj, "velocity", false, zero, &b->velocity)) ||
        (rc = parse_pinned(c, path, obj, g)) || (rc = parse_deploy(c, path, obj, g)) ||
        (rc = parse_link(c, path, obj, g)) || (rc = parse_anchor(c, path, obj, g)) ||
        (rc = parse_forces(c, path, obj, g)) || (rc = parse_force_objects(c, path, obj, g)) || (rc = parse_bending(c, path, obj, g)) ||
        (rc = check_profiles(c, path, g)) || (rc = check_line(c, path, g)))
        return rc;
    if (g->link_length_auto) {
        /* The base holds rope 0's spacing before sweeps; sk_group_rope_params recomputes it per rope. */
        sk_rope_params r0;
        sk_group_rope_params(g, 0, &r0);
        b->link_length = r0.link_length;
    }
    return sk_scn_parse_sweeps(c, path, obj, g);
}
