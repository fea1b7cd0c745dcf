/* Private to the scenario loader: key-path messages, typed JSON readers, the table of sweepable keys. */
#ifndef SKEIN_SCENARIO_IMPL_H
#define SKEIN_SCENARIO_IMPL_H

#include <jansson.h>

#include "model/params.h"
#include "scenario/scenario.h"

/* The divergence bounds when the scenario gives none (docs/scenario-format.md). */
#define SK_DEFAULT_MAX_SPEED 1e6
#define SK_DEFAULT_MAX_STRAIN 1e3
/* Newton iterations of the implicit integrator: each costs a full solve, and a rope that needs more than
 * this at its step needs a smaller step instead. */
#define SK_MAX_IMPLICIT_ITERATIONS 64
/* BDF2's Newton: at most this many solves a step by default, each lane stopping once its velocity update is
 * within the tolerance (m/s). */
#define SK_DEFAULT_BDF2_ITERATIONS 16
/* The static equilibrium's Newton (reference/equilibrium.c): solves at most, and the force left on a particle
 * (N, each component) it stops at. */
#define SK_MAX_EQUILIBRIUM_ITERATIONS 100000
#define SK_DEFAULT_EQUILIBRIUM_ITERATIONS 500
#define SK_DEFAULT_EQUILIBRIUM_TOLERANCE 1e-6
#define SK_DEFAULT_BDF2_TOLERANCE 1e-3
/* Newton iterations of the direct solver's position projection: each costs one banded solve; it converges
 * quadratically, so a rope that needs more than this is not converging. Its default holds W2's rods to
 * round-off. */
#define SK_MAX_DIRECT_ITERATIONS 64
#define SK_DEFAULT_DIRECT_ITERATIONS 3
#define SK_DEFAULT_DIRECT_TOLERANCE 1e-12

/* Longest key path a message names; longer ones (user-written unknown keys) are cut. */
#define SK_SCN_PATH_MAX 512

/* Where messages go and what they name: the file, or the override that set the key at fault. */
typedef struct sk_scn_ctx {
    const char *name;
    sk_error *err;
    const sk_load_options *opt; /* the overrides applied (may be NULL) */
} sk_scn_ctx;

/* "<file>: <path>: <what>", status SK_ERR_INVALID; "<label> <override>: <path>: <what>" when an override set
 * path or an object above it (the last such override: the one that took effect). */
int sk_scn_fail(const sk_scn_ctx *c, const char *path, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Child paths: "parent.key" ("key" at the top) and "parent[i]". */
void sk_scn_path_key(char *buf, const char *parent, const char *key);
void sk_scn_path_index(char *buf, const char *parent, size_t i);

/* The ranges numeric keys must lie in. SK_RANGE_ANCHOR_LENGTH resolves per anchor type. */
typedef enum sk_scn_range {
    SK_RANGE_ANY,       /* finite */
    SK_RANGE_GT0,       /* > 0 */
    SK_RANGE_MASS,      /* > 0, with 1/m finite and > 0 and 1/(1/m) finite: the engines keep 1/m */
    SK_RANGE_TIME_STEP, /* > 0, with dt^2 and 1/dt^2 finite and > 0: Verlet divides by dt^2 */
    SK_RANGE_GE0,       /* >= 0 */
    SK_RANGE_UNIT_OPEN0, /* (0, 1] */
    SK_RANGE_UNIT,      /* [0, 1] */
    SK_RANGE_UNIT_OPEN1, /* [0, 1) */
    SK_RANGE_ANCHOR_LENGTH
} sk_scn_range;

bool sk_scn_range_ok(sk_scn_range r, double v);
/* "a" or "an" before a word (a type name in a message: "an anchored_spring anchor"). */
static inline const char *sk_scn_article(const char *word)
{
    return word[0] == 'a' || word[0] == 'e' || word[0] == 'i' || word[0] == 'o' || word[0] == 'u' ? "an" : "a";
}

/* What a value v outside range r must be, for its error message. */
const char *sk_scn_range_text(sk_scn_range r, double v);

/* Whether a double read from JSON or computed from it fits sk_real: finite, not overflowing, and not a
 * non-zero value that would underflow to zero. */
bool sk_scn_fits_real(double v);

/* The known key nearest to a mistyped one (a few character edits away), or NULL: known is a list of n_known
 * keys, or NULL-terminated when n_known < 0. */
const char *sk_scn_nearest(const char *key, const char *const *known, int n_known);

/* Rejects any key of obj not in the NULL-terminated list (suggesting the nearest). */
int sk_scn_check_keys(const sk_scn_ctx *c, const char *path, json_t *obj, const char *const *allowed);

/* Typed readers of obj[key]; path names obj. Absent and not required: the default is stored. */
int sk_scn_read_real(const sk_scn_ctx *c, const char *path, json_t *obj, const char *key, bool required,
                     double def, sk_scn_range r, sk_real *out);
int sk_scn_real_value(const sk_scn_ctx *c, const char *path, json_t *v, sk_scn_range r, sk_real *out);
int sk_scn_read_vec3(const sk_scn_ctx *c, const char *path, json_t *obj, const char *key, bool required,
                     sk_vec3 def, sk_vec3 *out);
int sk_scn_vec3_value(const sk_scn_ctx *c, const char *path, json_t *v, sk_vec3 *out);
int sk_scn_read_int(const sk_scn_ctx *c, const char *path, json_t *obj, const char *key, bool required,
                    long long def, long long min, long long max, long long *out);
int sk_scn_int_value(const sk_scn_ctx *c, const char *path, json_t *v, long long min, long long max,
                     long long *out);
int sk_scn_read_enum(const sk_scn_ctx *c, const char *path, json_t *obj, const char *key,
                     const char *const *names, int def, int *out);
/* obj[key] as an object, or NULL when absent (an error when required). */
int sk_scn_read_object(const sk_scn_ctx *c, const char *path, json_t *obj, const char *key, bool required,
                       json_t **out);

/* Names of the enumerations as scenario files spell them, NULL-terminated. Link and anchor names are
 * indexed by type - 1 (type 0 is "none"). */
extern const char *const sk_scn_integrator_names[];
extern const char *const sk_scn_resolver_names[];
extern const char *const sk_scn_implicit_scheme_names[];
extern const char *const sk_scn_gravity_as_names[];
extern const char *const sk_scn_link_names[];
extern const char *const sk_scn_anchor_names[];
extern const char *const sk_scn_insert_names[];

/* One group of the "groups" array; path is "groups[i]". Sets everything but first_rope. */
int sk_scn_parse_group(const sk_scn_ctx *c, const char *path, json_t *obj, sk_group *g);

/* The top-level "water" into s->water (after gravity and the ground, which the waves' checks read). */
int sk_scn_parse_water(const sk_scn_ctx *c, json_t *root, sk_scenario *s);

/* What a group needs for a sweep key to name a parameter it has. */
typedef enum sk_scn_need {
    SK_NEED_NOTHING,
    SK_NEED_MASS,        /* a mass that is not a list */
    SK_NEED_MASS_LINEAR, /* a linear mass profile */
    SK_NEED_PAYLOAD0, SK_NEED_PAYLOAD1, SK_NEED_PAYLOAD2, SK_NEED_PAYLOAD3, /* payload i given */
    SK_NEED_STIFFNESS_LINEAR, /* a linear link stiffness profile */
    SK_NEED_LENGTH_LINEAR,    /* a linear link rest length profile */
    SK_NEED_LINK_STIFFNESS,
    SK_NEED_LINK_LENGTH,
    SK_NEED_LINK_RESTITUTION,
    SK_NEED_LINK_DAMPING,       /* link.damping given */
    SK_NEED_LINK_DAMPING_RATIO, /* link.damping_ratio given */
    SK_NEED_ANCHOR,
    SK_NEED_ANCHOR_STIFFNESS,
    SK_NEED_ANCHOR_LENGTH,
    SK_NEED_ANCHOR_DAMPING,
    SK_NEED_ANCHOR_RESTITUTION,
    SK_NEED_MOTION, /* a sine motion: amplitude and omega given */
    SK_NEED_TOW,    /* a towing velocity given */
    SK_NEED_DRAG,
    SK_NEED_BUOYANCY,
    SK_NEED_FRICTION, /* the scenario's ground has friction: load.c checks it, with the top level read */
    SK_NEED_BENDING,
    SK_NEED_LINE,    /* a "line" */
    SK_NEED_LINE_EA, /* a line given by EA */
    SK_NEED_DEPLOY_SPEED, /* a deploying group whose deploy.velocity is a number */
    SK_NEED_MAX_LENGTH,
#define SK_NEED_FORCE_OBJECT(NAME, object) SK_NEED_FORCE_##NAME, /* the force object given */
    SK_FORCE_OBJECTS(SK_NEED_FORCE_OBJECT)
#undef SK_NEED_FORCE_OBJECT
} sk_scn_need;

typedef struct sk_scn_sweepable {
    const char *key; /* "link.stiffness", "anchor.point[1]" */
    size_t offset;   /* of the sk_real inside sk_rope_params */
    sk_scn_range range;
    sk_scn_need need;
} sk_scn_sweepable;

extern const sk_scn_sweepable sk_scn_sweepables[];
extern const int sk_scn_n_sweepables;

/* Parses a group's "sweep" object into g->sweeps (g's structure already parsed). */
int sk_scn_parse_sweeps(const sk_scn_ctx *c, const char *path, json_t *obj, sk_group *g);

/* Checks every rope's swept values and "auto" link length; path is "groups[i]". Runs after the memory
 * check, since it takes time in proportion to the rope count (but allocates nothing). */
int sk_scn_check_ropes(const sk_scn_ctx *c, const char *path, const sk_group *g);

/* The value of a sweep for rope r of a group of count ropes, in double, before conversion to sk_real. */
double sk_scn_sweep_value(const sk_sweep *sw, size_t r, size_t count);

/* Applies "PATH=VALUE" overrides to the parsed tree. */
int sk_scn_apply_sets(json_t *root, const sk_load_options *opt, sk_error *err);

/* An override as messages show it: PATH=VALUE with VALUE cut after SK_SCN_SHOWN_VALUE characters ("..." marks
 * the cut), since a sweep's list set from a program can hold a million numbers and a message is one line. */
#define SK_SCN_SHOWN_VALUE 60
#define SK_SCN_SHOWN_MAX (SK_SCN_PATH_MAX + SK_SCN_SHOWN_VALUE + 8)
void sk_scn_shown_set(char *buf, size_t size, const char *set);

/* Stores value (a reference is taken) at key path p of root; messages read "<label> <set>: ...". With grow,
 * missing arrays are created and an index one past an array's end appends. */
int sk_scn_set_path(json_t *root, const char *label, const char *set, const char *p, json_t *value, bool grow,
                    sk_error *err);

/* Applies the overrides to a parsed tree and validates it into *out; name stands for the file in messages.
 * Takes root's reference. */
int sk_scn_load_tree(json_t *root, const char *name, const sk_load_options *opt, sk_scenario *out, sk_error *err);

/* Rejects a scenario whose memory estimate exceeds the limit (message names "groups"). */
int sk_scn_check_memory(const sk_scn_ctx *c, const sk_scenario *s);
/* The same for a slice (ropes first .. of the whole), SK_ERR_INVALID naming its ropes. */
int sk_scn_check_share(const sk_scn_ctx *c, const sk_scenario *slice, size_t first);

/* Frees what a group owns (sk_scenario_free for each of its groups; sk_scenario_slice for those it drops). */
void sk_scn_group_free(sk_group *g);

/* The normalised JSON text of a validated scenario; root is the tree it came from (for the sweeps). */
char *sk_scn_normalize(const sk_scenario *s, json_t *root);

#endif
