/* VTK output for ParaView: a directory of per-frame VTK XML PolyData files (raw appended binary) and the .pvd
 * collection naming them with their times, written as a temporary directory renamed onto the target at the
 * end. No Debian C library writes VTK XML (VTK itself is C++), so the few tags are written here. */
/* renameat2's RENAME_EXCHANGE replaces a non-empty directory atomically (glibc 2.28, Linux 3.15) */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/assert.h"
#include "skein/output.h"
#include "io/text/text_outputs.h"

#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define VTK_BYTE_ORDER "LittleEndian"
#else
#define VTK_BYTE_ORDER "BigEndian"
#endif
#ifdef SKEIN_REAL_FLOAT
#define VTK_REAL "Float32"
#else
#define VTK_REAL "Float64"
#endif

#define FRAME_PREFIX "frame_"
#define FRAME_SUFFIX ".vtp"

struct sk_vtk_writer {
    char *path;
    char *temp;
    sk_real dt;
    sk_vtk_layout layout;
    size_t *ropes;
    size_t n_ropes;
    long frames;
    sk_real *times; /* each frame's time, for the collection */
    size_t times_capacity;
    /* one rope of an engine's frame at a time, grown on demand (deploying ropes grow) */
    sk_real *p, *v, *tension;
    size_t capacity; /* particles p, v and tension hold room for */
    int *counts;     /* each selected rope's particles at the frame being written */
};

static void writer_free(sk_vtk_writer *w)
{
    free(w->path);
    free(w->temp);
    free(w->ropes);
    free(w->times);
    free(w->p);
    free(w->v);
    free(w->tension);
    free(w->counts);
    free(w);
}

static int io_fail(const sk_vtk_writer *w, sk_error *err, const char *what, int e)
{
    return sk_fail(err, SK_ERR_IO, "%s: %s: %s", w->path, what, strerror(e));
}

/* What this writer puts in a directory: the collection and frame_<digits>.vtp. */
static bool written_by_skein(const char *name)
{
    if (strcmp(name, SK_VTK_COLLECTION) == 0)
        return true;
    const size_t len = strlen(name), prefix = strlen(FRAME_PREFIX), suffix = strlen(FRAME_SUFFIX);
    if (len <= prefix + suffix || strncmp(name, FRAME_PREFIX, prefix) != 0 ||
        strcmp(name + len - suffix, FRAME_SUFFIX) != 0)
        return false;
    for (size_t i = prefix; i < len - suffix; i++)
        if (name[i] < '0' || name[i] > '9')
            return false;
    return true;
}

void sk_vtk_strip_slashes(char *dir)
{
    for (size_t n = strlen(dir); n > 1 && dir[n - 1] == '/'; n--)
        dir[n - 1] = '\0';
}

sk_status sk_vtk_check_target(const char *dir, sk_error *err)
{
    struct stat st;
    if (lstat(dir, &st) != 0)
        return errno == ENOENT ? SK_OK : sk_fail(err, SK_ERR_IO, "%s: %s", dir, strerror(errno));
    if (!S_ISDIR(st.st_mode))
        return sk_fail(err, SK_ERR_INVALID, "%s: exists and is not a directory; name a directory", dir);
    DIR *d = opendir(dir);
    if (!d)
        return sk_fail(err, SK_ERR_IO, "%s: %s", dir, strerror(errno));
    const int fd = dirfd(d);
    int rc = SK_OK;
    struct dirent *ent;
    while (rc == SK_OK && (ent = readdir(d))) {
        if (strcmp(ent->d_name, ".") == 0 || strcmp(ent->d_name, "..") == 0)
            continue;
        struct stat es;
        if (!written_by_skein(ent->d_name) || fstatat(fd, ent->d_name, &es, AT_SYMLINK_NOFOLLOW) != 0 ||
            !S_ISREG(es.st_mode))
            rc = sk_fail(err, SK_ERR_INVALID,
                         "%s: holds %s, which skein did not write; name a new or empty directory, or an earlier "
                         "VTK output of skein (which is replaced)",
                         dir, ent->d_name);
    }
    closedir(d);
    return rc;
}

/* Removes the files skein writes from dir (a temporary, or an earlier output moved aside), then dir. */
static void remove_output_dir(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct dirent *ent;
    while ((ent = readdir(d)))
        if (written_by_skein(ent->d_name))
            unlinkat(dirfd(d), ent->d_name, 0);
    closedir(d);
    rmdir(dir);
}

void sk_vtk_remove_leftover(const char *dir)
{
    struct stat st;
    sk_error why;
    if (lstat(dir, &st) == 0 && S_ISDIR(st.st_mode) && sk_vtk_check_target(dir, &why) == SK_OK)
        remove_output_dir(dir);
}

/* name + suffix, malloc'd. */
static char *joined(const char *name, const char *suffix)
{
    const size_t a = strlen(name), b = strlen(suffix);
    char *s = malloc(a + b + 1);
    if (s) {
        memcpy(s, name, a);
        memcpy(s + a, suffix, b + 1);
    }
    return s;
}

sk_vtk_writer *sk_vtk_open(const char *dir, sk_real dt, const size_t *ropes, size_t n_ropes,
                           sk_vtk_layout layout, sk_error *err)
{
    SK_ASSERT(sk_ropes_sorted_below(ropes, n_ropes, SIZE_MAX));
    if (layout != SK_VTK_LINKS && layout != SK_VTK_POLYLINES) {
        sk_fail(err, SK_ERR_INVALID, "%s: unknown VTK layout %d", dir, (int)layout);
        return NULL;
    }
    if (sk_vtk_check_target(dir, err))
        return NULL;
    sk_vtk_writer *w = calloc(1, sizeof *w);
    if (w && (w->path = strdup(dir)))
        sk_vtk_strip_slashes(w->path);
    if (w && w->path) {
        w->temp = joined(w->path, ".tmp.XXXXXX");
        w->ropes = malloc((n_ropes ? n_ropes : 1) * sizeof *ropes);
    }
    if (!w || !w->path || !w->temp || !w->ropes) {
        sk_fail(err, SK_ERR_NO_MEMORY, "%s: out of memory", dir);
        if (w)
            writer_free(w);
        return NULL;
    }
    if (n_ropes)
        memcpy(w->ropes, ropes, n_ropes * sizeof *ropes);
    w->n_ropes = n_ropes;
    w->dt = dt;
    w->layout = layout;
    if (!mkdtemp(w->temp)) {
        io_fail(w, err, "cannot create a directory beside it", errno);
        writer_free(w);
        return NULL;
    }
    /* mkdtemp makes the directory 0700; give the result the permissions a plain mkdir would. */
    const mode_t mask = umask(0);
    umask(mask);
    if (chmod(w->temp, 0777 & ~mask) != 0) {
        io_fail(w, err, "cannot create a directory beside it", errno);
        sk_vtk_abort(w);
        return NULL;
    }
    return w;
}

const char *sk_vtk_temp_path(const sk_vtk_writer *w) { return w->temp; }

long sk_vtk_frames(const sk_vtk_writer *w) { return w->frames; }

static bool grow(void **buf, size_t *have, size_t need)
{
    if (need <= *have)
        return true;
    void *p = realloc(*buf, need);
    if (!p)
        return false;
    *buf = p;
    *have = need;
    return true;
}

/* Where a frame's ropes come from: plain arrays, or an engine read one rope at a time, so that the writer holds
 * one rope at once, never a whole frame. */
typedef struct rope_source {
    size_t n_ropes;
    const size_t *ids;
    const int *counts;
    bool has_tension;
    /* Rope r's positions and velocities [n][3] and link tensions [n - 1], each only where its pointer is not
     * NULL; called for r = 0, 1, ... in turn, from 0 again for each array. */
    void (*rope)(void *ctx, size_t r, const sk_real **p, const sk_real **v, const sk_real **tension);
    void *ctx;
} rope_source;

typedef struct arrays_source {
    const int *counts;
    const sk_real *p, *v, *tension;
    size_t first, link; /* where rope `next` starts in p and v, and in tension */
    size_t next;
} arrays_source;

static void arrays_rope(void *ctx, size_t r, const sk_real **p, const sk_real **v, const sk_real **tension)
{
    arrays_source *a = ctx;
    if (r == 0)
        a->first = a->link = 0;
    SK_ASSERT(r == 0 || r == a->next);
    if (p)
        *p = a->p + 3 * a->first;
    if (v)
        *v = a->v + 3 * a->first;
    if (tension)
        *tension = a->tension + a->link;
    a->first += (size_t)a->counts[r];
    a->link += (size_t)a->counts[r] - 1;
    a->next = r + 1;
}

typedef struct engine_source {
    sk_vtk_writer *w;
    const sk_engine *e;
} engine_source;

static void engine_rope(void *ctx, size_t r, const sk_real **p, const sk_real **v, const sk_real **tension)
{
    const engine_source *src = ctx;
    sk_vtk_writer *w = src->w;
    const size_t rope = w->ropes[r];
    if (p || v)
        sk_engine_read_rope(src->e, rope, p ? w->p : NULL, v ? w->v : NULL);
    if (p)
        *p = w->p;
    if (v)
        *v = w->v;
    if (tension) {
        sk_rope_diagnostics d;
        sk_engine_rope_diagnostics(src->e, rope, &d, w->tension);
        *tension = w->tension;
    }
}

/* The offset of the next appended array, and the offset after it. */
static uint64_t next_block(uint64_t *offset, size_t bytes)
{
    const uint64_t at = *offset;
    *offset += sizeof(uint64_t) + bytes;
    return at;
}

/* Appended data: each array is its byte count (header_type UInt64), then its bytes. A failed write sets the
 * stream's error, which the frame's end checks. */
static void put(FILE *f, const void *data, size_t bytes)
{
    if (bytes)
        fwrite(data, 1, bytes, f);
}

static void put_size(FILE *f, size_t bytes)
{
    const uint64_t n = bytes;
    put(f, &n, sizeof n);
}

static void put_i64(FILE *f, int64_t x) { put(f, &x, sizeof x); }

/* The frame file's XML and appended data. The arrays appear in the order their tags do. */
static bool write_vtp(const sk_vtk_writer *w, FILE *f, long step, sk_real time, const rope_source *src)
{
    const size_t n_ropes = src->n_ropes;
    const int *counts = src->counts;
    size_t points = 0, links = 0;
    for (size_t r = 0; r < n_ropes; r++) {
        points += (size_t)counts[r];
        links += (size_t)counts[r] - 1;
    }
    const bool per_link = w->layout == SK_VTK_LINKS, tension = src->has_tension;
    const size_t cells = per_link ? links : n_ropes, corners = per_link ? 2 * links : points;
    const size_t real = sizeof(sk_real), i64 = sizeof(int64_t);

    uint64_t off = 0;
    const uint64_t at_time = next_block(&off, real), at_step = next_block(&off, i64),
                   at_ropes = next_block(&off, n_ropes * i64), at_velocity = next_block(&off, 3 * points * real),
                   at_particle = next_block(&off, points * sizeof(int32_t)),
                   at_tension = tension ? next_block(&off, cells * real) : 0,
                   at_cell_rope = next_block(&off, cells * i64), at_points = next_block(&off, 3 * points * real),
                   at_connectivity = next_block(&off, corners * i64), at_offsets = next_block(&off, cells * i64);
    const char *tension_name = per_link ? "tension" : "max_tension";

    fprintf(f,
            "<?xml version=\"1.0\"?>\n"
            "<VTKFile type=\"PolyData\" version=\"1.0\" byte_order=\"" VTK_BYTE_ORDER "\" header_type=\"UInt64\">\n"
            "  <PolyData>\n"
            "    <FieldData>\n"
            "      <DataArray type=\"" VTK_REAL "\" Name=\"TimeValue\" NumberOfTuples=\"1\" format=\"appended\" "
            "offset=\"%llu\"/>\n"
            "      <DataArray type=\"Int64\" Name=\"step\" NumberOfTuples=\"1\" format=\"appended\" offset=\"%llu\"/>\n"
            "      <DataArray type=\"Int64\" Name=\"rope\" NumberOfTuples=\"%zu\" format=\"appended\" "
            "offset=\"%llu\"/>\n"
            "    </FieldData>\n"
            "    <Piece NumberOfPoints=\"%zu\" NumberOfVerts=\"0\" NumberOfLines=\"%zu\" NumberOfStrips=\"0\" "
            "NumberOfPolys=\"0\">\n"
            "      <PointData Vectors=\"velocity\" Scalars=\"particle\">\n"
            "        <DataArray type=\"" VTK_REAL "\" Name=\"velocity\" NumberOfComponents=\"3\" format=\"appended\" "
            "offset=\"%llu\"/>\n"
            "        <DataArray type=\"Int32\" Name=\"particle\" format=\"appended\" offset=\"%llu\"/>\n"
            "      </PointData>\n",
            (unsigned long long)at_time, (unsigned long long)at_step, n_ropes, (unsigned long long)at_ropes, points,
            cells, (unsigned long long)at_velocity, (unsigned long long)at_particle);
    fprintf(f, "      <CellData%s%s%s>\n", tension ? " Scalars=\"" : "", tension ? tension_name : "",
            tension ? "\"" : "");
    if (tension)
        fprintf(f, "        <DataArray type=\"" VTK_REAL "\" Name=\"%s\" format=\"appended\" offset=\"%llu\"/>\n",
                tension_name, (unsigned long long)at_tension);
    fprintf(f,
            "        <DataArray type=\"Int64\" Name=\"rope\" format=\"appended\" offset=\"%llu\"/>\n"
            "      </CellData>\n"
            "      <Points>\n"
            "        <DataArray type=\"" VTK_REAL "\" Name=\"position\" NumberOfComponents=\"3\" format=\"appended\" "
            "offset=\"%llu\"/>\n"
            "      </Points>\n"
            "      <Lines>\n"
            "        <DataArray type=\"Int64\" Name=\"connectivity\" format=\"appended\" offset=\"%llu\"/>\n"
            "        <DataArray type=\"Int64\" Name=\"offsets\" format=\"appended\" offset=\"%llu\"/>\n"
            "      </Lines>\n"
            "    </Piece>\n"
            "  </PolyData>\n"
            "  <AppendedData encoding=\"raw\">\n"
            "   _",
            (unsigned long long)at_cell_rope, (unsigned long long)at_points, (unsigned long long)at_connectivity,
            (unsigned long long)at_offsets);

    put_size(f, real);
    put(f, &time, real);
    put_size(f, i64);
    put_i64(f, step);
    put_size(f, n_ropes * i64);
    for (size_t r = 0; r < n_ropes; r++)
        put_i64(f, (int64_t)src->ids[r]);

    put_size(f, 3 * points * real);
    for (size_t r = 0; r < n_ropes; r++) {
        const sk_real *v;
        src->rope(src->ctx, r, NULL, &v, NULL);
        put(f, v, 3 * (size_t)counts[r] * real);
    }
    put_size(f, points * sizeof(int32_t));
    for (size_t r = 0; r < n_ropes; r++)
        for (int32_t i = 0; i < counts[r]; i++)
            put(f, &i, sizeof i);

    if (tension) {
        put_size(f, cells * real);
        for (size_t r = 0; r < n_ropes; r++) {
            const sk_real *t;
            src->rope(src->ctx, r, NULL, NULL, &t);
            if (per_link) {
                put(f, t, ((size_t)counts[r] - 1) * real);
            } else {
                sk_real largest = counts[r] > 1 ? t[0] : 0;
                for (int i = 1; i + 1 < counts[r]; i++)
                    largest = t[i] > largest ? t[i] : largest;
                put(f, &largest, real);
            }
        }
    }
    put_size(f, cells * i64);
    for (size_t r = 0; r < n_ropes; r++)
        for (int i = 0; i < (per_link ? counts[r] - 1 : 1); i++)
            put_i64(f, (int64_t)src->ids[r]);

    put_size(f, 3 * points * real);
    for (size_t r = 0; r < n_ropes; r++) {
        const sk_real *p;
        src->rope(src->ctx, r, &p, NULL, NULL);
        put(f, p, 3 * (size_t)counts[r] * real);
    }

    /* connectivity: the points of each cell; offsets: where each cell's points end */
    put_size(f, corners * i64);
    for (size_t r = 0, first = 0; r < n_ropes; first += (size_t)counts[r], r++)
        for (int i = 0; i < (per_link ? counts[r] - 1 : counts[r]); i++) {
            put_i64(f, (int64_t)(first + (size_t)i));
            if (per_link)
                put_i64(f, (int64_t)(first + (size_t)i + 1));
        }
    put_size(f, cells * i64);
    for (size_t r = 0, end = 0; r < n_ropes; r++) {
        if (per_link) {
            for (int i = 0; i + 1 < counts[r]; i++)
                put_i64(f, (int64_t)(end += 2));
        } else {
            put_i64(f, (int64_t)(end += (size_t)counts[r]));
        }
    }
    fputs("\n  </AppendedData>\n</VTKFile>\n", f);
    return !ferror(f);
}

/* Flushes, syncs and closes f; the first failure's errno, 0 if none. */
static int close_synced(FILE *f)
{
    int e = 0;
    if (fflush(f) != 0 || fsync(fileno(f)) != 0)
        e = errno;
    if (fclose(f) != 0 && e == 0)
        e = errno;
    return e;
}

/* Writes the next frame file from src and records its time. */
static sk_status write_source(sk_vtk_writer *w, long step, sk_real time, const rope_source *src, sk_error *err)
{
    if (!grow((void **)&w->times, &w->times_capacity, ((size_t)w->frames + 1) * sizeof *w->times))
        return sk_fail(err, SK_ERR_NO_MEMORY, "%s: out of memory", w->path);
    char file[PATH_MAX];
    if (snprintf(file, sizeof file, "%s/" FRAME_PREFIX "%06ld" FRAME_SUFFIX, w->temp, w->frames) >= (int)sizeof file)
        return sk_fail(err, SK_ERR_IO, "%s: the path is too long", w->path);
    FILE *f = fopen(file, "wb");
    if (!f)
        return io_fail(w, err, "cannot create a frame file", errno);
    bool ok = write_vtp(w, f, step, time, src);
    int e = ok ? 0 : errno;
    const int closed = close_synced(f);
    if (ok && closed)
        e = closed, ok = false;
    if (!ok)
        return io_fail(w, err, "write failed", e ? e : EIO);
    w->times[w->frames++] = time;
    return SK_OK;
}

sk_status sk_vtk_write_arrays(sk_vtk_writer *w, long step, sk_real time, size_t n_ropes, const size_t *rope_ids,
                              const int *counts, const sk_real *p, const sk_real *v, const sk_real *tension,
                              sk_error *err)
{
    for (size_t r = 0; r < n_ropes; r++)
        if (counts[r] < 1)
            return sk_fail(err, SK_ERR_INVALID, "%s: rope %zu has %d particles; a rope has at least 1", w->path,
                           rope_ids[r], counts[r]);
    arrays_source a = {.counts = counts, .p = p, .v = v, .tension = tension};
    const rope_source src = {.n_ropes = n_ropes, .ids = rope_ids, .counts = counts, .has_tension = tension != NULL,
                             .rope = arrays_rope, .ctx = &a};
    return write_source(w, step, time, &src, err);
}

sk_status sk_vtk_write_frame(sk_vtk_writer *w, const sk_engine *e, long step, sk_error *err)
{
    if (!w->counts && !(w->counts = malloc((w->n_ropes ? w->n_ropes : 1) * sizeof *w->counts)))
        return sk_fail(err, SK_ERR_NO_MEMORY, "%s: out of memory", w->path);
    size_t longest = 1;
    for (size_t k = 0; k < w->n_ropes; k++) {
        w->counts[k] = sk_engine_rope_particles(e, w->ropes[k]);
        SK_ASSERT(w->counts[k] >= 1);
        longest = (size_t)w->counts[k] > longest ? (size_t)w->counts[k] : longest;
    }
    if (longest > w->capacity) { /* one rope's room: deploying ropes grow */
        size_t have[3] = {w->capacity * 3 * sizeof(sk_real), w->capacity * 3 * sizeof(sk_real),
                          w->capacity * sizeof(sk_real)};
        if (!grow((void **)&w->p, &have[0], longest * 3 * sizeof(sk_real)) ||
            !grow((void **)&w->v, &have[1], longest * 3 * sizeof(sk_real)) ||
            !grow((void **)&w->tension, &have[2], longest * sizeof(sk_real)))
            return sk_fail(err, SK_ERR_NO_MEMORY, "%s: out of memory", w->path);
        w->capacity = longest;
    }
    engine_source es = {.w = w, .e = e};
    const rope_source src = {.n_ropes = w->n_ropes, .ids = w->ropes, .counts = w->counts, .has_tension = true,
                             .rope = engine_rope, .ctx = &es};
    return write_source(w, step, (sk_real)step * w->dt, &src, err);
}

sk_status sk_vtk_frame_sink(void *ctx, const sk_engine *e, long step, sk_error *err)
{
    return sk_vtk_write_frame(ctx, e, step, err);
}

/* The collection: each frame file with its time, numbers that read back to the same bits. */
static bool write_collection(const sk_vtk_writer *w, FILE *f)
{
    fputs("<?xml version=\"1.0\"?>\n"
          "<VTKFile type=\"Collection\" version=\"1.0\" byte_order=\"" VTK_BYTE_ORDER "\" header_type=\"UInt64\">\n"
          "  <Collection>\n",
          f);
    for (long k = 0; k < w->frames; k++)
        fprintf(f,
                "    <DataSet timestep=\"" SK_REAL_FMT "\" group=\"\" part=\"0\" file=\"" FRAME_PREFIX
                "%06ld" FRAME_SUFFIX "\"/>\n",
                w->times[k], k);
    return fputs("  </Collection>\n</VTKFile>\n", f) != EOF;
}

/* Moves the finished temporary onto target, replacing an earlier output there. When target has come to hold
 * files skein did not write since the run began, the temporary stays where it is (*kept), its name in err. */
static int move_onto(sk_vtk_writer *w, const char *target, bool *kept, sk_error *err)
{
    if (rename(w->temp, target) == 0)
        return SK_OK; /* target was absent or an empty directory */
    if (errno != ENOTEMPTY && errno != EEXIST)
        return sk_fail(err, SK_ERR_IO, "%s: cannot rename the output onto it: %s", target, strerror(errno));
    /* an earlier output: checked again now, since it may have changed since the run started */
    sk_error why;
    int rc = sk_vtk_check_target(target, &why);
    if (rc) {
        *kept = true;
        return sk_fail(err, SK_ERR_IO, "%s; the frames written are kept in %s", why.message, w->temp);
    }
    if (renameat2(AT_FDCWD, w->temp, AT_FDCWD, target, RENAME_EXCHANGE) == 0) {
        remove_output_dir(w->temp); /* the earlier output, now under the temporary's name */
        return SK_OK;
    }
    /* a file system that cannot exchange: the earlier output goes aside first */
    char *aside = joined(target, ".old.XXXXXX");
    if (!aside)
        return sk_fail(err, SK_ERR_NO_MEMORY, "%s: out of memory", target);
    if (!mkdtemp(aside) || rename(target, aside) != 0) {
        rc = sk_fail(err, SK_ERR_IO, "%s: cannot move the earlier output aside: %s", target, strerror(errno));
        rmdir(aside);
    } else if (rename(w->temp, target) != 0) {
        rc = sk_fail(err, SK_ERR_IO, "%s: cannot rename the output onto it: %s", target, strerror(errno));
        rename(aside, target);
    } else {
        remove_output_dir(aside);
    }
    free(aside);
    return rc;
}

/* Writes the collection, syncs the directory and renames it onto target; frees w. */
static int commit_to(sk_vtk_writer *w, const char *target, sk_error *err)
{
    int rc = SK_OK;
    char file[PATH_MAX];
    snprintf(file, sizeof file, "%s/" SK_VTK_COLLECTION, w->temp);
    FILE *f = fopen(file, "w");
    if (!f) {
        rc = io_fail(w, err, "cannot create " SK_VTK_COLLECTION, errno);
    } else {
        const bool ok = write_collection(w, f);
        const int e = ok ? 0 : errno;
        const int closed = close_synced(f);
        if (!ok || closed)
            rc = io_fail(w, err, "write failed", e ? e : closed);
    }
    if (rc == SK_OK) {
        const int fd = open(w->temp, O_RDONLY | O_DIRECTORY);
        if (fd < 0 || fsync(fd) != 0)
            rc = io_fail(w, err, "fsync failed", errno);
        if (fd >= 0)
            close(fd);
    }
    if (rc == SK_OK && !target)
        rc = sk_fail(err, SK_ERR_NO_MEMORY, "%s: out of memory", w->path);
    bool kept = false;
    if (rc == SK_OK)
        rc = move_onto(w, target, &kept, err);
    if (rc && !kept)
        remove_output_dir(w->temp);
    writer_free(w);
    return rc;
}

sk_status sk_vtk_commit(sk_vtk_writer *w, sk_error *err)
{
    char *target = strdup(w->path);
    const int rc = commit_to(w, target, err);
    free(target);
    return rc;
}

sk_status sk_vtk_keep_incomplete(sk_vtk_writer *w, sk_error *err)
{
    char *target = joined(w->path, SK_INCOMPLETE_SUFFIX);
    const int rc = commit_to(w, target, err);
    free(target);
    return rc;
}

void sk_vtk_abort(sk_vtk_writer *w)
{
    if (!w)
        return;
    remove_output_dir(w->temp);
    writer_free(w);
}
