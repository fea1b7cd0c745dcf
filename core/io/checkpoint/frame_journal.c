/* The frame journal of a checkpointed run: frames appended as checksummed records, checked, cut back to
 * what a checkpoint recorded and handed to the outputs again by a resumed run (skein/checkpoint.h). */
#include <errno.h>
#include <math.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>
#include <zlib.h>

#include "base/assert.h"
#include "util/checked.h"
#include "base/sorted.h"
#include "engine/engine_impl.h"
#include "io/records/rope_record.h"
#include "io/checkpoint/checkpoint.h"
#include "scenario/scenario.h"
#include "engine/engine_state.h"

/* Records are written through a large stdio buffer: a frame of many small ropes becomes few big writes. */
#define JOURNAL_BUFFER ((size_t)1 << 20)
/* A rope's diagnostics as recorded: kinetic, gravity, elastic, anchor force x y z, length, finite (0/1),
 * then its last step's contacts and resolver iterations (exact integers; 0 for a rope without contacts). */

static const char journal_magic[8] = {'s', 'k', 'e', 'i', 'n', 'f', 'r', 'm'};
enum { JOURNAL_VERSION = 3 }; /* 2: contacts and iterations recorded; 3: verlet's q and a deploying rope's s */
static const uint32_t record_magic = 0x4d524653u; /* "SFRM" */

typedef struct journal_header {
    char magic[8];
    uint32_t version, real_size;
    uint64_t id, n_ropes, ropes_hash, reserved;
} journal_header;

/* A record: this header, the payload (counts [R] int32, padded to 8 bytes, marks [R] int64, then per rope
 * its reals), then the CRC-32 of header and payload and 4 bytes of padding. A rope's reals: diagnostics,
 * positions, velocities, link tensions, then what the HDF5 output keeps for a warm start: verlet's previous
 * positions, a deploying rope's anchored segment s. */
typedef struct record_header {
    uint32_t magic, reserved;
    int64_t step;
    uint64_t payload;
} record_header;

struct sk_journal {
    char *path;
    FILE *f;
    char *buffer;
    size_t *ropes; /* sorted */
    size_t n_ropes;
    int capacity; /* the largest group's */
    bool verlet;  /* the ropes record their previous positions */
    const sk_group **group; /* [n_ropes]: each rope's group (whether it deploys, and bounds its count) */
    sk_rope_state scratch;  /* one rope's exported state (capacity) */
    long frames;
    uint64_t bytes;    /* the file's length as written so far */
    int32_t *n;        /* [n_ropes]: one frame's counts */
    int64_t *diverged; /* [n_ropes]: one frame's marks */
    sk_real *rope;     /* one rope's reals */
};

/* Reals a rope of n particles of group g records: diagnostics, positions, velocities, link tensions, then q
 * with verlet and s when it deploys. */
static size_t rope_reals(const sk_journal *j, const sk_group *g, int n)
{
    return sk_rope_record_reals(j->verlet, g->deploys, n);
}

static size_t counts_bytes(size_t n_ropes) { return (4 * n_ropes + 7) / 8 * 8; }

static uint64_t ropes_hash(const size_t *ropes, size_t n)
{
    uint64_t h = 1469598103934665603ull; /* FNV-1a */
    for (size_t i = 0; i < n; i++) {
        uint64_t r = ropes[i];
        for (int b = 0; b < 8; b++) {
            h ^= (r >> (8 * b)) & 0xffu;
            h *= 1099511628211ull;
        }
    }
    return h;
}

static int io_fail(const sk_journal *j, sk_error *err, const char *what, int e)
{
    return sk_fail(err, SK_ERR_IO, "%s: %s: %s", j->path, what, strerror(e));
}

static int damaged(const sk_journal *j, sk_error *err, const char *what)
{
    return sk_fail(err, SK_ERR_CORRUPT, "%s: the frame journal the checkpoint refers to %s", j->path, what);
}

void sk_journal_close(sk_journal *j)
{
    if (!j)
        return;
    if (j->f)
        fclose(j->f);
    free(j->path);
    free(j->buffer);
    free(j->ropes);
    free(j->n);
    free(j->diverged);
    free(j->rope);
    free(j->group);
    sk_rope_state_free(&j->scratch);
    free(j);
}

static sk_journal *journal_new(const char *path, const sk_scenario *s, const size_t *ropes, size_t n_ropes,
                               sk_error *err)
{
    sk_journal *j = calloc(1, sizeof *j);
    int capacity = 1;
    for (int g = 0; g < s->n_groups; g++)
        capacity = s->groups[g].particles > capacity ? s->groups[g].particles : capacity;
    const size_t rn = n_ropes ? n_ropes : 1, cap = (size_t)capacity;
    if (j) {
        j->verlet = s->integrator == SK_INTEGRATOR_VERLET;
        j->path = strdup(path);
        j->buffer = malloc(JOURNAL_BUFFER);
        j->ropes = malloc(rn * sizeof *j->ropes);
        j->n = malloc(rn * sizeof *j->n);
        j->diverged = malloc(rn * sizeof *j->diverged);
        j->group = malloc(rn * sizeof *j->group);
        j->rope = malloc((SK_RECORD_DIAG_REALS + 10 * cap + 1) * sizeof *j->rope); /* the most rope_reals gives */
    }
    if (!j || !j->path || !j->buffer || !j->ropes || !j->n || !j->diverged || !j->group || !j->rope ||
        !sk_rope_state_alloc(&j->scratch, cap)) {
        sk_fail(err, SK_ERR_NO_MEMORY, "%s: out of memory", path);
        sk_journal_close(j);
        return NULL;
    }
    if (n_ropes)
        memcpy(j->ropes, ropes, n_ropes * sizeof *ropes);
    for (size_t r = 0; r < n_ropes; r++) {
        const int g = sk_scenario_find_rope(s, ropes[r], NULL);
        SK_ASSERT(g >= 0); /* the ropes are the scenario's (asserted by the callers) */
        j->group[r] = &s->groups[g];
    }
    j->n_ropes = n_ropes;
    j->capacity = capacity;
    return j;
}

static journal_header header_of(const sk_journal *j, uint64_t id)
{
    journal_header h;
    memset(&h, 0, sizeof h);
    memcpy(h.magic, journal_magic, sizeof h.magic);
    h.version = JOURNAL_VERSION;
    h.real_size = sizeof(sk_real);
    h.id = id;
    h.n_ropes = j->n_ropes;
    h.ropes_hash = ropes_hash(j->ropes, j->n_ropes);
    return h;
}

/* A new file at path, opened for writing: made under a fresh name beside it (mkstemp: O_EXCL, so nothing
 * planted there is followed or written through) and renamed over path, which replaces whatever path was (a
 * symbolic link planted there included) rather than writing through it. NULL with errno set. */
static FILE *create_fresh(const char *path)
{
    const size_t len = strlen(path);
    char *temp = malloc(len + sizeof ".tmp.XXXXXX");
    if (!temp) {
        errno = ENOMEM;
        return NULL;
    }
    memcpy(temp, path, len);
    memcpy(temp + len, ".tmp.XXXXXX", sizeof ".tmp.XXXXXX");
    const int fd = mkstemp(temp);
    if (fd < 0) {
        free(temp);
        return NULL;
    }
    const mode_t mask = umask(0); /* mkstemp's 0600, widened to what the user's files get */
    umask(mask);
    FILE *f = NULL;
    bool renamed = false;
    int e = fchmod(fd, 0666 & ~mask) != 0 ? errno : 0;
    if (e == 0 && !(e = rename(temp, path) != 0 ? errno : 0))
        renamed = true;
    if (e == 0 && !(f = fdopen(fd, "wb")))
        e = errno;
    if (e) {
        close(fd);
        unlink(renamed ? path : temp);
    }
    free(temp);
    errno = e;
    return f;
}

sk_journal *sk_journal_create(const char *path, const sk_scenario *s, const size_t *ropes, size_t n_ropes,
                              uint64_t id, sk_error *err)
{
    SK_ASSERT(sk_ropes_sorted_below(ropes, n_ropes, s->total_ropes));
    sk_journal *j = journal_new(path, s, ropes, n_ropes, err);
    if (!j)
        return NULL;
    if (!(j->f = create_fresh(path))) {
        io_fail(j, err, "cannot create", errno);
        sk_journal_close(j);
        return NULL;
    }
    setvbuf(j->f, j->buffer, _IOFBF, JOURNAL_BUFFER);
    const journal_header h = header_of(j, id);
    if (fwrite(&h, sizeof h, 1, j->f) != 1) {
        io_fail(j, err, "write failed", errno);
        sk_journal_close(j);
        return NULL;
    }
    j->bytes = sizeof h;
    return j;
}

/* ---- appending ------------------------------------------------------------------------------------- */

static int put(sk_journal *j, uLong *crc, const void *data, size_t len, sk_error *err)
{
    if (len && fwrite(data, 1, len, j->f) != len)
        return io_fail(j, err, "write failed", errno);
    *crc = crc32_z(*crc, data, len);
    j->bytes += len;
    return 0;
}

sk_status sk_journal_append(sk_journal *j, const sk_engine *e, long step, sk_error *err)
{
    const size_t R = j->n_ropes;
    uint64_t payload = counts_bytes(R) + 8 * (uint64_t)R;
    for (size_t r = 0; r < R; r++) {
        const int n = sk_engine_rope_particles(e, j->ropes[r]);
        SK_ASSERT(n >= 1 && n <= j->capacity); /* the engine's ropes are the scenario's */
        j->n[r] = n;
        j->diverged[r] = sk_engine_rope_diverged(e, j->ropes[r]);
        payload += rope_reals(j, j->group[r], n) * sizeof(sk_real);
    }
    const record_header h = {record_magic, 0, step, payload};
    const char pad[8] = {0};
    uLong crc = crc32_z(0L, Z_NULL, 0);
    int rc = put(j, &crc, &h, sizeof h, err);
    if (rc == 0)
        rc = put(j, &crc, j->n, 4 * R, err);
    if (rc == 0)
        rc = put(j, &crc, pad, counts_bytes(R) - 4 * R, err);
    if (rc == 0)
        rc = put(j, &crc, j->diverged, 8 * R, err);
    for (size_t r = 0; rc == 0 && r < R; r++) {
        const int n = j->n[r];
        sk_real *d = j->rope;
        sk_rope_record_pack(e, j->ropes[r], n, j->verlet, j->group[r]->deploys, &j->scratch, d);
        rc = put(j, &crc, d, rope_reals(j, j->group[r], n) * sizeof(sk_real), err);
    }
    const uint32_t tail[2] = {(uint32_t)crc, 0};
    if (rc == 0 && fwrite(tail, sizeof tail, 1, j->f) != 1)
        rc = io_fail(j, err, "write failed", errno);
    if (rc)
        return rc;
    j->bytes += sizeof tail;
    j->frames++;
    return 0;
}

sk_status sk_journal_frame_sink(void *ctx, const sk_engine *e, long step, sk_error *err)
{
    return sk_journal_append(ctx, e, step, err);
}

sk_status sk_journal_sync(sk_journal *j, uint64_t *bytes, long *frames, sk_error *err)
{
    if (fflush(j->f) != 0)
        return io_fail(j, err, "write failed", errno);
    if (fsync(fileno(j->f)) != 0)
        return io_fail(j, err, "fsync failed", errno);
    if (bytes)
        *bytes = j->bytes;
    if (frames)
        *frames = j->frames;
    return 0;
}

const char *sk_journal_path(const sk_journal *j) { return j->path; }

long sk_journal_frames(const sk_journal *j) { return j->frames; }

/* ---- reading back: a stand-in engine whose ropes are one recorded frame's ---------------------------- */

/* A journal is checked before it is believed, CRCs or not: a file made on purpose carries correct ones.
 * Every count it gives is bounded by what its rope's group can have and every length by the file, before
 * anything is sized or read by them. */

/* Which rope's reals the journal's buffer holds: a cache the engine's const readers fill, so it is reached
 * through a pointer and is not part of the engine itself. */
typedef struct recorded_cache {
    size_t loaded; /* the rope whose reals j->rope holds (n_ropes: none) */
    bool failed;   /* a read failed: the frame is not handed on */
    bool damaged;  /* a rope's reals hold what no rope records (a contact count that is not a count) */
} recorded_cache;

typedef struct recorded_engine {
    struct sk_engine base;
    sk_journal *j;
    uint64_t *offset;       /* [n_ropes]: where each rope's reals start in the file */
    const sk_group **group; /* [n_ropes]: each rope's group, which bounds its particle count */
    recorded_cache *cache;
} recorded_engine;

static bool read_at(const sk_journal *j, void *buf, size_t len, uint64_t at)
{
    char *p = buf;
    while (len > 0) {
        const ssize_t got = pread(fileno(j->f), p, len, (off_t)at);
        if (got <= 0) {
            if (got < 0 && errno == EINTR)
                continue;
            return false;
        }
        p += got;
        len -= (size_t)got;
        at += (uint64_t)got;
    }
    return true;
}

static size_t index_of(const sk_journal *j, size_t rope) { return sk_sorted_find(j->ropes, j->n_ropes, rope); }

/* A recorded count (contacts, iterations, stored as a real) that an int holds exactly. */
static bool int_count(sk_real x) { return (double)x >= 0 && (double)x < 2147483648.0 && x == (sk_real)(long)x; }

/* The recorded reals of a rope (the frame's data is read a rope at a time: a frame of every rope of a big
 * batch need not fit in memory). NULL for a rope not recorded, or when the read fails or finds them
 * damaged. */
static const sk_real *rope_data(const sk_engine *e, size_t rope)
{
    const recorded_engine *c = (const recorded_engine *)e;
    const size_t i = index_of(c->j, rope);
    if (i == c->j->n_ropes)
        return NULL;
    if (c->cache->loaded != i) {
        const sk_real *d = c->j->rope;
        c->cache->loaded = c->j->n_ropes;
        if (!read_at(c->j, c->j->rope, rope_reals(c->j, c->j->group[i], c->j->n[i]) * sizeof(sk_real),
                     c->offset[i])) {
            c->cache->failed = true;
            return NULL;
        }
        /* the counts become ints: whole numbers in range first (the other reals are any the rope had) */
        if (!int_count(d[8]) || !int_count(d[9])) {
            c->cache->damaged = true;
            return NULL;
        }
        c->cache->loaded = i;
    }
    return c->j->rope;
}

static uint64_t recorded_advance(sk_engine *e, long steps)
{
    (void)e;
    (void)steps;
    return 0; /* a recorded frame does not move */
}

static int recorded_particles(const sk_engine *e, size_t rope)
{
    const recorded_engine *c = (const recorded_engine *)e;
    const size_t i = index_of(c->j, rope);
    return i < c->j->n_ropes ? c->j->n[i] : 0;
}

static void recorded_read(const sk_engine *e, size_t rope, sk_real *p, sk_real *v)
{
    sk_rope_record_read(rope_data(e, rope), recorded_particles(e, rope), p, v);
}

static void recorded_destroy(sk_engine *e) { (void)e; }

static long recorded_diverged(const sk_engine *e, size_t rope)
{
    const recorded_engine *c = (const recorded_engine *)e;
    const size_t i = index_of(c->j, rope);
    return i < c->j->n_ropes ? (long)c->j->diverged[i] : -1;
}

static void recorded_diagnostics(const sk_engine *e, size_t rope, sk_rope_diagnostics *out, sk_real *tension)
{
    sk_rope_record_diagnostics(rope_data(e, rope), recorded_particles(e, rope), out, tension);
}

static void recorded_contacts(const sk_engine *e, size_t rope, int *contacts, int *iterations)
{
    sk_rope_record_contacts(rope_data(e, rope), contacts, iterations); /* its counts checked (int_count) */
}

static const sk_engine_vtbl recorded_vtbl = {.advance = recorded_advance,
                                             .rope_particles = recorded_particles,
                                             .read_rope = recorded_read,
                                             .rope_diagnostics = recorded_diagnostics,
                                             .rope_contacts = recorded_contacts,
                                             .destroy = recorded_destroy};
/* What the record holds of a rope's state, for the HDF5 output's previous and segment (sk_rope_record_export).
 * The stand-in is handed to the outputs only, never to a checkpoint. */
static void recorded_export(const sk_engine *e, size_t rope, sk_rope_state *st)
{
    const recorded_engine *c = (const recorded_engine *)e;
    const size_t i = index_of(c->j, rope);
    const bool held = i < c->j->n_ropes;
    sk_rope_record_export(rope_data(e, rope), recorded_particles(e, rope),
                          held ? (size_t)c->j->group[i]->particles : 0, c->j->verlet,
                          held && c->j->group[i]->deploys, st);
    st->steps = c->base.step;
    st->diverged = recorded_diverged(e, rope);
}

static const sk_engine_ext recorded_ext = {.rope_diverged = recorded_diverged, .export_rope = recorded_export};

/* Checks the record at `at` (header, bounds, CRC) within the first `end` bytes, reading through scratch
 * (JOURNAL_BUFFER bytes); *next gets the record after it. */
static int check_record(sk_journal *j, unsigned char *scratch, uint64_t at, uint64_t end, uint64_t *next,
                        sk_error *err)
{
    record_header h;
    if (at > end || end - at < sizeof h + 8 || !read_at(j, &h, sizeof h, at))
        return damaged(j, err, "is cut short");
    if (h.magic != record_magic || h.payload > end - at - sizeof h - 8)
        return damaged(j, err, "is damaged (a record's header)");
    uLong crc = crc32_z(crc32_z(0L, Z_NULL, 0), (const Bytef *)&h, sizeof h);
    uint64_t pos = at + sizeof h, left = h.payload;
    while (left > 0) {
        const size_t len = left < JOURNAL_BUFFER ? (size_t)left : JOURNAL_BUFFER;
        if (!read_at(j, scratch, len, pos))
            return damaged(j, err, "is cut short");
        crc = crc32_z(crc, scratch, len);
        pos += len;
        left -= len;
    }
    uint32_t tail[2];
    if (!read_at(j, tail, sizeof tail, pos))
        return damaged(j, err, "is cut short");
    if (tail[0] != (uint32_t)crc)
        return damaged(j, err, "is damaged (a checksum does not match)");
    *next = pos + sizeof tail;
    return 0;
}

/* The fewest particles a rope of group g records, and the most. */
static int least_particles(const sk_group *g) { return g->deploys ? g->deploy_initial : g->particles; }

/* Reads the record at `at` (its CRC checked, so its payload lies within the journal) into *h, j->n and
 * j->diverged, with where each rope's reals start, and checks it against the scenario: each count one its
 * rope's group can have, each mark -1 or a step up to the record's, a step after `after` (the previous
 * record's), a payload of the length those counts make. */
static int load_record(recorded_engine *c, uint64_t at, long after, record_header *h, sk_error *err)
{
    sk_journal *j = c->j;
    const size_t R = j->n_ropes;
    const uint64_t head = counts_bytes(R) + 8 * (uint64_t)R;
    if (!read_at(j, h, sizeof *h, at))
        return io_fail(j, err, "read failed", errno ? errno : EIO);
    if (h->payload < head)
        return damaged(j, err, "is damaged (a record's length)");
    if ((R && !read_at(j, j->n, 4 * R, at + sizeof *h)) ||
        (R && !read_at(j, j->diverged, 8 * R, at + sizeof *h + counts_bytes(R))))
        return io_fail(j, err, "read failed", errno ? errno : EIO);
    if (h->step < 0 || h->step <= after)
        return damaged(j, err, "is damaged (a frame's step)");
    uint64_t off = at + sizeof *h + head, size = head;
    for (size_t r = 0; r < R; r++) {
        const sk_group *g = c->group[r];
        if (j->n[r] < least_particles(g) || j->n[r] > g->particles)
            return damaged(j, err, "is damaged (a particle count)");
        if (j->diverged[r] < -1 || j->diverged[r] > h->step)
            return damaged(j, err, "is damaged (a divergence mark)");
        c->offset[r] = off;
        const uint64_t reals = rope_reals(j, g, j->n[r]) * sizeof(sk_real); /* a group's particles: an int's */
        off += reals;
        size += reals;
        if (size > h->payload)
            return damaged(j, err, "is damaged (a record's length)");
    }
    if (size != h->payload)
        return damaged(j, err, "is damaged (a record's length)");
    return 0;
}

/* Hands the frame recorded at `at` to the sinks. */
static int replay_record(recorded_engine *c, uint64_t at, long after, const sk_frame_sink *sinks, int n_sinks,
                         sk_error *err)
{
    sk_journal *j = c->j;
    record_header h;
    int rc = load_record(c, at, after, &h, err);
    if (rc)
        return rc;
    c->base.step = (long)h.step;
    c->cache->loaded = j->n_ropes;
    c->cache->failed = c->cache->damaged = false;
    for (int i = 0; i < n_sinks; i++) {
        rc = sinks[i].frame(sinks[i].ctx, &c->base, (long)h.step, err);
        if (rc == 0 && c->cache->damaged)
            rc = damaged(j, err, "is damaged (a rope's contact counts)");
        if (rc == 0 && c->cache->failed)
            rc = io_fail(j, err, "read failed", errno ? errno : EIO);
        if (rc)
            return rc;
    }
    return 0;
}

/* Opens the journal at path for reading and writing: a regular file, reached without following a symbolic
 * link (the journal is the library's own file, beside the checkpoint). NULL with err filled. */
static FILE *open_existing(const sk_journal *j, uint64_t *size, sk_error *err)
{
    const int fd = open(j->path, O_RDWR | O_NOFOLLOW | O_CLOEXEC);
    struct stat st;
    if (fd < 0) {
        sk_fail(err, errno == ENOENT || errno == ELOOP ? SK_ERR_CORRUPT : SK_ERR_IO,
                "%s: cannot open the frame journal the checkpoint refers to: %s", j->path,
                errno == ELOOP ? "it is a symbolic link, which is not followed" : strerror(errno));
        return NULL;
    }
    FILE *f = NULL;
    if (fstat(fd, &st) != 0)
        io_fail(j, err, "cannot read the frame journal the checkpoint refers to", errno);
    else if (!S_ISREG(st.st_mode))
        damaged(j, err, "is not a regular file");
    else if (!(f = fdopen(fd, "r+b")))
        io_fail(j, err, "cannot open the frame journal the checkpoint refers to", errno);
    if (!f) {
        close(fd);
        return NULL;
    }
    *size = (uint64_t)st.st_size;
    return f;
}

sk_journal *sk_journal_resume(const char *path, const sk_scenario *s, const size_t *ropes, size_t n_ropes,
                              uint64_t id, uint64_t bytes, long frames, const sk_frame_sink *sinks, int n_sinks,
                              sk_error *err)
{
    SK_ASSERT(sk_ropes_sorted_below(ropes, n_ropes, s->total_ropes));
    sk_journal *j = journal_new(path, s, ropes, n_ropes, err);
    if (!j)
        return NULL;
    uint64_t *starts = NULL;
    unsigned char *scratch = NULL;
    recorded_cache cache = {0};
    recorded_engine c = {.j = j, .cache = &cache};
    uint64_t size = 0;
    int rc = 0;
    if (!(j->f = open_existing(j, &size, err))) {
        rc = err->status;
        goto done;
    }
    setvbuf(j->f, j->buffer, _IOFBF, JOURNAL_BUFFER);
    journal_header h, want = header_of(j, id);
    if (!read_at(j, &h, sizeof h, 0) || memcmp(h.magic, want.magic, sizeof h.magic) != 0 ||
        h.version != JOURNAL_VERSION) {
        rc = damaged(j, err, "is not a skein frame journal, or is damaged");
        goto done;
    }
    if (h.real_size != want.real_size || h.id != want.id || h.n_ropes != want.n_ropes ||
        h.ropes_hash != want.ropes_hash) {
        rc = sk_fail(err, SK_ERR_MISMATCH, "%s: the frame journal the checkpoint refers to belongs to another run", path);
        goto done;
    }
    c.offset = sk_alloc_array(n_ropes, sizeof *c.offset);
    c.group = sk_alloc_array(n_ropes, sizeof *c.group);
    scratch = malloc(JOURNAL_BUFFER);
    if (!c.offset || !c.group || !scratch) {
        rc = sk_fail(err, SK_ERR_NO_MEMORY, "%s: out of memory", path);
        goto done;
    }
    /* The smallest record these ropes make; the checkpoint's count of frames must fit in the bytes it says
     * the journal has, and in the bytes the file has, before an index of them is made. */
    uint64_t least = sizeof(record_header) + 8 + counts_bytes(n_ropes) + 8 * (uint64_t)n_ropes;
    for (size_t r = 0; r < n_ropes; r++) {
        const int g = sk_scenario_find_rope(s, ropes[r], NULL);
        SK_ASSERT(g >= 0); /* the ropes are the scenario's (asserted above) */
        c.group[r] = &s->groups[g];
        least += rope_reals(j, c.group[r], least_particles(c.group[r])) * sizeof(sk_real);
    }
    const uint64_t held = (bytes < size ? bytes : size), room = held > sizeof h ? held - sizeof h : 0;
    if (frames < 0 || (uint64_t)frames > room / least) {
        rc = damaged(j, err, frames < 0 ? "is damaged (a count of frames)" : "is cut short");
        goto done;
    }
    /* Every frame the checkpoint counted, checked before any is handed on. */
    if (!(starts = sk_alloc_array((size_t)frames, sizeof *starts))) {
        rc = sk_fail(err, SK_ERR_NO_MEMORY, "%s: out of memory", path);
        goto done;
    }
    uint64_t at = sizeof h;
    long after = -1;
    for (long k = 0; rc == 0 && k < frames; k++) {
        record_header rh;
        starts[k] = at;
        rc = check_record(j, scratch, at, bytes, &at, err);
        if (rc == 0 && (rc = load_record(&c, starts[k], after, &rh, err)) == 0)
            after = (long)rh.step;
    }
    if (rc)
        goto done;
    if (at != bytes) {
        rc = damaged(j, err, "does not end where the checkpoint says");
        goto done;
    }
    /* What the interrupted run wrote after its checkpoint goes: the resumed run writes it again. */
    if (ftruncate(fileno(j->f), (off_t)bytes) != 0) {
        rc = io_fail(j, err, "cannot cut back to the checkpoint", errno);
        goto done;
    }
    c.base.vt = &recorded_vtbl;
    c.base.ext = &recorded_ext;
    c.base.scenario = s;
    c.base.isa = "journal";
    c.base.threads = 1;
    after = -1;
    for (long k = 0; rc == 0 && k < frames; k++) {
        rc = replay_record(&c, starts[k], after, sinks, n_sinks, err);
        after = c.base.step;
    }
    if (rc == 0 && fseeko(j->f, (off_t)bytes, SEEK_SET) != 0)
        rc = io_fail(j, err, "seek failed", errno);
    j->bytes = bytes;
    j->frames = frames;
done:
    free(starts);
    free(scratch);
    free(c.offset);
    free(c.group);
    if (rc) {
        sk_journal_close(j);
        return NULL;
    }
    return j;
}
