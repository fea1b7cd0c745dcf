/* Parameter sweeps: which keys a group may sweep, parsing the specs, per-rope values and their checks. */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/params.h"
#include "model/profile.h"
#include "scenario/scenario_impl.h"

#define OFF(field) offsetof(sk_rope_params, field)

/* The sweepable keys: every line of SK_ROPE_PARAMS (model/params.h), a vector's components by index. */
#define SWEEPABLE_REAL(member, key, range, need) {key, OFF(member), SK_RANGE_##range, SK_NEED_##need},
#define SWEEPABLE_VEC3(member, key, range, need)                                                        \
    {key "[0]", OFF(member.x), SK_RANGE_##range, SK_NEED_##need},                                       \
        {key "[1]", OFF(member.y), SK_RANGE_##range, SK_NEED_##need},                                   \
        {key "[2]", OFF(member.z), SK_RANGE_##range, SK_NEED_##need},
#define SWEEPABLE(kind, member, key, units, range, need) SWEEPABLE_##kind(member, key, range, need)
const sk_scn_sweepable sk_scn_sweepables[] = {SK_ROPE_PARAMS(SWEEPABLE)};

/* The table covers sk_rope_params: a member added without its line fails here. */
#define PARAM_REALS(kind, member, key, units, range, need) +SK_PARAM_REALS_##kind
_Static_assert(sizeof(sk_rope_params) == sizeof(sk_real) * (0 SK_ROPE_PARAMS(PARAM_REALS)),
               "every member of sk_rope_params has its line in SK_ROPE_PARAMS (model/params.h)");
const int sk_scn_n_sweepables = (int)(sizeof sk_scn_sweepables / sizeof sk_scn_sweepables[0]);

static const sk_scn_sweepable *find_sweepable(const char *key)
{
    for (int i = 0; i < sk_scn_n_sweepables; i++)
        if (strcmp(sk_scn_sweepables[i].key, key) == 0)
            return &sk_scn_sweepables[i];
    return NULL;
}

/* The sweepable key nearest to a mistyped one, or NULL. */
static const char *nearest_sweepable(const char *key)
{
    const char *keys[sizeof sk_scn_sweepables / sizeof sk_scn_sweepables[0]];
    for (int i = 0; i < sk_scn_n_sweepables; i++)
        keys[i] = sk_scn_sweepables[i].key;
    return sk_scn_nearest(key, keys, sk_scn_n_sweepables);
}

/* Why a key that is not in the table cannot be swept. */
static const char *not_sweepable(const char *key)
{
    static const char *const whole[] = {"count", "particles", "pinned", "link.type", "anchor.type",
                                        "deploy.initial_particles", "deploy.insert_velocity", "sweep",
                                        NULL};
    static const char *const vectors[] = {"start", "end", "velocity", "anchor.point",
                                          "anchor.motion.amplitude", NULL};
    for (int i = 0; whole[i]; i++)
        if (strcmp(key, whole[i]) == 0)
            return "cannot be swept (not a real number)";
    for (int i = 0; vectors[i]; i++)
        if (strcmp(key, vectors[i]) == 0)
            return "name one component, e.g. start[0]";
    return "unknown key";
}

/* Whether the group has the parameter; NULL when it does, else why not. */
static const char *missing(const sk_scn_sweepable *e, const sk_group *g, char *buf, size_t size)
{
    const char *link = g->link ? sk_scn_link_names[g->link - 1] : "";
    const char *anchor = g->anchor ? sk_scn_anchor_names[g->anchor - 1] : "";
    switch (e->need) {
    case SK_NEED_NOTHING: return NULL;
    case SK_NEED_MASS:
        if (g->line_by_ea)
            return "the group's masses are line.mass_per_length's; sweep that";
        return g->mass_profile == SK_PROFILE_LIST ? "the group's mass is a list" : NULL;
    case SK_NEED_MASS_LINEAR:
        return g->mass_profile == SK_PROFILE_LINEAR ? NULL : "the group's mass is not a linear profile {from, to}";
    case SK_NEED_PAYLOAD0:
    case SK_NEED_PAYLOAD1:
    case SK_NEED_PAYLOAD2:
    case SK_NEED_PAYLOAD3:
        return (int)(e->need - SK_NEED_PAYLOAD0) < g->n_payloads ? NULL : "the group has no such payload";
    case SK_NEED_STIFFNESS_LINEAR:
        return g->stiffness_profile == SK_PROFILE_LINEAR ? NULL
                                                         : "the group's link.stiffness is not a linear profile {from, to}";
    case SK_NEED_LENGTH_LINEAR:
        return g->length_profile == SK_PROFILE_LINEAR ? NULL
                                                      : "the group's link.length is not a linear profile {from, to}";
    case SK_NEED_LINK_STIFFNESS:
    case SK_NEED_LINK_LENGTH:
    case SK_NEED_LINK_RESTITUTION:
        if (g->link == SK_LINK_NONE)
            return "the group has no link";
        if (g->line_by_ea && e->need != SK_NEED_LINK_RESTITUTION)
            return "the group's links are line.EA's and line.length's; sweep those";
        if (e->need == SK_NEED_LINK_STIFFNESS && g->link != SK_LINK_SPRING && g->link != SK_LINK_BUNGEE)
            snprintf(buf, size, "%s %s link has no stiffness", sk_scn_article(link), link);
        else if (e->need == SK_NEED_LINK_RESTITUTION && g->link != SK_LINK_CABLE)
            snprintf(buf, size, "%s %s link has no restitution", sk_scn_article(link), link);
        else if (e->need == SK_NEED_LINK_LENGTH && g->link_length_auto)
            return "the group's link.length is \"auto\"; give it a number to sweep it";
        else if (e->need == SK_NEED_LINK_LENGTH && g->length_profile == SK_PROFILE_LIST)
            return "the group's link.length is a list";
        else if (e->need == SK_NEED_LINK_STIFFNESS && g->stiffness_profile == SK_PROFILE_LIST)
            return "the group's link.stiffness is a list";
        else
            return NULL;
        return buf;
    case SK_NEED_LINK_DAMPING:
        return g->has_link_damping && !g->link_damping_by_ratio ? NULL : "the group has no link.damping";
    case SK_NEED_LINK_DAMPING_RATIO:
        return g->has_link_damping && g->link_damping_by_ratio ? NULL : "the group has no link.damping_ratio";
    case SK_NEED_ANCHOR:
    case SK_NEED_ANCHOR_STIFFNESS:
    case SK_NEED_ANCHOR_LENGTH:
    case SK_NEED_ANCHOR_DAMPING:
    case SK_NEED_ANCHOR_RESTITUTION:
    case SK_NEED_MOTION:
    case SK_NEED_TOW:
        if (g->anchor == SK_ANCHOR_NONE)
            return "the group has no anchor";
        if (e->need == SK_NEED_ANCHOR_STIFFNESS && g->line_by_ea && g->deploys)
            return "the anchored segment's stiffness is line.EA over its rest length; sweep line.EA";
        if (e->need == SK_NEED_ANCHOR_STIFFNESS &&
            (g->anchor == SK_ANCHOR_ROD || g->anchor == SK_ANCHOR_CABLE || g->anchor == SK_ANCHOR_PIN))
            snprintf(buf, size, "%s %s anchor has no stiffness", sk_scn_article(anchor), anchor);
        else if (e->need == SK_NEED_ANCHOR_LENGTH && (g->anchor == SK_ANCHOR_FAKE_SPRING || g->anchor == SK_ANCHOR_PIN))
            snprintf(buf, size, "%s %s anchor has no length", sk_scn_article(anchor), anchor);
        else if (e->need == SK_NEED_ANCHOR_DAMPING && g->anchor != SK_ANCHOR_FAKE_SPRING)
            snprintf(buf, size, "%s %s anchor has no damping", sk_scn_article(anchor), anchor);
        else if (e->need == SK_NEED_ANCHOR_RESTITUTION && g->anchor != SK_ANCHOR_CABLE)
            snprintf(buf, size, "%s %s anchor has no restitution", sk_scn_article(anchor), anchor);
        else if (e->need == SK_NEED_MOTION && !g->motion_sine)
            return "the group's anchor has no sine motion (anchor.motion.amplitude and omega)";
        else if (e->need == SK_NEED_TOW && !g->motion_tow)
            return "the group's anchor has no anchor.motion.velocity";
        else
            return NULL;
        return buf;
    case SK_NEED_DRAG: return g->has_drag ? NULL : "the group has no drag";
    case SK_NEED_BUOYANCY: return g->has_buoyancy ? NULL : "the group has no buoyancy";
    case SK_NEED_FRICTION: return NULL; /* a property of the scenario's ground, checked in load.c */
    case SK_NEED_BENDING: return g->has_bending ? NULL : "the group has no bending";
    case SK_NEED_LINE: return g->has_line ? NULL : "the group has no line";
    case SK_NEED_LINE_EA: return g->line_by_ea ? NULL : "the group's line is not given by EA";
    case SK_NEED_DEPLOY_SPEED:
        if (!g->deploys)
            return "the group does not deploy";
        return g->speed_count == 0 ? NULL : "the group's deploy.velocity is a table {times, values}";
    case SK_NEED_MAX_LENGTH:
        if (!g->deploys)
            return "the group does not deploy";
        return g->deploy_has_max_length ? NULL : "the group has no deploy.max_length";
#define NEED_FORCE_OBJECT(NAME, object) \
    case SK_NEED_FORCE_##NAME: return g->force_objects & (1u << SK_FORCE_##NAME) ? NULL : "the group has no " object;
        SK_FORCE_OBJECTS(NEED_FORCE_OBJECT)
#undef NEED_FORCE_OBJECT
    }
    return NULL;
}

static sk_scn_range resolve_range(sk_scn_range r, const sk_group *g)
{
    if (r != SK_RANGE_ANCHOR_LENGTH)
        return r;
    return g->anchor == SK_ANCHOR_ROD || g->anchor == SK_ANCHOR_CABLE ? SK_RANGE_GT0 : SK_RANGE_GE0;
}

/* A number given in a sweep spec: any finite JSON number (the per-rope check judges the values). */
static int read_number(const sk_scn_ctx *c, const char *path, json_t *obj, const char *key, double *out)
{
    char p[SK_SCN_PATH_MAX];
    sk_scn_path_key(p, path, key);
    json_t *v = json_object_get(obj, key);
    if (!v)
        return sk_scn_fail(c, p, "required");
    if (!json_is_number(v))
        return sk_scn_fail(c, p, "must be a number");
    *out = json_number_value(v);
    return 0;
}

static int parse_spec(const sk_scn_ctx *c, const char *path, json_t *spec, const sk_group *g, sk_sweep *sw)
{
    static const char *const keys[] = {"from", "to", "values", "random", NULL};
    static const char *const random_keys[] = {"min", "max", "seed", NULL};
    if (!json_is_object(spec))
        return sk_scn_fail(c, path, "must be an object");
    int rc = sk_scn_check_keys(c, path, spec, keys);
    if (rc)
        return rc;
    json_t *values = json_object_get(spec, "values"), *random = json_object_get(spec, "random");
    bool linear = json_object_get(spec, "from") || json_object_get(spec, "to");
    if (linear + !!values + !!random != 1)
        return sk_scn_fail(c, path, "give one of: from and to, values, random");
    char p[SK_SCN_PATH_MAX];
    if (linear) {
        sw->kind = SK_SWEEP_LINEAR;
        if ((rc = read_number(c, path, spec, "from", &sw->from)))
            return rc;
        return read_number(c, path, spec, "to", &sw->to);
    }
    if (values) {
        sw->kind = SK_SWEEP_VALUES;
        sk_scn_path_key(p, path, "values");
        if (!json_is_array(values))
            return sk_scn_fail(c, p, "must be an array of numbers, one per rope");
        size_t n = json_array_size(values);
        if (n != g->count)
            return sk_scn_fail(c, p, "must hold %zu numbers (one per rope), not %zu", g->count, n);
        sw->values = malloc(n * sizeof *sw->values);
        if (!sw->values)
            return sk_fail(c->err, SK_ERR_NO_MEMORY, "%s: out of memory", c->name);
        for (size_t i = 0; i < n; i++) {
            json_t *v = json_array_get(values, i);
            if (!json_is_number(v)) {
                char pi[SK_SCN_PATH_MAX];
                sk_scn_path_index(pi, p, i);
                return sk_scn_fail(c, pi, "must be a number");
            }
            sw->values[i] = json_number_value(v);
        }
        return 0;
    }
    sw->kind = SK_SWEEP_RANDOM;
    sk_scn_path_key(p, path, "random");
    if (!json_is_object(random))
        return sk_scn_fail(c, p, "must be an object");
    long long seed;
    if ((rc = sk_scn_check_keys(c, p, random, random_keys)) ||
        (rc = read_number(c, p, random, "min", &sw->min)) ||
        (rc = read_number(c, p, random, "max", &sw->max)) ||
        (rc = sk_scn_read_int(c, p, random, "seed", true, 0, 0, LLONG_MAX, &seed)))
        return rc;
    sw->seed = (uint64_t)seed;
    return 0;
}

int sk_scn_parse_sweeps(const sk_scn_ctx *c, const char *path, json_t *obj, sk_group *g)
{
    json_t *so;
    int rc = sk_scn_read_object(c, path, obj, "sweep", false, &so);
    if (rc || !so || json_object_size(so) == 0)
        return rc;
    char p[SK_SCN_PATH_MAX];
    sk_scn_path_key(p, path, "sweep");
    g->sweeps = calloc(json_object_size(so), sizeof *g->sweeps);
    if (!g->sweeps)
        return sk_fail(c->err, SK_ERR_NO_MEMORY, "%s: out of memory", c->name);
    const char *key;
    json_t *spec;
    json_object_foreach(so, key, spec) {
        char pk[SK_SCN_PATH_MAX], why[160];
        sk_scn_path_key(pk, p, key);
        const sk_scn_sweepable *e = find_sweepable(key);
        if (!e) {
            const char *why_not = not_sweepable(key);
            const char *near = strcmp(why_not, "unknown key") == 0 ? nearest_sweepable(key) : NULL;
            if (near)
                return sk_scn_fail(c, pk, "unknown key; did you mean \"%s\"?", near);
            return sk_scn_fail(c, pk, "%s", why_not);
        }
        const char *no = missing(e, g, why, sizeof why);
        if (no)
            return sk_scn_fail(c, pk, "%s", no);
        sk_sweep *sw = &g->sweeps[g->n_sweeps++];
        sw->offset = e->offset;
        sw->key = strdup(key);
        if (!sw->key)
            return sk_fail(c->err, SK_ERR_NO_MEMORY, "%s: out of memory", c->name);
        if ((rc = parse_spec(c, pk, spec, g, sw)))
            return rc;
    }
    return 0;
}

static bool sweeps_ends(const sk_group *g)
{
    for (int i = 0; i < g->n_sweeps; i++) {
        size_t o = g->sweeps[i].offset;
        if (o - OFF(start) < sizeof(sk_vec3) || o - OFF(end) < sizeof(sk_vec3)) /* unsigned: below wraps */
            return true;
    }
    return false;
}

/* rope < 0: the unswept base, whose spacing every rope shares. */
static int check_auto_length(const sk_scn_ctx *c, const char *path, sk_real len, long long rope)
{
    if (isfinite(len) && len > 0)
        return 0;
    char p[SK_SCN_PATH_MAX], which[48] = "";
    sk_scn_path_key(p, path, "link.length");
    if (rope >= 0)
        snprintf(which, sizeof which, " for rope %lld", rope);
    if (len == 0)
        return sk_scn_fail(c, p, "\"auto\" gives a zero spacing%s (start == end); give a number", which);
    return sk_scn_fail(c, p, "\"auto\" gives a spacing%s out of range for %s", which, SK_REAL_NAME);
}

/* A rest length whose square is not a normal number makes the strain (|d| - L) / L and the divergence bound
 * (L (1 + max_strain))^2 overflow or vanish, so that the rope diverges at its first check; with bending, EI / L
 * must stay finite too. */
static int check_link_lengths(const sk_scn_ctx *c, const char *path, const sk_group *g)
{
    if (g->link == SK_LINK_NONE || g->particles < 2)
        return 0;
    for (size_t r = 0; r < (g->n_sweeps > 0 ? g->count : 1); r++) {
        sk_rope_params rp;
        sk_group_rope_params(g, r, &rp);
        for (int i = 0; i + 1 < g->particles; i++) {
            sk_real len = rp.link_length;
            if (g->length_profile == SK_PROFILE_LIST)
                len = g->length_list[i];
            else if (g->length_profile == SK_PROFILE_LINEAR)
                len = sk_profile_linear(rp.link_length, rp.link_length_to, i, g->particles - 1);
            const sk_real sq = len * len;
            const bool bends = g->has_bending && !isfinite(rp.bending_stiffness / len);
            /* an "auto" spacing that is not positive has a message of its own (check_auto_length) */
            if ((g->link_length_auto && !(len > 0)) || (len > 0 && isnormal(sq) && isfinite(sq) && !bends))
                continue;
            char p[SK_SCN_PATH_MAX], which[64] = "";
            sk_scn_path_key(p, path, "link.length");
            if (g->n_sweeps > 0 || g->length_profile != SK_PROFILE_NONE)
                snprintf(which, sizeof which, " (link %d of rope %zu)", i, r);
            return sk_scn_fail(c, p, SK_REAL_FMT " m%s is too %s for %s: the %s would overflow", len, which,
                               len < 1 ? "short" : "long", SK_REAL_NAME,
                               bends ? "bending constant EI / L" : "strain and the divergence bound");
        }
    }
    return 0;
}

int sk_scn_check_ropes(const sk_scn_ctx *c, const char *path, const sk_group *g)
{
    int lrc = check_link_lengths(c, path, g);
    if (lrc)
        return lrc;
    char ps[SK_SCN_PATH_MAX];
    sk_scn_path_key(ps, path, "sweep");
    for (int i = 0; i < g->n_sweeps; i++) {
        const sk_sweep *sw = &g->sweeps[i];
        sk_scn_range range = resolve_range(find_sweepable(sw->key)->range, g);
        char p[SK_SCN_PATH_MAX];
        sk_scn_path_key(p, ps, sw->key);
        for (size_t r = 0; r < g->count; r++) {
            double v = sk_scn_sweep_value(sw, r, g->count);
            if (!sk_scn_fits_real(v))
                return sk_scn_fail(c, p, "value %g for rope %zu is out of range for %s", v, r, SK_REAL_NAME);
            sk_real x = (sk_real)v;
            if (!sk_scn_range_ok(range, (double)x))
                return sk_scn_fail(c, p, "value " SK_REAL_FMT " for rope %zu %s", x, r,
                                   sk_scn_range_text(range, (double)x));
        }
    }
    if (g->has_profiles) {
        /* every particle's mass (profile plus payloads) and every link's constants, per rope where swept */
        for (size_t r = 0; r < (g->n_sweeps > 0 ? g->count : 1); r++) {
            sk_rope_params rp;
            sk_group_rope_params(g, r, &rp);
            for (int i = 0; i < g->particles; i++) {
                sk_real m = sk_rope_particle_mass(g, &rp, i);
                if (!sk_scn_range_ok(SK_RANGE_MASS, (double)m))
                    return sk_scn_fail(c, path, "particle %d of rope %zu has mass " SK_REAL_FMT ", which %s", i, r,
                                       m, sk_scn_range_text(SK_RANGE_MASS, (double)m));
            }
        }
    }
    if (!g->link_length_auto)
        return 0;
    if (!sweeps_ends(g))
        return check_auto_length(c, path, g->base.link_length, -1);
    for (size_t r = 0; r < g->count; r++) {
        sk_rope_params rp;
        sk_group_rope_params(g, r, &rp);
        int rc = check_auto_length(c, path, rp.link_length, (long long)r);
        if (rc)
            return rc;
    }
    return 0;
}
