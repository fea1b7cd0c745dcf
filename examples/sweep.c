/* A stiffness sweep built in code: 16 ropes of 16 particles, pinned at one end and heavily damped, hang
 * under gravity until they are still; each hangs stretched by its springs' stiffness. A still chain's
 * segment i carries the weight of the particles below it, so the rope stretches by m g N (N - 1) / (2 k)
 * in all: the program prints each rope's stretch beside that figure.
 *
 * Build against an installed skein:  cc sweep.c $(pkg-config --cflags --libs skein)
 *                               or:  find_package(skein) and link skein::skein (examples/CMakeLists.txt) */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <skein/skein.h>

enum { ROPES = 16, PARTICLES = 16 };

int main(void)
{
    const double mass = 0.01, g = 9.81, k_from = 50, k_to = 500, rest = 0.1;

    /* The scenario, key by key as a scenario file writes them (docs/scenario-format.md). */
    sk_scenario_builder *b = sk_builder_create();
    if (!b)
        return 1;
    sk_builder_set_number(b, "dt", 1e-3);
    sk_builder_set_number(b, "duration", 30);                   /* s: long enough to come to rest */
    sk_builder_set_integer(b, "groups[0].count", ROPES);
    sk_builder_set_integer(b, "groups[0].particles", PARTICLES);
    sk_builder_set_vec3(b, "groups[0].start", (sk_vec3){0, 0, 0});
    sk_builder_set_vec3(b, "groups[0].end", (sk_vec3){rest * (PARTICLES - 1), 0, 0});
    sk_builder_set_number(b, "groups[0].mass", mass);          /* kg per particle */
    sk_builder_set_number(b, "groups[0].damping", 0.2);        /* 20% of the velocity left after 1 s */
    sk_builder_set_json(b, "groups[0].pinned", "[0]");
    sk_builder_set_string(b, "groups[0].link.type", "spring");
    sk_builder_set_number(b, "groups[0].link.stiffness", k_from);
    sk_builder_sweep_linear(b, 0, "link.stiffness", k_from, k_to); /* N/m, one value per rope */
    sk_error err;
    sk_scenario *s = sk_builder_build(b, "sweep", &err);
    if (!s) {
        fprintf(stderr, "sweep: %s\n", err.message);
        return 1;
    }

    /* The batch engine on the widest ISA this CPU runs, every core. */
    sk_engine *e = sk_engine_create(s, NULL, &err);
    if (!e) {
        fprintf(stderr, "sweep: %s\n", err.message);
        sk_scenario_destroy(s);
        return 1;
    }
    sk_engine_advance(e, sk_scenario_steps(s));
    const size_t diverged = sk_engine_check_frame(e);

    printf("skein %s, %s engine on %s, %d threads: %zu ropes, %ld steps\n", sk_version(), sk_engine_kind(e),
           sk_engine_isa(e), sk_engine_threads(e), sk_scenario_ropes(s), sk_engine_step(e));
    printf("%10s %14s %14s %12s\n", "k (N/m)", "stretch (m)", "expected (m)", "rel. error");
    sk_real p[PARTICLES][3];
    double worst = 0;
    for (size_t r = 0; r < sk_scenario_ropes(s); r++) {
        double k = 0; /* the rope's swept stiffness, by its key */
        if (sk_scenario_param(s, r, "link.stiffness", &k, &err) != SK_OK) {
            fprintf(stderr, "sweep: %s\n", err.message);
            worst = INFINITY;
            break;
        }
        sk_engine_read_rope(e, r, &p[0][0], NULL);
        double length = 0;
        for (int i = 0; i + 1 < PARTICLES; i++) {
            const double dx = p[i + 1][0] - p[i][0], dy = p[i + 1][1] - p[i][1], dz = p[i + 1][2] - p[i][2];
            length += sqrt(dx * dx + dy * dy + dz * dz);
        }
        const double stretch = length - rest * (PARTICLES - 1);
        const double expected = mass * g * PARTICLES * (PARTICLES - 1) / (2 * k);
        const double error = fabs(stretch - expected) / expected;
        worst = error > worst ? error : worst;
        printf("%10.1f %14.6f %14.6f %12.2e\n", k, stretch, expected, error);
    }
    printf("largest relative error %.2e, %zu ropes diverged\n", worst, diverged);

    sk_engine_destroy(e);
    sk_scenario_destroy(s);
    return worst < 1e-4 && diverged == 0 ? 0 : 1; /* still to round-off (float builds to about 1e-6) */
}
