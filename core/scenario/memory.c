/* The batch's memory estimate and the limit a scenario must fit in, checked before anything is allocated. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

/* Bytes for `count` ropes of group g: with_frames adds their output frames (no output list: every rope). */
static uint64_t group_bytes(const sk_group *g, uint64_t count, bool with_frames)
{
    const uint64_t real = sizeof(sk_real), cap = (uint64_t)g->particles;
    /* Particle state (positions, velocities, previous positions, scratch) in packs of up to 16 lanes. */
    const uint64_t padded = sat_mul(sat_add(count, 15) / 16, 16);
    uint64_t total = sat_mul(sat_mul(padded, cap), 16 * real);
    /* Per-rope parameters and constants. */
    total = sat_add(total, sat_mul(count, 128 * real));
    if (with_frames)
        total = sat_add(total, sat_mul(sat_mul(count, cap), 6 * real));
    return total;
}

uint64_t sk_scenario_memory_estimate(const sk_scenario *s)
{
    const uint64_t real = sizeof(sk_real);
    uint64_t total = 0;
    /* The output frame of every selected rope; no list means every rope (the loader estimates before it
     * fills the list in). */
    for (int i = 0; i < s->n_groups; i++)
        total = sat_add(total, group_bytes(&s->groups[i], s->groups[i].count, !s->output_ropes));
    for (size_t k = 0; s->output_ropes && k < s->n_output_ropes; k++) {
        size_t local;
        int gi = sk_scenario_find_rope(s, s->output_ropes[k], &local);
        if (gi >= 0)
            total = sat_add(total, sat_mul((uint64_t)s->groups[gi].particles, 6 * real));
    }
    return total;
}

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
    if (need <= limit)
        return 0;
    /* Name the group that takes the most, and how many of its ropes would fit beside the others. */
    int big = 0;
    for (int i = 1; i < s->n_groups; i++)
        if (group_bytes(&s->groups[i], s->groups[i].count, !s->output_ropes) >
            group_bytes(&s->groups[big], s->groups[big].count, !s->output_ropes))
            big = i;
    const sk_group *g = &s->groups[big];
    const uint64_t others = need - group_bytes(g, g->count, !s->output_ropes);
    uint64_t lo = 0, hi = g->count; /* the most ropes that fit lies in [lo, hi) */
    while (hi - lo > 1) {
        const uint64_t mid = lo + (hi - lo) / 2;
        if (sat_add(others, group_bytes(g, mid, !s->output_ropes)) <= limit)
            lo = mid;
        else
            hi = mid;
    }
    const bool none = sat_add(others, group_bytes(g, lo, !s->output_ropes)) > limit || lo == 0;
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
