/* libFuzzer target of skein-view's HDF5 replay reader (viewer/replay.c) and of the library's warm start
 * (io/hdf5/warm_start.c, a scenario's "initial"): any bytes, as a file, are read as a skein output or refused with
 * one line; no crash, leak or hang. Seeds: real outputs of skein run --h5
 * (tests/fuzz_h5_replay_seeds/, made by tests/fuzz_make_seeds.sh); what once crashed or misbehaved:
 * tests/fuzz_h5_replay_regressions/. The mutations are edits through HDF5 (fuzz_h5_edit.h): the reader is
 * fuzzed with every well-formed file, not libhdf5's own parser with broken ones. */
#include <fcntl.h>
#include <hdf5.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "scenario/scenario.h"
#include "replay.h"
#include "sim.h"
#include "skein/output.h"

/* The scenario's memory check, fixed so that a verdict is the same on every machine (as fuzz_scenario's),
 * and low: the stored scenario sizes the viewer's ropes. */
#define SK_FUZZ_MEMORY_LIMIT "20000000"
/* Ropes read and frames shown per input: enough to reach every path, few enough to keep an input fast. */
#define SK_FUZZ_ROPES 4
#define SK_FUZZ_FRAMES 16

#define SK_FUZZ_ASSERT(cond)                                                                   \
    do {                                                                                        \
        if (!(cond)) {                                                                          \
            fprintf(stderr, "fuzz_h5_replay: %s:%d: %s\n", __FILE__, __LINE__, #cond);          \
            abort();                                                                            \
        }                                                                                       \
    } while (0)

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char file[4096];

static void remove_file(void)
{
    unlink(file);
    *strrchr(file, '/') = '\0';
    rmdir(file);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    setenv("SKEIN_MEMORY_LIMIT", SK_FUZZ_MEMORY_LIMIT, 1);
    /* the input's file: in memory where the system has a tmpfs for it */
    const char *tmp = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
    snprintf(file, sizeof file, "%s/skein-fuzz-h5-XXXXXX", tmp);
    if (!mkdtemp(file))
        abort();
    strcat(file, "/in.h5");
    atexit(remove_file);
    return 0;
}

/* A refusal is one line a terminal prints as it is, naming the file. */
static void check_refusal(int rc, const sk_error *err)
{
    SK_FUZZ_ASSERT(rc == (int)err->status && (rc == SK_ERR_CORRUPT || rc == SK_ERR_INVALID));
    SK_FUZZ_ASSERT(err->message[0] != '\0');
    for (const char *p = err->message; *p; p++)
        SK_FUZZ_ASSERT((unsigned char)*p >= 0x20 && *p != 0x7f);
}

/* What the reader promises of a file it opened. */
static void check_open(const sk_replay *r)
{
    SK_FUZZ_ASSERT(r->frames >= 1 && r->time && r->step && r->n_stored >= 1);
    for (long f = 1; f < r->frames; f++)
        SK_FUZZ_ASSERT(r->step[f] > r->step[f - 1]);
    for (size_t i = 0; i < r->n_stored; i++) {
        const int g = r->stored_group[i];
        SK_FUZZ_ASSERT(g >= 0 && g < r->scenario->n_groups);
        SK_FUZZ_ASSERT(r->stored[i] < r->scenario->total_ropes);
        SK_FUZZ_ASSERT(sk_scenario_find_rope(r->scenario, r->stored[i], NULL) == g);
        SK_FUZZ_ASSERT(r->stored_slot[i] < r->scenario->groups[g].count);
    }
}

/* Reads a few of the ropes the file holds and puts a few frames into the viewer's ropes. */
static void read_and_show(sk_replay *r)
{
    size_t chosen[SK_FUZZ_ROPES];
    int n = 0;
    for (size_t i = 0; i < r->n_stored && n < SK_FUZZ_ROPES; i += 1 + r->n_stored / SK_FUZZ_ROPES)
        chosen[n++] = r->stored[i];
    sk_error err = {0};
    int rc = sk_replay_read(r, chosen, n, &err);
    if (rc) {
        check_refusal(rc, &err);
        return;
    }
    for (int k = 0; k < r->n_ropes; k++) {
        const sk_replay_rope *rope = &r->ropes[k];
        SK_FUZZ_ASSERT(rope->capacity == r->scenario->groups[rope->group].particles);
        for (long f = 0; f < r->frames; f++)
            SK_FUZZ_ASSERT(rope->count[f] >= 1 && rope->count[f] <= rope->capacity);
    }
    sk_view_sim sim;
    if (sk_view_sim_init(&sim, r->scenario, chosen, n, &err) != 0)
        return; /* out of memory only: the scenario passed its memory check */
    for (long f = 0; f < r->frames && f < SK_FUZZ_FRAMES; f++) {
        rc = sk_replay_show(r, f, &sim, &err);
        if (rc) {
            check_refusal(rc, &err);
            break;
        }
        SK_FUZZ_ASSERT(sim.steps == (long)r->step[f]);
    }
    sk_view_sim_free(&sim);
}

/* A reference engine of the scenario the file holds, warm-started from a frame of the file itself (the last,
 * the one before or the first, by the input's length): started, or refused with one line. */
static void warm_start(sk_replay *r, size_t size)
{
    sk_scenario *s = r->scenario;
    free(s->initial_path);
    free(s->initial_from);
    s->initial_path = strdup(file);
    s->initial_from = strdup(file);
    SK_FUZZ_ASSERT(s->initial_path && s->initial_from);
    s->has_initial = true;
    s->initial_frame = (long)(size % 3) - 2;
    sk_error err = {0};
    const sk_engine_options opt = {.engine = "reference"};
    sk_engine *e = sk_engine_create(s, &opt, &err);
    if (!e)
        return; /* out of memory only: the scenario passed its memory check */
    const int rc = sk_warm_start(e, &err);
    if (rc) {
        SK_FUZZ_ASSERT(rc == (int)err.status && (rc == SK_ERR_CORRUPT || rc == SK_ERR_INVALID ||
                                                 rc == SK_ERR_MISMATCH));
        SK_FUZZ_ASSERT(err.message[0] != '\0');
        for (const char *p = err.message; *p; p++)
            SK_FUZZ_ASSERT((unsigned char)*p >= 0x20 && *p != 0x7f);
    } else {
        for (size_t rope = 0; rope < s->total_ropes; rope++) {
            const int n = sk_engine_rope_particles(e, rope);
            SK_FUZZ_ASSERT(n >= 1 && n <= s->groups[sk_scenario_find_rope(s, rope, NULL)].particles);
        }
        sk_engine_advance(e, 1); /* a step from what was read */
    }
    sk_engine_destroy(e);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const int fd = open(file, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (fd < 0 || write(fd, data, size) != (ssize_t)size) {
        perror(file);
        abort();
    }
    close(fd);
    sk_replay r;
    sk_error err = {0};
    int rc = sk_replay_open(file, &r, &err);
    if (rc) {
        check_refusal(rc, &err);
        SK_FUZZ_ASSERT(!r.path && !r.time && !r.stored && !r.ropes);
    } else {
        check_open(&r);
        read_and_show(&r);
        warm_start(&r, size);
    }
    sk_replay_free(&r);
    /* every file HDF5 opened for the reader is closed again */
    SK_FUZZ_ASSERT(H5Fget_obj_count(H5F_OBJ_ALL, H5F_OBJ_ALL) == 0);
    return 0;
}

#ifdef SKEIN_LIBFUZZER
/* ---- mutations: edits of the file through HDF5 (fuzz_h5_edit.h), one or two at a time ------------------ */

#include "fuzz_h5_edit.h"

size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max, unsigned seed);

size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max, unsigned seed)
{
    uint64_t rng = seed;
    for (uint64_t k = 1 + sk_fuzz_random(&rng) % 2; k > 0; k--) {
        const size_t n = sk_fuzz_h5_edit(data, size, max, &rng);
        size = n ? n : size;
    }
    return size;
}
#endif
