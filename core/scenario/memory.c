/* The batch's memory estimate and the limit a scenario must fit in, checked before anything is allocated. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "model/output_budget.h"
#include "model/pack_size.h"
#include "scenario/scenario_impl.h"

/* Saturating arithmetic: a count of 2^53 ropes must give "too much", never a small wrapped number. */
static uint64_t sat_add(uint64_t a, uint64_t b)
{
    uint64_t s;
    return __builtin_add_overflow(a, b, &s) ? UINT64_MAX : s;
}

static uint64_t sat_mul(uint64_t a, uint64_t b)
{
    uint64_t p;
    return __builtin_mul_overflow(a, b, &p) ? UINT64_MAX : p;
}

/* Bytes for `count` ropes of group g in the batch engine: their packs, laid out as model/pack_size.h says and
 * padded to the widest pack, per rope the marks of its divergence (and with a warm start its start state), the
 * group's own structure and its pinned flags. A rope that diverges later holds one more copy of its own state;
 * that is not counted (it cannot be known here), nor is the per-thread scratch of a pack or two (estimate()
 * counts one thread's). */
static uint64_t group_bytes(const sk_scenario *s, const sk_group *g, uint64_t count)
{
    const uint64_t padded = sat_mul(sat_add(count, SK_PACK_MAX_WIDTH - 1) / SK_PACK_MAX_WIDTH, SK_PACK_MAX_WIDTH);
    const uint64_t lane = sat_add(sk_pack_lane_state_reals((uint64_t)g->particles, sk_group_has_contacts(s, g), sk_scenario_keeps_previous_step(s)),
                                  sk_pack_lane_param_reals((uint64_t)g->particles, g->has_profiles));
    const uint64_t own = SK_PACK_GROUP_BYTES + (uint64_t)g->particles;
    /* a warm start keeps each rope's start state: its lane's state reals, its count and anchored segment */
    const uint64_t start_reals =
        sat_add(sk_pack_lane_state_reals((uint64_t)g->particles, sk_group_has_contacts(s, g), sk_scenario_keeps_previous_step(s)), 2);
    const uint64_t start = s->has_initial ? sat_mul(sat_mul(count, start_reals), sizeof(sk_real)) : 0;
    const uint64_t packs = sat_mul(sat_mul(padded, lane), sizeof(sk_real));
    return sat_add(sat_add(sat_add(packs, sat_mul(count, SK_PACK_ROPE_MARK_BYTES)), own), start);
}

/* Bytes the outputs hold: each written rope's frame as it is read out (positions and velocities), up to what
 * the writers buffer at most (the HDF5 writer's chunk budget), and its index in the output list. */
static uint64_t output_bytes(uint64_t particles, uint64_t ropes)
{
    uint64_t frames = sat_mul(particles, SK_PACK_PARTICLE_REALS * sizeof(sk_real));
    frames = frames < SK_OUTPUT_BUFFER_BYTES ? frames : SK_OUTPUT_BUFFER_BYTES;
    return sat_add(frames, sat_mul(ropes, sizeof(size_t)));
}

/* The estimate with group `resized` holding `count` ropes (-1: every group as it is). */
static uint64_t estimate(const sk_scenario *s, int resized, uint64_t count)
{
#define COUNT_OF(i) ((i) == resized ? count : (uint64_t)s->groups[i].count)
    uint64_t total = SK_PACK_BATCH_BYTES, largest_lane = 0;
    for (int i = 0; i < s->n_groups; i++) {
        const sk_group *g = &s->groups[i];
        total = sat_add(total, group_bytes(s, g, COUNT_OF(i)));
        const uint64_t lane = sat_add(sk_pack_lane_state_reals((uint64_t)g->particles, sk_group_has_contacts(s, g), sk_scenario_keeps_previous_step(s)),
                                      sk_pack_lane_param_reals((uint64_t)g->particles, g->has_profiles));
        largest_lane = lane > largest_lane ? lane : largest_lane;
    }
    /* the batch's scratch, a few packs of its largest group */
    const uint64_t pack = sat_mul(largest_lane, SK_PACK_MAX_WIDTH * sizeof(sk_real)); /* parameters included */
    total = sat_add(total, sat_mul(pack, SK_PACK_SCRATCH_PACKS));
    /* the implicit integrator's solve, for the largest group's packs: three times their particle rows */
    if (s->integrator == SK_INTEGRATOR_IMPLICIT) {
        uint64_t most = 0;
        for (int i = 0; i < s->n_groups; i++)
            most = (uint64_t)s->groups[i].particles > most ? (uint64_t)s->groups[i].particles : most;
        const uint64_t row = SK_PACK_IMPLICIT_ROW_REALS + (sk_scenario_keeps_previous_step(s) ? SK_PACK_BDF2_ROW_REALS : 0);
        total = sat_add(total, sat_mul(most, row * SK_PACK_MAX_WIDTH * sizeof(sk_real)));
    }
    /* the bending forces' scratch, for the largest bending group's packs */
    uint64_t bending = 0;
    for (int i = 0; i < s->n_groups; i++)
        if (s->groups[i].has_bending && (uint64_t)s->groups[i].particles > bending)
            bending = (uint64_t)s->groups[i].particles;
    total = sat_add(total, sat_mul(bending, SK_PACK_BENDING_ROW_REALS * SK_PACK_MAX_WIDTH * sizeof(sk_real)));
    /* The written ropes; no list means every rope (the loader estimates before it fills the list in). */
    uint64_t particles = 0, ropes = 0;
    if (!s->output_ropes) {
        for (int i = 0; i < s->n_groups; i++) {
            particles = sat_add(particles, sat_mul(COUNT_OF(i), (uint64_t)s->groups[i].particles));
            ropes = sat_add(ropes, COUNT_OF(i));
        }
    }
    for (size_t k = 0; s->output_ropes && k < s->n_output_ropes; k++) {
        size_t local;
        int gi = sk_scenario_find_rope(s, s->output_ropes[k], &local);
        if (gi >= 0) {
            particles = sat_add(particles, (uint64_t)s->groups[gi].particles);
            ropes++;
        }
    }
    return sat_add(total, output_bytes(particles, ropes));
#undef COUNT_OF
}

uint64_t sk_scenario_memory_estimate(const sk_scenario *s) { return estimate(s, -1, 0); }

static int memory_limit(const sk_scn_ctx *c, uint64_t *limit)
{
    const char *env = getenv("SKEIN_MEMORY_LIMIT");
    if (env && env[0]) {
        char *end;
        errno = 0;
        unsigned long long v = strtoull(env, &end, 10);
        if (errno || *end || env[0] == '-')
            return sk_scn_fail(c, "groups", "SKEIN_MEMORY_LIMIT=%s is not a number of bytes", env);
        *limit = v;
        return 0;
    }
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    if (pages <= 0 || page <= 0) {
        *limit = UINT64_MAX; /* unknown: let the allocation itself fail */
        return 0;
    }
    *limit = sat_mul((uint64_t)pages, (uint64_t)page) / 10 * 9;
    return 0;
}

/* Bytes for a person: GB from a gigabyte on (as the machine's memory is usually given), MB or bytes below,
 * so a small limit does not read "0.0 GB". */
static void format_bytes(char *buf, size_t size, uint64_t bytes)
{
    if (bytes >= 1000000000u)
        snprintf(buf, size, "%.1f GB", (double)bytes / 1e9);
    else if (bytes >= 1000000u)
        snprintf(buf, size, "%.1f MB", (double)bytes / 1e6);
    else
        snprintf(buf, size, "%llu bytes", (unsigned long long)bytes);
}

int sk_scn_check_memory(const sk_scn_ctx *c, const sk_scenario *s)
{
    uint64_t limit = UINT64_MAX;
    int rc = memory_limit(c, &limit);
    if (rc)
        return rc;
    uint64_t need = sk_scenario_memory_estimate(s);
    const int processes = c->opt && c->opt->processes > 1 ? c->opt->processes : 1;
    if (processes > 1) {
        /* an even share; each process checks its own once split (sk_scn_check_share) */
        need = need / (uint64_t)processes + 1;
        if (need <= limit)
            return 0;
        char need_text[32], limit_text[32];
        format_bytes(need_text, sizeof need_text, need);
        format_bytes(limit_text, sizeof limit_text, limit);
        return sk_scn_fail(c, "groups", "the batch needs %s per process across %d processes, more than the %s "
                           "this machine allows: run it across more", need_text, processes, limit_text);
    }
    if (need <= limit)
        return 0;
    /* Name the group that takes the most, and how many of its ropes would fit beside the others. */
    int big = 0;
    for (int i = 1; i < s->n_groups; i++)
        if (group_bytes(s, &s->groups[i], s->groups[i].count) > group_bytes(s, &s->groups[big], s->groups[big].count))
            big = i;
    const sk_group *g = &s->groups[big];
    uint64_t lo = 0, hi = g->count; /* the most ropes that fit lies in [lo, hi) */
    while (hi - lo > 1) {
        const uint64_t mid = lo + (hi - lo) / 2;
        if (estimate(s, big, mid) <= limit)
            lo = mid;
        else
            hi = mid;
    }
    const bool none = lo == 0 || estimate(s, big, lo) > limit;
    char need_text[32], limit_text[32], group[SK_SCN_PATH_MAX], path[SK_SCN_PATH_MAX];
    format_bytes(need_text, sizeof need_text, need);
    format_bytes(limit_text, sizeof limit_text, limit);
    if (strcmp(need_text, limit_text) == 0) { /* just over: rounded alike, so in bytes */
        snprintf(need_text, sizeof need_text, "%llu bytes", (unsigned long long)need);
        snprintf(limit_text, sizeof limit_text, "%llu bytes", (unsigned long long)limit);
    }
    sk_scn_path_index(group, "groups", (size_t)big);
    sk_scn_path_key(path, group, "count");
    if (none)
        return sk_scn_fail(c, path, "the batch needs %s, more than the %s this machine allows; not one rope of this "
                           "group fits", need_text, limit_text);
    return sk_scn_fail(c, path, "the batch needs %s, more than the %s this machine allows; at most %llu of this "
                       "group's %zu ropes fit", need_text, limit_text, (unsigned long long)lo, g->count);
}

int sk_scn_check_share(const sk_scn_ctx *c, const sk_scenario *slice, size_t first)
{
    uint64_t limit = UINT64_MAX;
    int rc = memory_limit(c, &limit);
    if (rc)
        return rc;
    const uint64_t need = sk_scenario_memory_estimate(slice);
    if (need <= limit)
        return 0;
    char need_text[32], limit_text[32];
    format_bytes(need_text, sizeof need_text, need);
    format_bytes(limit_text, sizeof limit_text, limit);
    return sk_fail(c->err, SK_ERR_INVALID, "%s: ropes %zu to %zu (this process's share) need %s, more than the %s "
                   "this machine allows: run the batch across more processes", c->name, first,
                   first + slice->total_ropes - 1, need_text, limit_text);
}
