/* The contact stages alone in the reference engine, beside the batch engine's kernel/contacts and
 * kernel/resolver (bench/kernels.c): generation of W2's contacts (rods, the anchor rod, the ground) and
 * Cyclone's resolver, over many copies of one W2 rope taken while it lies on the ground. */
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "reference/reference.h"

static const char *const arg_names[] = {"ropes", "particles"};
enum { CONTACT_ROPES = 4096, CONTACT_PARTICLES = 32 };
/* W2's rope 0 after a simulated second: swung down from its anchor rod and partly on the ground, so
 * that every kind of contact is generated and the resolver has real work. */
enum { SETTLE_STEPS = 1000 };

/* One rope as a world of contact generators in the reference rope's order: the links, the anchor rod,
 * the ground (docs/model.md section 5). Never moved once built: the generators point into it. */
typedef struct contact_rope {
    sk_world world;
    sk_rod_link *links;
    sk_rod_constraint anchor_rod;
    sk_ground_contacts ground;
    sk_vec3 anchor;
    sk_particle *saved;         /* the particles before resolution */
    sk_contact *saved_contacts; /* the contacts generated from them */
    int n_contacts;
} contact_rope;

typedef struct contact_set {
    contact_rope *ropes;
    int64_t n;
    int particles;
    int fixed_iterations;
} contact_set;

static void free_set(contact_set *cs)
{
    if (cs->ropes)
        for (int64_t i = 0; i < cs->n; i++) {
            sk_world_free(&cs->ropes[i].world);
            free(cs->ropes[i].links);
            free(cs->ropes[i].saved);
            free(cs->ropes[i].saved_contacts);
        }
    free(cs->ropes);
}

/* Builds `ropes` copies of W2's rope 0 after SETTLE_STEPS steps, with their contacts generated and the
 * state saved; returns an error message or NULL. */
static const char *build_set(contact_set *cs, int64_t ropes, int particles)
{
    *cs = (contact_set){0};
    sk_scenario s;
    sk_error err = {0};
    static char message[sizeof err.message];
    if (sk_bm_load(SK_BM_W2, ropes, particles, NULL, &s, &err)) {
        memcpy(message, err.message, sizeof message);
        return message;
    }
    const sk_group *g = &s.groups[0];
    if (g->link != SK_LINK_ROD || g->anchor != SK_ANCHOR_ROD || !s.has_ground) {
        sk_scenario_free(&s);
        return "W2 is expected to hold rod links, a rod anchor and the ground";
    }
    sk_ref_rope *src = sk_ref_rope_create(&s, 0, 0);
    cs->ropes = calloc((size_t)ropes, sizeof *cs->ropes);
    if (!src || !cs->ropes) {
        sk_ref_rope_destroy(src);
        sk_scenario_free(&s);
        free(cs->ropes);
        cs->ropes = NULL;
        return "out of memory";
    }
    for (int k = 0; k < SETTLE_STEPS; k++)
        sk_ref_rope_step(src);

    int n = sk_ref_rope_count(src), held = sk_ref_rope_held(src);
    sk_real link = sk_ref_rope_constants(src)->link_length, dt = sk_ref_rope_constants(src)->dt;
    sk_real anchor_length = sk_ref_rope_params(src)->anchor_length;
    cs->n = ropes;
    cs->particles = n;
    cs->fixed_iterations = s.iterations;
    const char *failed = NULL;
    for (int64_t i = 0; i < ropes && !failed; i++) {
        contact_rope *r = &cs->ropes[i];
        r->links = calloc((size_t)n, sizeof *r->links);
        r->saved = calloc((size_t)n, sizeof *r->saved);
        r->saved_contacts = calloc((size_t)(2 * n + 1), sizeof *r->saved_contacts);
        if (!r->links || !r->saved || !r->saved_contacts || !sk_world_init(&r->world, n, 1, n + 1, 2 * n + 1)) {
            failed = "out of memory";
            break;
        }
        sk_world *w = &r->world;
        w->integrator = s.integrator;
        w->dt = dt;
        w->count = n;
        for (int p = 0; p < n; p++)
            w->particles[p] = *sk_ref_rope_particle(src, p);
        r->anchor = sk_ref_rope_anchor(src);
        for (int p = 0; p + 1 < n; p++)
            sk_world_add_contact_generator(
                w, sk_rod_link_init(&r->links[p], &w->particles[p], &w->particles[p + 1], link));
        sk_world_add_contact_generator(w, sk_rod_constraint_init(&r->anchor_rod, &w->particles[held], &r->anchor,
                                                                 anchor_length));
        sk_world_add_contact_generator(w, sk_ground_contacts_init(&r->ground, w->particles, n, s.ground_height,
                                                                  s.ground_restitution, NULL));
        r->n_contacts = sk_world_generate_contacts(w);
        memcpy(r->saved, w->particles, (size_t)n * sizeof *r->saved);
        memcpy(r->saved_contacts, w->contacts, (size_t)r->n_contacts * sizeof *r->saved_contacts);
    }
    sk_ref_rope_destroy(src);
    sk_scenario_free(&s);
    if (failed)
        free_set(cs);
    return failed;
}

static void run_generation(sk_bench_state *st, void *user)
{
    (void)user;
    contact_set cs;
    const char *failed = build_set(&cs, sk_bench_arg(st, 0), (int)sk_bench_arg(st, 1));
    if (failed) {
        sk_bench_skip_with_error(st, failed);
        return;
    }
    int64_t contacts = 0;
    while (sk_bench_keep_running(st))
        for (int64_t i = 0; i < cs.n; i++)
            contacts += sk_world_generate_contacts(&cs.ropes[i].world);
    int64_t iterations = sk_bench_iterations_done(st);
    sk_bench_set_items_processed(st, iterations * cs.n * cs.particles);
    sk_bench_counter(st, "contacts_per_rope", (double)contacts / (double)(iterations * cs.n), SK_BENCH_PLAIN);
    sk_bench_set_label(st, "reference");
    free_set(&cs);
}

static void run_resolver(sk_bench_state *st, void *user)
{
    (void)user;
    contact_set cs;
    const char *failed = build_set(&cs, sk_bench_arg(st, 0), (int)sk_bench_arg(st, 1));
    if (failed) {
        sk_bench_skip_with_error(st, failed);
        return;
    }
    int64_t used = 0;
    while (sk_bench_keep_running(st)) {
        /* Every iteration resolves the same contacts from the same state: put it back, untimed. */
        sk_bench_pause(st);
        for (int64_t i = 0; i < cs.n; i++) {
            contact_rope *r = &cs.ropes[i];
            memcpy(r->world.particles, r->saved, (size_t)cs.particles * sizeof *r->saved);
            memcpy(r->world.contacts, r->saved_contacts, (size_t)r->n_contacts * sizeof *r->saved_contacts);
        }
        sk_bench_resume(st);
        for (int64_t i = 0; i < cs.n; i++) {
            contact_rope *r = &cs.ropes[i];
            sk_contact_resolver *res = &r->world.resolver;
            res->iterations = cs.fixed_iterations > 0 ? cs.fixed_iterations : 2 * r->n_contacts;
            sk_contact_resolver_resolve(res, r->world.contacts, r->n_contacts, r->world.dt);
            used += res->iterations_used;
        }
    }
    int64_t iterations = sk_bench_iterations_done(st);
    sk_bench_set_items_processed(st, iterations * cs.n * cs.particles);
    sk_bench_counter(st, "contacts_per_rope", (double)cs.ropes[0].n_contacts, SK_BENCH_PLAIN);
    sk_bench_counter(st, "iterations_per_rope", (double)used / (double)(iterations * cs.n), SK_BENCH_PLAIN);
    sk_bench_set_label(st, "reference");
    free_set(&cs);
}

void sk_bm_register_contacts(void)
{
    static const struct {
        const char *name;
        sk_bench_fn fn;
    } stages[] = {{"kernel/contacts/reference", run_generation}, {"kernel/resolver/reference", run_resolver}};
    for (int k = 0; k < 2; k++) {
        sk_bench *b = sk_bench_register(stages[k].name, stages[k].fn, NULL);
        sk_bench_arg_names(b, arg_names, 2);
        sk_bench_args(b, (int64_t[]){CONTACT_ROPES, CONTACT_PARTICLES}, 2);
        sk_bench_use_real_time(b);
        sk_bench_time_unit(b, 'm');
    }
}
