/* libFuzzer target of the checkpoint reader and the frame journal (core/io/checkpoint/checkpoint.c, frame_journal.c):
 * a checkpoint and a journal made by anyone are refused with one line, or resumed and replayed; no crash,
 * leak, hang or read past a buffer.
 *
 * Input: the checkpoint file, then its journal, split where the checkpoint ends by the length its seal
 * records, so a seed is `cat ck.h5 ck.h5.frames` of a real run (tests/fuzz_checkpoint_seeds/, made by
 * tests/fuzz_make_seeds.sh). A CRC proves nothing against a file made on purpose: the harness recomputes the
 * checkpoint's seal and every journal record's CRC, as whoever crafts a file does, so the fuzzer gets past
 * them. The scenario is the one the checkpoint holds, normalised and written back (an edited scenario then
 * passes the check that the checkpoint is its own, and its ropes' data meets a scenario it does not fit),
 * and the checkpoint is opened as `skein run --resume FILE` alone opens it: without a scenario (the one it
 * recorded loaded by the reader), then again with that scenario. */
#include <fcntl.h>
#include <hdf5.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "scenario/scenario.h"
#include "io/hdf5/h5_common.h"
#include "io/checkpoint/checkpoint.h"

/* The scenario's memory check, fixed so that a verdict is the same on every machine, and low: the engine
 * is built for the scenario the checkpoint holds. */
#define SK_FUZZ_MEMORY_LIMIT "20000000"
/* Steps the restored engine takes: its state is the kernels' input. */
#define SK_FUZZ_STEPS 3
/* The journal's layout (core/io/checkpoint/frame_journal.c): a 48-byte header, then records of a 24-byte header
 * (magic, reserved, step, payload length), the payload and 8 bytes (its CRC-32, padding). */
#define JOURNAL_HEADER 48
#define RECORD_HEADER 24

#define SK_FUZZ_ASSERT(cond)                                                                   \
    do {                                                                                        \
        if (!(cond)) {                                                                          \
            fprintf(stderr, "fuzz_checkpoint: %s:%d: %s\n", __FILE__, __LINE__, #cond);         \
            abort();                                                                            \
        }                                                                                       \
    } while (0)

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char dir[4096], ck[4200], journal[4200];

static void remove_files(void)
{
    unlink(ck);
    unlink(journal);
    rmdir(dir);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    setenv("SKEIN_MEMORY_LIMIT", SK_FUZZ_MEMORY_LIMIT, 1);
    const char *tmp = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
    snprintf(dir, sizeof dir, "%s/skein-fuzz-ckpt-XXXXXX", tmp);
    if (!mkdtemp(dir))
        abort();
    snprintf(ck, sizeof ck, "%s/ck.h5", dir);
    snprintf(journal, sizeof journal, "%s/ck.h5.frames", dir);
    atexit(remove_files);
    return 0;
}

/* Where the checkpoint ends: the length in its seal (bytes 24 to 31), within the input. */
static size_t split(const uint8_t *data, size_t size)
{
    uint64_t length = 0;
    if (size >= 32)
        memcpy(&length, data + 24, sizeof length);
    return length < size ? (size_t)length : size;
}

static void put(const char *path, const uint8_t *data, size_t size)
{
    const int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (fd < 0 || write(fd, data, size) != (ssize_t)size) {
        perror(path);
        abort();
    }
    close(fd);
}

/* The journal with every record's CRC made right, as far as the records' lengths chain within it. */
static void put_journal(const uint8_t *data, size_t size)
{
    uint8_t *j = malloc(size ? size : 1);
    SK_FUZZ_ASSERT(j);
    memcpy(j, data, size);
    for (size_t at = JOURNAL_HEADER; at + RECORD_HEADER + 8 <= size;) {
        uint64_t payload;
        memcpy(&payload, j + at + 16, sizeof payload);
        if (payload > size - at - RECORD_HEADER - 8)
            break;
        const uint32_t crc = (uint32_t)crc32_z(crc32_z(0L, Z_NULL, 0), j + at, RECORD_HEADER + (size_t)payload);
        memcpy(j + at + RECORD_HEADER + payload, &crc, sizeof crc);
        at += RECORD_HEADER + (size_t)payload + 8;
    }
    put(journal, j, size);
    free(j);
}

/* A refusal: the expected status, one line a terminal prints as it is, naming the file. */
static void check_refusal(int rc, const sk_error *err, const char *path)
{
    SK_FUZZ_ASSERT(rc != 0 && rc == (int)err->status);
    SK_FUZZ_ASSERT(rc == SK_ERR_CORRUPT || rc == SK_ERR_MISMATCH || rc == SK_ERR_INVALID);
    SK_FUZZ_ASSERT(strncmp(err->message, path, strlen(path)) == 0);
    for (const char *p = err->message; *p; p++)
        SK_FUZZ_ASSERT((unsigned char)*p >= 0x20 && *p != 0x7f);
}

/* The scenario text the checkpoint holds, normalised and written back over the stored one when it loads. */
static void normalise_scenario(void)
{
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
    hid_t f = H5Fopen(ck, H5F_ACC_RDWR, H5P_DEFAULT);
    if (f < 0)
        return;
    char *text = sk_h5_get_text(f, "scenario");
    sk_error err = {0};
    sk_scenario s;
    if (text && sk_scenario_load_string(text, "fuzz.json", NULL, &s, &err) == 0) {
        if (strcmp(text, s.normalized_json) != 0 && H5Adelete(f, "scenario") >= 0)
            sk_h5_set_text(f, "scenario", s.normalized_json);
        sk_scenario_free(&s);
    }
    free(text);
    H5Fclose(f);
    char why[256];
    sk_h5_failure_reason(why, sizeof why); /* nothing kept for the reader to find */
}

/* Opened without a scenario: refused, or the scenario it recorded, which loads (the reader loaded it). */
static bool recorded_scenario(sk_scenario *s)
{
    sk_error err = {0};
    sk_checkpoint *c = sk_checkpoint_open(ck, NULL, &err);
    if (!c) {
        check_refusal(err.status, &err, ck);
        return false;
    }
    const sk_checkpoint_info *m = sk_checkpoint_meta(c);
    SK_FUZZ_ASSERT(m->scenario && m->source);
    for (const char *p = m->source; *p; p++) /* printed as the scenario's name */
        SK_FUZZ_ASSERT((unsigned char)*p >= 0x20 && *p != 0x7f);
    SK_FUZZ_ASSERT(sk_scenario_load_string(m->scenario, m->source, NULL, s, &err) == 0);
    sk_checkpoint_close(c);
    return true;
}

/* What open promises of a checkpoint it took. */
/* Whether temp, less its ".tmp.XXXXXX", names output (less trailing slashes), or DIR/output where output is
 * relative and the temporary absolute, as the reader requires. */
static bool names_output(const char *temp, const char *output)
{
    const size_t t = strlen(temp);
    if (t < 11)
        return false;
    const size_t base = t - 11;
    size_t n = strlen(output);
    while (n > 1 && output[n - 1] == '/')
        n--;
    for (size_t k = 0; k <= base; k++)
        if ((k == 0 || temp[k - 1] == '/') && base - k == n && strncmp(temp + k, output, n) == 0)
            return true;
    return false;
}

static void check_meta(const sk_scenario *s, const sk_checkpoint_info *m)
{
    SK_FUZZ_ASSERT(m->step >= 0 && m->step <= m->steps && m->every >= 1 && m->checkpoint_every >= 1);
    SK_FUZZ_ASSERT(m->journal_frames >= 0 && m->journal_frames <= m->step / m->every + 1);
    SK_FUZZ_ASSERT(m->n_ropes <= s->total_ropes);
    for (size_t i = 0; i < m->n_ropes; i++)
        SK_FUZZ_ASSERT(m->ropes[i] < s->total_ropes && (i == 0 || m->ropes[i] > m->ropes[i - 1]));
    for (int g = 0; g < s->n_groups; g++)
        SK_FUZZ_ASSERT(m->start[g].ropes <= s->groups[g].count && m->start[g].diverged <= s->groups[g].count);
    SK_FUZZ_ASSERT(m->engine);
    SK_FUZZ_ASSERT(m->vtk_cells == SK_VTK_LINKS || m->vtk_cells == SK_VTK_POLYLINES);
    SK_FUZZ_ASSERT(!m->vtk_temp || (m->vtk && names_output(m->vtk_temp, m->vtk)));
    SK_FUZZ_ASSERT(!m->results_temp || (m->results && names_output(m->results_temp, m->results)));
}

/* A sink reading every recorded rope as the outputs do, into buffers of exactly the rope's size (so that a
 * count the journal gives past its group's particles is a read past them, which ASan sees). */
typedef struct frame_check {
    const sk_scenario *s;
    const sk_checkpoint_info *m;
    long frames;
} frame_check;

static sk_status check_frame(void *ctx, const sk_engine *e, long step, sk_error *err)
{
    (void)err;
    frame_check *fc = ctx;
    for (size_t i = 0; i < fc->m->n_ropes; i++) {
        const size_t rope = fc->m->ropes[i];
        const int g = sk_scenario_find_rope(fc->s, rope, NULL), n = sk_engine_rope_particles(e, rope);
        SK_FUZZ_ASSERT(g >= 0 && n >= 1 && n <= fc->s->groups[g].particles);
        const long d = sk_engine_rope_diverged(e, rope);
        SK_FUZZ_ASSERT(d >= -1 && d <= step);
        sk_real *p = malloc(3 * (size_t)n * sizeof *p), *v = malloc(3 * (size_t)n * sizeof *v),
                *t = n > 1 ? malloc(((size_t)n - 1) * sizeof *t) : NULL;
        SK_FUZZ_ASSERT(p && v && (n == 1 || t));
        sk_engine_read_rope(e, rope, p, v);
        sk_rope_diagnostics diag;
        sk_engine_rope_diagnostics(e, rope, &diag, t);
        int contacts = -1, iterations = -1;
        sk_engine_rope_contacts(e, rope, &contacts, &iterations);
        SK_FUZZ_ASSERT(contacts >= 0 && iterations >= 0);
        free(p);
        free(v);
        free(t);
    }
    fc->frames++;
    return 0;
}

/* Restores the checkpoint into an engine of the kind that wrote it (tracking the extremes when the run had
 * --results, as skein run's does) and steps it a little. */
static sk_engine *restore(sk_checkpoint *c, const sk_scenario *s)
{
    const char *kind = sk_checkpoint_meta(c)->engine;
    sk_engine_options opt = {.engine = strcmp(kind, "reference") == 0 ? "reference" : "batch", .threads = 1,
                             .track_extremes = sk_checkpoint_meta(c)->results != NULL};
    sk_error err = {0};
    sk_engine *e = sk_engine_create(s, &opt, &err);
    if (!e)
        return NULL; /* out of memory only: the scenario passed its memory check */
    const int rc = sk_checkpoint_restore(c, e, &err);
    if (rc) {
        check_refusal(rc, &err, ck);
        sk_engine_destroy(e);
        return NULL;
    }
    SK_FUZZ_ASSERT(sk_engine_step(e) == sk_checkpoint_meta(c)->step);
    sk_engine_advance(e, SK_FUZZ_STEPS);
    sk_engine_check_frame(e);
    for (size_t rope = 0; opt.track_extremes && rope < s->total_ropes; rope++) {
        sk_real x[2];
        SK_FUZZ_ASSERT(sk_engine_rope_extremes(e, rope, &x[0], &x[1]));
    }
    return e;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const size_t length = split(data, size);
    put(ck, data, length);
    put_journal(data + length, size - length);
    normalise_scenario();
    sk_checkpoint_seal(ck);
    sk_scenario s;
    if (!recorded_scenario(&s))
        return 0;
    sk_error err = {0};
    sk_checkpoint *c = sk_checkpoint_open(ck, &s, &err);
    if (!c) {
        check_refusal(err.status, &err, ck);
        sk_scenario_free(&s);
        return 0;
    }
    const sk_checkpoint_info *m = sk_checkpoint_meta(c);
    check_meta(&s, m);
    sk_engine *e = restore(c, &s);
    frame_check fc = {.s = &s, .m = m};
    sk_frame_sink sink = {check_frame, &fc};
    err = (sk_error){0};
    sk_journal *j = sk_journal_resume(journal, &s, m->ropes, m->n_ropes, m->journal_id, m->journal_bytes,
                                      m->journal_frames, &sink, 1, &err);
    if (!j) {
        check_refusal(err.status, &err, journal);
    } else {
        SK_FUZZ_ASSERT(fc.frames == m->journal_frames);
        if (e) /* the run goes on: a frame appended after the replayed ones */
            SK_FUZZ_ASSERT(sk_journal_append(j, e, sk_engine_step(e), &err) == 0);
        sk_journal_close(j);
    }
    sk_engine_destroy(e);
    sk_checkpoint_close(c);
    sk_scenario_free(&s);
    SK_FUZZ_ASSERT(H5Fget_obj_count(H5F_OBJ_ALL, H5F_OBJ_ALL) == 0);
    return 0;
}

#ifdef SKEIN_LIBFUZZER
/* ---- mutations: an edit of the checkpoint through HDF5, or of the journal's records -------------------- */

#include "fuzz_h5_edit.h"

size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size);
size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max, unsigned seed);

/* Overwrites a field of a journal record (or of the header) with a value a reader may mishandle: a step,
 * a payload length, a particle count, a divergence mark, a rope's contact counts, any real. */
static void edit_record(uint8_t *j, size_t size, size_t n_ropes, uint64_t *rng)
{
    size_t at[64], n = 0;
    for (size_t a = JOURNAL_HEADER; a + RECORD_HEADER + 8 <= size && n < 64;) {
        uint64_t payload;
        memcpy(&payload, j + a + 16, sizeof payload);
        at[n++] = a;
        if (payload > size - a - RECORD_HEADER - 8)
            break;
        a += RECORD_HEADER + (size_t)payload + 8;
    }
    const size_t counts = (4 * n_ropes + 7) / 8 * 8;
    const size_t r = n_ropes ? (size_t)(sk_fuzz_random(rng) % n_ropes) : 0;
    size_t base = n ? at[sk_fuzz_random(rng) % n] : 0, off, width;
    switch (n ? sk_fuzz_random(rng) % 6 : 5) {
    case 0: off = 8, width = 8; break;                              /* step */
    case 1: off = 16, width = 8; break;                             /* payload */
    case 2: off = RECORD_HEADER + 4 * r, width = 4; break;          /* a count */
    case 3: off = RECORD_HEADER + counts + 8 * r, width = 8; break; /* a mark */
    case 4: /* a real of the first ropes: their diagnostics (contacts, iterations), positions */
        off = RECORD_HEADER + counts + 8 * n_ropes + 8 * (sk_fuzz_random(rng) % 64), width = 8;
        break;
    default: base = 0, off = 8 + 4 * (sk_fuzz_random(rng) % 8), width = 4; break; /* the journal's header */
    }
    if (base + off + width > size)
        return;
    int64_t v = 0;
    memcpy(&v, j + base + off, width);
    v = sk_fuzz_integer(width == 4 ? (int32_t)v : v, rng);
    memcpy(j + base + off, &v, width); /* little-endian: the low bytes */
}

size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max, unsigned seed)
{
    uint64_t rng = seed;
    const size_t length = split(data, size), jsize = size - length;
    uint8_t *j = malloc(max + 1);
    if (!j)
        return size;
    memcpy(j, data + length, jsize);
    size_t ck_size = length, j_size = jsize;
    const uint64_t what = sk_fuzz_random(&rng) % 8;
    if (what < 4 && jsize > 0) { /* the journal */
        uint64_t ropes = 0;
        if (jsize >= 32)
            memcpy(&ropes, j + 24, sizeof ropes);
        if (what < 3)
            edit_record(j, j_size, ropes < 1000000 ? (size_t)ropes : 0, &rng);
        else
            j_size = LLVMFuzzerMutate(j, jsize, max - length);
        /* a journal of another length: the checkpoint says so, mostly (else it is refused at once) */
        if (j_size != jsize && sk_fuzz_random(&rng) % 4) {
            const size_t n = sk_fuzz_h5_set_root_int(data, length, max - j_size, "journal_bytes", (int64_t)j_size);
            ck_size = n ? n : length;
        }
    } else if (length > 0) { /* the checkpoint, through HDF5 */
        const size_t n = sk_fuzz_h5_edit(data, length, max - jsize, &rng);
        ck_size = n ? n : length;
    }
    if (ck_size + j_size > max)
        j_size = max - ck_size;
    if (ck_size >= 32) { /* the seal says where the checkpoint ends */
        const uint64_t l = ck_size;
        memcpy(data + 24, &l, sizeof l);
    }
    memcpy(data + ck_size, j, j_size);
    free(j);
    return ck_size + j_size;
}
#endif
