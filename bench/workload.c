/* The suite's workloads as scenarios: W1 to W4 are the files in scenarios/ (embedded at build time,
 * so skein-bench runs anywhere), resized through the loader's overrides. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "scenario/scenario.h"
#include "bench.h"
#include "bench_config.h"
#include "skein/engine.h"

/* The end point of a rope of `particles` particles that keeps the spacing of the scenario's `from`
 * particles: start + (end - start) * (particles - 1) / (from - 1). */
static sk_vec3 resized_end(const sk_rope_params *p, int from, int particles)
{
    double f = (double)(particles - 1) / (double)(from - 1);
    return (sk_vec3){p->start.x + (p->end.x - p->start.x) * f, p->start.y + (p->end.y - p->start.y) * f,
                     p->start.z + (p->end.z - p->start.z) * f};
}

/* The command line's --set overrides, in order. */
static const char *user_sets[SK_BM_MAX_SETS];
static int n_user_sets;

int sk_bm_take_sets(int *argc, char **argv)
{
    int kept = 1;
    for (int i = 1; i < *argc; i++) {
        const char *value = NULL;
        if (strcmp(argv[i], "--set") == 0) {
            if (i + 1 == *argc) {
                fprintf(stderr, "skein-bench: --set needs KEY=VALUE\n");
                return 2;
            }
            value = argv[++i];
        } else if (strncmp(argv[i], "--set=", 6) == 0) {
            value = argv[i] + 6;
        } else {
            argv[kept++] = argv[i];
            continue;
        }
        if (n_user_sets == SK_BM_MAX_SETS) {
            fprintf(stderr, "skein-bench: at most %d --set\n", SK_BM_MAX_SETS);
            return 2;
        }
        user_sets[n_user_sets++] = value;
    }
    *argc = kept;
    argv[kept] = NULL;
    char joined[1024] = "";
    for (int i = 0; i < n_user_sets; i++)
        snprintf(joined + strlen(joined), sizeof joined - strlen(joined), "%s%s", i ? " " : "", user_sets[i]);
    sk_bench_context("skein_sets", n_user_sets ? joined : "none");
    return 0;
}

/* sk_bm_load with `extra` sets (at most 2) after the workload's own, before the command line's. */
static int load(sk_bm_workload w, int64_t ropes, int particles, const char *integrator, const char *const *extra,
                int n_extra, sk_scenario *out, sk_error *err)
{
    const bool direct = w == SK_BM_W2_DIRECT || w == SK_BM_W2_SWEPT_DIRECT || w == SK_BM_CHAIN_DIRECT;
    const bool swept = w == SK_BM_W2_SWEPT || w == SK_BM_W2_SWEPT_DIRECT;
    const bool w2 = w == SK_BM_W2 || swept || direct || w == SK_BM_CHAIN;
    const bool w3 = w == SK_BM_W3 || w == SK_BM_W3_EXPLICIT;
    const bool w4 = w == SK_BM_W4;
    const char *text = w2   ? SKEIN_BENCH_W2_JSON
                       : w3 ? SKEIN_BENCH_W3_JSON
                       : w4 ? SKEIN_BENCH_W4_JSON
                            : SKEIN_BENCH_W1_JSON;
    const char *name = w2   ? "w2_rods.json"
                       : w3 ? "w3_stiff_tether.json"
                       : w4 ? "w4_jumpers.json"
                            : "w1_springs.json";

    /* The file as written first: its rope geometry gives the resized one. */
    sk_scenario base;
    int rc = sk_scenario_load_string(text, name, NULL, &base, err);
    if (rc)
        return rc;
    const sk_group *g = &base.groups[0];
    sk_rope_params p = g->base;
    int from = g->particles;
    sk_real link = p.link_length;
    sk_scenario_free(&base);
    if (from < 2 || particles < 2)
        return sk_fail(err, SK_ERR_INVALID, "%s: the benchmark needs ropes of at least 2 particles", name);

    char count[64], parts[64], pinned[64], end[160], integ[64], anchor[256], deploy[64], dt[64];
    const char *sets[14 + SK_BM_MAX_SETS];
    int n = 0;
    snprintf(count, sizeof count, "groups[0].count=%lld", (long long)ropes);
    sets[n++] = count;
    if (w4) {
        /* a line is given by its segments (particles - 1) between the same ends, the last particle held */
        snprintf(parts, sizeof parts, "groups[0].line.segments=%d", particles - 1);
        snprintf(pinned, sizeof pinned, "groups[0].pinned=[%d]", particles - 1);
        sets[n++] = parts;
        sets[n++] = pinned;
    } else {
        snprintf(parts, sizeof parts, "groups[0].particles=%d", particles);
        sets[n++] = parts;
    }
    sets[n++] = "output.ropes=[0]";
    if (w == SK_BM_DEPLOY) {
        /* Two particles one link apart along the rope's direction, the anchor one link beyond the
         * second (the held, last particle), paying out at 1.5 m/s up to the capacity. */
        double dx = p.end.x - p.start.x, dy = p.end.y - p.start.y, dz = p.end.z - p.start.z;
        double len = sqrt(dx * dx + dy * dy + dz * dz);
        double ux = dx / len * link, uy = dy / len * link, uz = dz / len * link;
        snprintf(end, sizeof end, "groups[0].end=[%.17g,%.17g,%.17g]", p.start.x + ux, p.start.y + uy,
                 p.start.z + uz);
        snprintf(anchor, sizeof anchor,
                 "groups[0].anchor={\"type\":\"anchored_spring\",\"point\":[%.17g,%.17g,%.17g],"
                 "\"stiffness\":%.17g,\"length\":%.17g}",
                 p.start.x + 2 * ux, p.start.y + 2 * uy, p.start.z + 2 * uz, (double)p.link_stiffness,
                 (double)link);
        snprintf(deploy, sizeof deploy, "groups[0].deploy={\"velocity\":1.5,\"initial_particles\":2}");
        sets[n++] = end;
        sets[n++] = anchor;
        sets[n++] = deploy;
        sets[n++] = "groups[0].pinned=[]";
    } else if (!w4) {
        sk_vec3 e = resized_end(&p, from, particles);
        snprintf(end, sizeof end, "groups[0].end=[%.17g,%.17g,%.17g]", (double)e.x, (double)e.y, (double)e.z);
        sets[n++] = end;
    }
    if (swept)
        sets[n++] = "groups[0].sweep={\"damping\":{\"random\":{\"min\":0.95,\"max\":0.999,\"seed\":1}}}";
    if (direct)
        sets[n++] = "resolver=direct";
    if (w == SK_BM_W3_EXPLICIT) {
        /* the file keeps its duration, so steps become the whole 10 s at this dt */
        snprintf(dt, sizeof dt, "dt=%.17g", SK_BM_W3_EXPLICIT_DT);
        sets[n++] = dt;
        if (!integrator)
            integrator = "symplectic";
    }
    if (integrator) {
        snprintf(integ, sizeof integ, "integrator=%s", integrator);
        sets[n++] = integ;
    }
    for (int i = 0; i < n_extra; i++)
        sets[n++] = extra[i];
    for (int i = 0; i < n_user_sets; i++)
        sets[n++] = user_sets[i];
    sk_load_options opt = {.sets = sets, .n_sets = n};
    return sk_scenario_load_string(text, name, &opt, out, err);
}

int sk_bm_load(sk_bm_workload w, int64_t ropes, int particles, const char *integrator, sk_scenario *out,
               sk_error *err)
{
    return load(w, ropes, particles, integrator, NULL, 0, out, err);
}

int sk_bm_load_w3_bdf2(int64_t ropes, int particles, double dt, sk_scenario *out, sk_error *err)
{
    char step[64];
    snprintf(step, sizeof step, "dt=%.17g", dt);
    const char *const extra[2] = {"implicit={\"scheme\":\"bdf2\"}", step};
    return load(SK_BM_W3, ropes, particles, NULL, extra, 2, out, err);
}

int64_t sk_bm_w1_steps(int64_t ropes, int particles)
{
    int64_t steps = ((int64_t)1 << 22) / (ropes * particles);
    return steps < 32 ? 32 : steps > 1024 ? 1024 : steps;
}

int sk_bm_usable_isas(const char **names, int max)
{
    sk_isa_info all[8];
    int n = sk_isa_list(all, 8), k = 0;
    for (int i = 0; i < n && k < max; i++)
        if (all[i].compiled && all[i].usable)
            names[k++] = all[i].name;
    return k;
}

int sk_bm_thread_counts(int *out)
{
    long procs = sysconf(_SC_NPROCESSORS_ONLN);
    int n = 0;
    out[n++] = 1;
    out[n++] = 2;
    if (procs > 2)
        out[n++] = (int)procs;
    return n;
}
