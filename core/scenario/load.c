/* Loading a scenario file: JSON syntax, overrides, the top-level keys, output selection, and the order of
 * checks (structure, memory, then per-rope values). */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/ground.h"
#include "scenario/scenario_impl.h"

static const char *const top_keys[] = {"skein",      "dt",     "steps",      "duration", "integrator",
                                       "gravity",    "gravity_as", "ground", "iterations", "implicit",
                                       "resolver",   "direct",
                                       "flow",       "divergence", "groups", "output", "initial", "water", NULL};

static int oom(const sk_scn_ctx *c) { return sk_fail(c->err, SK_ERR_NO_MEMORY, "%s: out of memory", c->name); }

static int parse_steps(const sk_scn_ctx *c, json_t *root, sk_scenario *s)
{
    json_t *steps = json_object_get(root, "steps"), *duration = json_object_get(root, "duration");
    if (steps && duration)
        return sk_scn_fail(c, "duration", "give steps or duration, not both");
    if (!steps && !duration)
        return sk_scn_fail(c, "steps", "required (or duration)");
    if (steps) {
        long long n;
        int rc = sk_scn_int_value(c, "steps", steps, 0, LONG_MAX, &n);
        s->steps = (long)n;
        return rc;
    }
    if (!json_is_number(duration) || !(json_number_value(duration) >= 0))
        return sk_scn_fail(c, "duration", "must be >= 0 (seconds)");
    /* Rounded from the numbers as written, so a float build takes as many steps as a double one. */
    double n = json_number_value(duration) / json_number_value(json_object_get(root, "dt"));
    if (!(n < 0x1p62))
        return sk_scn_fail(c, "duration", "gives too many steps");
    s->steps = (long)llround(n);
    return 0;
}

/* Coulomb friction on the ground's contacts: both coefficients, kinetic at most static, which is what keeps
 * a slip from reversing the sliding (it slips only faster than mu_s dvn, and loses mu_k dvn: model.md 4.2). */
static int parse_friction(const sk_scn_ctx *c, json_t *g, sk_scenario *s)
{
    static const char *const keys[] = {"static", "kinetic", NULL};
    json_t *f;
    int rc = sk_scn_read_object(c, "ground", g, "friction", false, &f);
    if (rc || !f)
        return rc;
    s->has_friction = true;
    if ((rc = sk_scn_check_keys(c, "ground.friction", f, keys)) ||
        (rc = sk_scn_read_real(c, "ground.friction", f, "static", true, 0, SK_RANGE_GE0,
                               &s->ground_friction_static)) ||
        (rc = sk_scn_read_real(c, "ground.friction", f, "kinetic", true, 0, SK_RANGE_GE0,
                               &s->ground_friction_kinetic)))
        return rc;
    if (!(s->ground_friction_kinetic <= s->ground_friction_static))
        return sk_scn_fail(c, "ground.friction.kinetic", "must be <= ground.friction.static (" SK_REAL_FMT ")",
                           s->ground_friction_static);
    return 0;
}

static int parse_ground(const sk_scn_ctx *c, json_t *root, sk_scenario *s)
{
    static const char *const keys[] = {"height", "restitution", "friction", "stiffness", "damping", "slip_speed", NULL};
    json_t *g;
    s->ground_slip_speed = (sk_real)0.01;
    int rc = sk_scn_read_object(c, "", root, "ground", false, &g);
    if (rc || !g)
        return rc;
    s->has_ground = true;
    /* A stiffness makes the ground a compliant seabed for lines (docs/model.md section 3.7): forces, not
     * contacts, so no restitution; damping and the friction's slip speed are its own. */
    s->ground_compliant = json_object_get(g, "stiffness") != NULL;
    if ((rc = sk_scn_check_keys(c, "ground", g, keys)) ||
        (rc = sk_scn_read_real(c, "ground", g, "height", false, 0, SK_RANGE_ANY, &s->ground_height)))
        return rc;
    static const char *const rigid_only[] = {"restitution"}, *const compliant_only[] = {"damping", "slip_speed"};
    if (s->ground_compliant && json_object_get(g, rigid_only[0]))
        return sk_scn_fail(c, "ground.restitution", "not allowed for a compliant ground (ground.stiffness given)");
    for (int k = 0; k < 2 && !s->ground_compliant; k++)
        if (json_object_get(g, compliant_only[k])) {
            char p[SK_SCN_PATH_MAX];
            sk_scn_path_key(p, "ground", compliant_only[k]);
            return sk_scn_fail(c, p, "needs ground.stiffness (a compliant ground)");
        }
    if (s->ground_compliant &&
        ((rc = sk_scn_read_real(c, "ground", g, "stiffness", true, 0, SK_RANGE_GT0, &s->ground_stiffness)) ||
         (rc = sk_scn_read_real(c, "ground", g, "damping", false, 0, SK_RANGE_GE0, &s->ground_damping)) ||
         (rc = sk_scn_read_real(c, "ground", g, "slip_speed", false, (sk_real)0.01, SK_RANGE_GT0,
                                &s->ground_slip_speed))))
        return rc;
    if (!s->ground_compliant &&
        (rc = sk_scn_read_real(c, "ground", g, "restitution", false, 0, SK_RANGE_UNIT, &s->ground_restitution)))
        return rc;
    return parse_friction(c, g, s);
}

/* Lines in water and on a compliant seabed (docs/model.md 3.6-3.7) are refused with contacts, and a compliant
 * ground needs lines to act on. */
static int check_lines(const sk_scn_ctx *c, const sk_scenario *s)
{
    for (int i = 0; i < s->n_groups; i++) {
        const sk_group *g = &s->groups[i];
        char p[SK_SCN_PATH_MAX];
        sk_scn_path_index(p, "groups", (size_t)i);
        if (sk_scenario_compliant_ground(s) && !g->has_line)
            return sk_scn_fail(c, "ground.stiffness", "a compliant ground acts on lines: give %s a line (its diameter)",
                               p);
        char pl[SK_SCN_PATH_MAX];
        sk_scn_path_key(pl, p, "line");
        if (!sk_group_line_in_medium(s, g))
            continue;
        if (sk_group_has_contacts(s, g))
            return sk_scn_fail(c, pl, "not supported with contacts (rod or cable links or anchor, a rigid ground)");
    }
    return 0;
}

/* The implicit integrator's options; read whatever the integrator, so that switching integrators with --set
 * leaves the file valid, and used only by "implicit". The tolerance is BDF2's: euler iterates a fixed count. */
static int parse_implicit(const sk_scn_ctx *c, json_t *root, sk_scenario *s)
{
    static const char *const keys[] = {"scheme", "iterations", "tolerance", NULL};
    json_t *o;
    int scheme = SK_IMPLICIT_EULER;
    long long iterations = 1;
    s->implicit_tolerance = (sk_real)SK_DEFAULT_BDF2_TOLERANCE;
    int rc = sk_scn_read_object(c, "", root, "implicit", false, &o);
    if (!rc && o && !(rc = sk_scn_check_keys(c, "implicit", o, keys)) &&
        !(rc = sk_scn_read_enum(c, "implicit", o, "scheme", sk_scn_implicit_scheme_names, SK_IMPLICIT_EULER,
                                &scheme))) {
        const bool bdf2 = scheme == SK_IMPLICIT_BDF2;
        if (!bdf2 && json_object_get(o, "tolerance"))
            rc = sk_scn_fail(c, "implicit.tolerance", "only with \"scheme\": \"bdf2\" (euler iterates a fixed count)");
        if (!rc)
            rc = sk_scn_read_int(c, "implicit", o, "iterations", false, bdf2 ? SK_DEFAULT_BDF2_ITERATIONS : 1, 1,
                                 SK_MAX_IMPLICIT_ITERATIONS, &iterations);
        if (!rc && bdf2)
            rc = sk_scn_read_real(c, "implicit", o, "tolerance", false, SK_DEFAULT_BDF2_TOLERANCE, SK_RANGE_GT0,
                                  &s->implicit_tolerance);
    }
    s->implicit_scheme = (sk_implicit_scheme)scheme;
    s->implicit_iterations = (int)iterations;
    return rc;
}

/* What BDF2 is not built for: it keeps each particle's previous state, which a deploying rope's inserted
 * particles lack; contacts change the state between steps outside its recurrence; the fake spring's force is
 * written for steps of dt. Refused naming the first such group. */
static int check_bdf2(const sk_scn_ctx *c, const sk_scenario *s)
{
    if (s->integrator != SK_INTEGRATOR_IMPLICIT || s->implicit_scheme != SK_IMPLICIT_BDF2)
        return 0;
    for (int i = 0; i < s->n_groups; i++) {
        const sk_group *g = &s->groups[i];
        const char *why = g->deploys                          ? "deploy"
                          : sk_group_has_contacts(s, g)        ? "contacts (rods, cables, the ground)"
                          : g->anchor == SK_ANCHOR_FAKE_SPRING ? "a fake_spring anchor"
                                                               : NULL;
        if (why) {
            char p[SK_SCN_PATH_MAX];
            sk_scn_path_index(p, "groups", (size_t)i);
            return sk_scn_fail(c, "implicit.scheme", "bdf2 does not take %s (%s)", why, p);
        }
    }
    return 0;
}

/* The direct solver's options; read whatever the resolver, as the implicit integrator's are. */
static int parse_direct(const sk_scn_ctx *c, json_t *root, sk_scenario *s)
{
    static const char *const keys[] = {"iterations", "tolerance", NULL};
    json_t *o;
    long long iterations = SK_DEFAULT_DIRECT_ITERATIONS;
    s->direct_tolerance = (sk_real)SK_DEFAULT_DIRECT_TOLERANCE;
    int resolver;
    int rc = sk_scn_read_enum(c, "", root, "resolver", sk_scn_resolver_names, SK_RESOLVER_CYCLONE, &resolver);
    if (!rc)
        rc = sk_scn_read_object(c, "", root, "direct", false, &o);
    if (!rc && o && !(rc = sk_scn_check_keys(c, "direct", o, keys)))
        if (!(rc = sk_scn_read_int(c, "direct", o, "iterations", false, SK_DEFAULT_DIRECT_ITERATIONS, 1,
                                   SK_MAX_DIRECT_ITERATIONS, &iterations)))
            rc = sk_scn_read_real(c, "direct", o, "tolerance", false, SK_DEFAULT_DIRECT_TOLERANCE, SK_RANGE_UNIT,
                                  &s->direct_tolerance);
    s->resolver = (sk_resolver)resolver;
    s->direct_iterations = (int)iterations;
    return rc;
}

/* The fluid drag acts against (before the groups: it is every group's base value). */
static int parse_flow(const sk_scn_ctx *c, json_t *root, sk_scenario *s)
{
    static const char *const keys[] = {"velocity", "gradient", NULL};
    json_t *o;
    int rc = sk_scn_read_object(c, "", root, "flow", false, &o);
    if (rc || !o)
        return rc;
    s->has_flow = true;
    if ((rc = sk_scn_check_keys(c, "flow", o, keys)) ||
        (rc = sk_scn_read_vec3(c, "flow", o, "velocity", false, (sk_vec3){0, 0, 0}, &s->flow_velocity)))
        return rc;
    return sk_scn_read_vec3(c, "flow", o, "gradient", false, (sk_vec3){0, 0, 0}, &s->flow_gradient);
}

/* Each group's flow: the scenario's as its base values, and relative velocities in its drag where the scenario
 * has a flow or the group sweeps one. */
static void apply_flow(sk_scenario *s)
{
    for (int i = 0; i < s->n_groups; i++) {
        sk_group *g = &s->groups[i];
        g->base.flow_velocity = s->flow_velocity;
        g->base.flow_gradient = s->flow_gradient;
        bool swept = false;
        for (int k = 0; k < g->n_sweeps; k++)
            swept = swept || strncmp(g->sweeps[k].key, "flow.", 5) == 0;
        g->has_flow = g->has_drag && (s->has_flow || swept);
    }
}

/* Each group's friction coefficients: the ground's as its base values. A group may sweep them only where the
 * ground has friction (off by default, so that both resolvers are untouched). */
static int apply_friction(const sk_scn_ctx *c, sk_scenario *s)
{
    for (int i = 0; i < s->n_groups; i++) {
        sk_group *g = &s->groups[i];
        g->base.ground_friction_static = s->ground_friction_static;
        g->base.ground_friction_kinetic = s->ground_friction_kinetic;
        for (int k = 0; k < g->n_sweeps && !s->has_friction; k++)
            if (strncmp(g->sweeps[k].key, "ground.friction.", 16) == 0) {
                char p[SK_SCN_PATH_MAX], ps[SK_SCN_PATH_MAX];
                sk_scn_path_index(p, "groups", (size_t)i);
                sk_scn_path_key(ps, p, "sweep");
                sk_scn_path_key(p, ps, g->sweeps[k].key);
                return sk_scn_fail(c, p, "the scenario's ground has no friction (ground.friction)");
            }
    }
    return 0;
}

/* Every rope's kinetic coefficient at most its static one, where a group sweeps either (after the memory
 * check: it takes time in proportion to the rope count). */
static int check_friction(const sk_scn_ctx *c, const sk_scenario *s)
{
    for (int i = 0; s->has_friction && i < s->n_groups; i++) {
        const sk_group *g = &s->groups[i];
        const sk_sweep *swept = NULL;
        for (int k = 0; k < g->n_sweeps; k++)
            if (strncmp(g->sweeps[k].key, "ground.friction.", 16) == 0)
                swept = &g->sweeps[k];
        if (!swept)
            continue;
        for (size_t r = 0; r < g->count; r++) {
            sk_rope_params rp;
            sk_group_rope_params(g, r, &rp);
            if (!(rp.ground_friction_kinetic <= rp.ground_friction_static)) {
                char p[SK_SCN_PATH_MAX], ps[SK_SCN_PATH_MAX];
                sk_scn_path_index(p, "groups", (size_t)i);
                sk_scn_path_key(ps, p, "sweep");
                sk_scn_path_key(p, ps, swept->key);
                return sk_scn_fail(c, p,
                                   "rope %zu has ground.friction.kinetic " SK_REAL_FMT
                                   " > ground.friction.static " SK_REAL_FMT,
                                   r, rp.ground_friction_kinetic, rp.ground_friction_static);
            }
        }
    }
    return 0;
}

/* A warm start's file and frame. The file is only named here (the scenario layer opens no HDF5): a relative
 * name is taken from the scenario file's folder, as a user moving both together expects. */
/* "initial": {"equilibrium": true, "tolerance", "iterations"}: every rope solved for rest before step 0. */
static int parse_equilibrium(const sk_scn_ctx *c, json_t *o, sk_scenario *s)
{
    json_t *eq = json_object_get(o, "equilibrium");
    if (!json_is_boolean(eq))
        return sk_scn_fail(c, "initial.equilibrium", "must be true or false");
    if (json_object_get(o, "from") || json_object_get(o, "frame"))
        return sk_scn_fail(c, "initial.equilibrium", "give from (a warm start) or equilibrium, not both");
    s->initial_equilibrium = json_is_true(eq);
    long long iterations;
    int rc = sk_scn_read_real(c, "initial", o, "tolerance", false, SK_DEFAULT_EQUILIBRIUM_TOLERANCE, SK_RANGE_GT0,
                              &s->equilibrium_tolerance);
    if (!rc)
        rc = sk_scn_read_int(c, "initial", o, "iterations", false, SK_DEFAULT_EQUILIBRIUM_ITERATIONS, 1,
                             SK_MAX_EQUILIBRIUM_ITERATIONS, &iterations);
    s->equilibrium_iterations = (int)iterations;
    return rc;
}

/* What the equilibrium solve is not built for: the fake spring, a force written for steps of dt. */
static int check_equilibrium(const sk_scn_ctx *c, const sk_scenario *s)
{
    for (int i = 0; s->initial_equilibrium && i < s->n_groups; i++)
        if (s->groups[i].anchor == SK_ANCHOR_FAKE_SPRING) {
            char p[SK_SCN_PATH_MAX];
            sk_scn_path_index(p, "groups", (size_t)i);
            return sk_scn_fail(c, "initial.equilibrium", "does not take a fake_spring anchor (%s)", p);
        }
    return 0;
}

static int parse_initial(const sk_scn_ctx *c, json_t *root, sk_scenario *s)
{
    static const char *const keys[] = {"from", "frame", "equilibrium", "tolerance", "iterations", NULL};
    json_t *o;
    int rc = sk_scn_read_object(c, "", root, "initial", false, &o);
    if (rc || !o)
        return rc;
    if ((rc = sk_scn_check_keys(c, "initial", o, keys)))
        return rc;
    s->equilibrium_tolerance = (sk_real)SK_DEFAULT_EQUILIBRIUM_TOLERANCE;
    s->equilibrium_iterations = SK_DEFAULT_EQUILIBRIUM_ITERATIONS;
    if (json_object_get(o, "equilibrium"))
        return parse_equilibrium(c, o, s);
    if (json_object_get(o, "tolerance") || json_object_get(o, "iterations"))
        return sk_scn_fail(c, json_object_get(o, "tolerance") ? "initial.tolerance" : "initial.iterations",
                           "only with \"equilibrium\": true");
    /* any integer: the file, opened when the run is built, says which frames it holds */
    json_t *at = json_object_get(o, "frame");
    if (at && (!json_is_integer(at) || json_integer_value(at) < -LONG_MAX))
        return sk_scn_fail(c, "initial.frame",
                           "must be an integer (a frame of the file; negative counts from the end)");
    const long long frame = at ? json_integer_value(at) : -1;
    json_t *from = json_object_get(o, "from");
    if (!from)
        return sk_scn_fail(c, "initial.from", "required (the HDF5 output of an earlier run)");
    if (!json_is_string(from) || json_string_length(from) == 0 ||
        strlen(json_string_value(from)) != json_string_length(from))
        return sk_scn_fail(c, "initial.from", "must be a file name");
    const char *name = json_string_value(from), *slash = strrchr(c->name, '/');
    const size_t dir = name[0] == '/' || !slash ? 0 : (size_t)(slash - c->name) + 1;
    s->has_initial = true;
    s->initial_frame = (long)frame;
    s->initial_from = strdup(name);
    s->initial_path = malloc(dir + strlen(name) + 1);
    if (!s->initial_from || !s->initial_path)
        return oom(c);
    memcpy(s->initial_path, c->name, dir);
    strcpy(s->initial_path + dir, name);
    return 0;
}

/* The bounds beyond which a rope counts as diverged: generous defaults that no sane run reaches. */
static int parse_divergence(const sk_scn_ctx *c, json_t *root, sk_scenario *s)
{
    static const char *const keys[] = {"max_speed", "max_strain", NULL};
    json_t *d;
    int rc = sk_scn_read_object(c, "", root, "divergence", false, &d);
    if (rc)
        return rc;
    if (!d) {
        s->max_speed = (sk_real)SK_DEFAULT_MAX_SPEED;
        s->max_strain = (sk_real)SK_DEFAULT_MAX_STRAIN;
        return 0;
    }
    if ((rc = sk_scn_check_keys(c, "divergence", d, keys)) ||
        (rc = sk_scn_read_real(c, "divergence", d, "max_speed", false, SK_DEFAULT_MAX_SPEED, SK_RANGE_GT0,
                               &s->max_speed)))
        return rc;
    return sk_scn_read_real(c, "divergence", d, "max_strain", false, SK_DEFAULT_MAX_STRAIN, SK_RANGE_GT0,
                            &s->max_strain);
}

static int parse_groups(const sk_scn_ctx *c, json_t *root, sk_scenario *s)
{
    json_t *a = json_object_get(root, "groups");
    if (!a)
        return sk_scn_fail(c, "groups", "required");
    if (!json_is_array(a) || json_array_size(a) == 0)
        return sk_scn_fail(c, "groups", "must be a non-empty array of groups");
    size_t n = json_array_size(a);
    if (n > INT_MAX)
        return sk_scn_fail(c, "groups", "too many groups");
    s->groups = calloc(n, sizeof *s->groups);
    if (!s->groups)
        return oom(c);
    s->n_groups = (int)n;
    size_t total = 0;
    for (size_t i = 0; i < n; i++) {
        char p[SK_SCN_PATH_MAX];
        sk_scn_path_index(p, "groups", i);
        sk_group *g = &s->groups[i];
        int rc = sk_scn_parse_group(c, p, json_array_get(a, i), g);
        if (rc)
            return rc;
        g->first_rope = total;
        /* Saturates: the memory check rejects such a batch before anything depends on the total. */
        if (__builtin_add_overflow(total, g->count, &total))
            total = SIZE_MAX;
    }
    s->total_ropes = total;
    return 0;
}

static int cmp_size(const void *a, const void *b)
{
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    return (x > y) - (x < y);
}

static int parse_output(const sk_scn_ctx *c, json_t *root, sk_scenario *s)
{
    static const char *const keys[] = {"every", "ropes", NULL};
    json_t *o;
    int rc = sk_scn_read_object(c, "", root, "output", false, &o);
    if (rc)
        return rc;
    long long every = s->steps > 0 ? s->steps : 1;
    if (o && ((rc = sk_scn_check_keys(c, "output", o, keys)) ||
              (rc = sk_scn_read_int(c, "output", o, "every", false, every, 1, LONG_MAX, &every))))
        return rc;
    s->output_every = (long)every;
    json_t *ropes = o ? json_object_get(o, "ropes") : NULL;
    if (!ropes) {
        s->n_output_ropes = s->total_ropes; /* filled in after the memory check */
        return 0;
    }
    if (!json_is_array(ropes))
        return sk_scn_fail(c, "output.ropes", "must be an array of rope indices");
    size_t n = json_array_size(ropes);
    /* Never NULL once given, even empty: NULL means "every rope" to the memory estimate. */
    s->output_ropes = malloc((n ? n : 1) * sizeof *s->output_ropes);
    if (!s->output_ropes)
        return oom(c);
    long long last = s->total_ropes > (size_t)LLONG_MAX ? LLONG_MAX : (long long)s->total_ropes - 1;
    if (c->opt && c->opt->output_ropes_replaced) /* kept as given: the normalised text is the file's either way */
        last = LLONG_MAX;
    for (size_t i = 0; i < n; i++) {
        char p[SK_SCN_PATH_MAX];
        sk_scn_path_index(p, "output.ropes", i);
        long long r;
        if ((rc = sk_scn_int_value(c, p, json_array_get(ropes, i), 0, last, &r)))
            return rc;
        s->output_ropes[i] = (size_t)r;
    }
    qsort(s->output_ropes, n, sizeof *s->output_ropes, cmp_size);
    size_t kept = 0;
    for (size_t i = 0; i < n; i++)
        if (kept == 0 || s->output_ropes[kept - 1] != s->output_ropes[i])
            s->output_ropes[kept++] = s->output_ropes[i];
    s->n_output_ropes = kept;
    return 0;
}

static int validate(const sk_scn_ctx *c, json_t *root, sk_scenario *s)
{
    if (!json_is_object(root))
        return sk_fail(c->err, SK_ERR_INVALID, "%s: the scenario must be a JSON object", c->name);
    int rc = sk_scn_check_keys(c, "", root, top_keys);
    if (rc)
        return rc;
    json_t *version = json_object_get(root, "skein");
    if (!version)
        return sk_scn_fail(c, "skein", "required (the format version, 1)");
    if (!json_is_integer(version) || json_integer_value(version) != 1)
        return sk_scn_fail(c, "skein", "must be 1");
    long long iterations;
    int integrator, gravity_as;
    if ((rc = sk_scn_read_real(c, "", root, "dt", true, 0, SK_RANGE_TIME_STEP, &s->dt)) ||
        (rc = parse_steps(c, root, s)) ||
        (rc = sk_scn_read_enum(c, "", root, "integrator", sk_scn_integrator_names, SK_INTEGRATOR_SYMPLECTIC,
                               &integrator)) ||
        (rc = sk_scn_read_vec3(c, "", root, "gravity", false, (sk_vec3){0, (sk_real)-9.81, 0}, &s->gravity)) ||
        (rc = sk_scn_read_enum(c, "", root, "gravity_as", sk_scn_gravity_as_names, SK_GRAVITY_ACCELERATION,
                               &gravity_as)) ||
        (rc = parse_ground(c, root, s)) || (rc = sk_scn_parse_water(c, root, s)) ||
        (rc = sk_scn_read_int(c, "", root, "iterations", false, 0, 0, INT_MAX, &iterations)) ||
        (rc = parse_implicit(c, root, s)) || (rc = parse_direct(c, root, s)) || (rc = parse_flow(c, root, s)) ||
        (rc = parse_divergence(c, root, s)) || (rc = parse_groups(c, root, s)) || (rc = parse_output(c, root, s)) ||
        (rc = parse_initial(c, root, s)))
        return rc;
    s->integrator = (sk_integrator)integrator;
    s->gravity_as = (sk_gravity_mode)gravity_as;
    s->iterations = (int)iterations;
    apply_flow(s);
    if ((rc = apply_friction(c, s)) || (rc = check_bdf2(c, s)) || (rc = check_equilibrium(c, s)) ||
        (rc = check_lines(c, s)))
        return rc;

    /* Before anything in proportion to the rope count, in time or memory. */
    if ((rc = sk_scn_check_memory(c, s)))
        return rc;
    for (int i = 0; i < s->n_groups; i++) {
        char p[SK_SCN_PATH_MAX];
        sk_scn_path_index(p, "groups", (size_t)i);
        if ((rc = sk_scn_check_ropes(c, p, &s->groups[i])))
            return rc;
    }
    if ((rc = check_friction(c, s)))
        return rc;
    if (!s->output_ropes && s->n_output_ropes > 0) {
        s->output_ropes = malloc(s->n_output_ropes * sizeof *s->output_ropes);
        if (!s->output_ropes)
            return oom(c);
        for (size_t i = 0; i < s->n_output_ropes; i++)
            s->output_ropes[i] = i;
    }
    s->normalized_json = sk_scn_normalize(s, root);
    return s->normalized_json ? 0 : oom(c);
}

/* Messages quote keys, overrides and jansson's text near a syntax error, which may hold control characters:
 * replaced, so that the message stays one line and cannot drive the terminal. */
static int one_line(sk_error *err, int rc)
{
    if (rc && err)
        for (char *p = err->message; *p; p++)
            if ((unsigned char)*p < 0x20 || *p == 0x7f)
                *p = '?';
    return rc;
}

int sk_scn_load_tree(json_t *root, const char *name, const sk_load_options *opt, sk_scenario *out, sk_error *err)
{
    sk_scn_ctx c = {name, err, opt};
    int rc = sk_scn_apply_sets(root, opt, err);
    if (!rc) {
        out->source = strdup(name);
        rc = out->source ? validate(&c, root, out) : oom(&c);
    }
    json_decref(root);
    if (rc)
        sk_scenario_free(out);
    return one_line(err, rc);
}

static int syntax_error(const char *name, const json_error_t *je, sk_error *err)
{
    /* jansson reads integers into 64 bits: say what the limit is */
    if (strncmp(je->text, "too big integer", 15) == 0)
        return one_line(err, sk_fail(err, SK_ERR_INVALID, "%s:%d:%d: an integer beyond 2^63 - 1 (%s)", name, je->line,
                                     je->column, je->text));
    return one_line(err, sk_fail(err, SK_ERR_INVALID, "%s:%d:%d: %s", name, je->line, je->column, je->text));
}

/* A UTF-8 byte order mark, which some editors write first, is no part of the JSON. */
static const char utf8_bom[] = "\xEF\xBB\xBF";

sk_status sk_scenario_load_file(const char *path, const sk_load_options *opt, sk_scenario *out, sk_error *err)
{
    memset(out, 0, sizeof *out);
    FILE *f = fopen(path, "rb");
    if (!f)
        return sk_fail(err, SK_ERR_IO, "%s: %s", path, strerror(errno));
    char head[3];
    if (fread(head, 1, 3, f) != 3 || memcmp(head, utf8_bom, 3) != 0)
        rewind(f);
    json_error_t je;
    json_t *root = json_loadf(f, JSON_REJECT_DUPLICATES, &je);
    /* A read error (a directory, say) looks like an early end of file to the parser: tell them apart. */
    int read_errno = ferror(f) ? errno : 0;
    fclose(f);
    if (read_errno) {
        json_decref(root);
        return sk_fail(err, SK_ERR_IO, "%s: %s", path, strerror(read_errno));
    }
    if (!root)
        return syntax_error(path, &je, err);
    return sk_scn_load_tree(root, path, opt, out, err);
}

sk_status sk_scenario_load_string(const char *text, const char *name, const sk_load_options *opt, sk_scenario *out,
                                  sk_error *err)
{
    memset(out, 0, sizeof *out);
    if (strncmp(text, utf8_bom, 3) == 0)
        text += 3;
    json_error_t je;
    json_t *root = json_loads(text, JSON_REJECT_DUPLICATES, &je);
    if (!root)
        return syntax_error(name, &je, err);
    return sk_scn_load_tree(root, name, opt, out, err);
}

void sk_scn_group_free(sk_group *g)
{
    free(g->pinned);
    free(g->mass_list);
    free(g->stiffness_list);
    free(g->length_list);
    free(g->path_times);
    free(g->path_points);
    free(g->speed_times);
    free(g->speed_values);
    for (int k = 0; k < g->n_sweeps; k++) {
        free(g->sweeps[k].key);
        free(g->sweeps[k].values);
    }
    free(g->sweeps);
}

void sk_scenario_free(sk_scenario *s)
{
    for (int i = 0; s->groups && i < s->n_groups; i++)
        sk_scn_group_free(&s->groups[i]);
    free(s->groups);
    free(s->water.current_heights);
    free(s->water.current_velocities);
    free(s->output_ropes);
    free(s->normalized_json);
    free(s->initial_from);
    free(s->initial_path);
    free(s->source);
    memset(s, 0, sizeof *s);
}
