/* What an engine implementation provides behind sk_engine (private to the library). */
#ifndef SKEIN_ENGINE_IMPL_H
#define SKEIN_ENGINE_IMPL_H

#include "skein/engine.h"
#include "engine/engine_state.h"

/* Each rope's figures over the steps (sk_engine_track_extremes), in this order: the largest link tension and
 * strain, the largest support force at the first and at the last particle. */
enum { SK_ENGINE_EXTREMES = 4 };

typedef struct sk_engine_vtbl {
    uint64_t (*advance)(sk_engine *e, long steps);
    int (*rope_particles)(const sk_engine *e, size_t rope);
    void (*read_rope)(const sk_engine *e, size_t rope, sk_real *p, sk_real *v);
    void (*rope_diagnostics)(const sk_engine *e, size_t rope, sk_rope_diagnostics *out, sk_real *tension);
    void (*rope_contacts)(const sk_engine *e, size_t rope, int *contacts, int *iterations);
    void (*rope_newton)(const sk_engine *e, size_t rope, int *solves, long *unconverged);
    void (*destroy)(sk_engine *e);
} sk_engine_vtbl;

/* Operations an engine may lack (the frame journal's stand-in engine replays recorded frames): it leaves
 * sk_engine.ext NULL (or a member NULL) and engine.c answers for it (no frames kept, no checkpoints). */
typedef struct sk_engine_ext {
    size_t (*check_frame)(sk_engine *e);
    long (*rope_diverged)(const sk_engine *e, size_t rope);
    /* advance then check_frame in one pass (returns the particle-steps, *diverged the ropes diverged so
     * far); without it engine.c calls the two */
    uint64_t (*advance_checked)(sk_engine *e, long steps, size_t *diverged);
    /* checkpoints: see sk_engine_export_rope and the functions after it in skein/engine.h */
    const char *kind;
    unsigned (*state_fields)(const sk_engine *e, int group);
    void (*export_rope)(const sk_engine *e, size_t rope, sk_rope_state *st);
    bool (*import_rope)(sk_engine *e, size_t rope, const sk_rope_state *st);
    bool (*resume_at)(sk_engine *e, long step);
    bool (*keep_start)(sk_engine *e);
    /* sk_engine_set_anchor, the rope and point checked */
    void (*set_anchor)(sk_engine *e, size_t rope, sk_vec3 point);
    /* sk_engine_rope_hold, the rope checked */
    void (*rope_hold)(const sk_engine *e, size_t rope, sk_rope_hold *out, bool *pinned);
    /* sk_engine_track_extremes; rope_extremes gives [tension, strain, support first, support last] (-inf
     * tension and strain before any link, 0 support at an end never held), false untracked */
    bool (*track_extremes)(sk_engine *e, bool on);
    bool (*rope_extremes)(const sk_engine *e, size_t rope, sk_real out[SK_ENGINE_EXTREMES]);
    /* sk_engine_set_rope_extremes and sk_engine_set_rope_support_extremes: figures from .. from + count - 1
     * to x, NaN already turned into -inf */
    bool (*set_rope_extremes)(sk_engine *e, size_t rope, int from, int count, const sk_real *x);
} sk_engine_ext;

/* Every engine struct starts with this header. */
struct sk_engine {
    const sk_engine_vtbl *vt;
    const sk_scenario *scenario;
    long step;
    const char *isa;
    int threads;
    const sk_engine_ext *ext;
    bool tracking; /* sk_engine_track_extremes is on */
    bool equilibrium_solved; /* sk_equilibrium_start solved every rope */
    size_t equilibrium_ropes; /* the ropes it solved (this process's) */
    long equilibrium_solves; /* its Newton solves, summed over the ropes */
    int equilibrium_most;    /* the most one rope took */
};

sk_engine *sk_batch_engine_create(const sk_scenario *s, const sk_engine_options *opt, sk_error *err);

sk_engine *sk_reference_engine_create(const sk_scenario *s, const sk_engine_options *opt,
                                      sk_error *err);

#endif
