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
    /* the engine's selected ropes gathered one after another, grown on demand (deploying ropes grow) */
    sk_real *p, *v, *tension;
    int *counts;
    size_t capacity; /* particles p, v and tension hold room for */
    /* the generated arrays (indices, connectivity), one at a time */
    unsigned char *scratch;
    size_t scratch_bytes;
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
    free(w->scratch);
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

/* One appended array: its byte count (header_type UInt64), then its bytes. */
static bool put_block(FILE *f, const void *data, size_t bytes)
{
    const uint64_t n = bytes;
    return fwrite(&n, sizeof n, 1, f) == 1 && (bytes == 0 || fwrite(data, 1, bytes, f) == bytes);
}

/* The offset of the next appended array, and the offset after it. */
static uint64_t next_block(uint64_t *offset, size_t bytes)
{
    const uint64_t at = *offset;
    *offset += sizeof(uint64_t) + bytes;
    return at;
}

/* The frame file's XML and appended data. The arrays appear in the order their tags do. */
static bool write_vtp(sk_vtk_writer *w, FILE *f, long step, sk_real time, size_t n_ropes, const size_t *rope_ids,
                      const int *counts, const sk_real *p, const sk_real *v, const sk_real *tension)
{
    size_t points = 0, links = 0;
    for (size_t r = 0; r < n_ropes; r++) {
        points += (size_t)counts[r];
        links += (size_t)counts[r] - 1;
    }
    const bool per_link = w->layout == SK_VTK_LINKS;
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
            "      <DataArray type=\"Int64\" Name=\"rope\" NumberOfTuples=\"%zu\" format=\"appended\" offset=\"%llu\"/>\n"
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

    const int64_t step64 = step;
    bool ok = put_block(f, &time, real) && put_block(f, &step64, i64);
    int64_t *ids = (int64_t *)w->scratch;
    for (size_t r = 0; r < n_ropes; r++)
        ids[r] = (int64_t)rope_ids[r];
    ok = ok && put_block(f, ids, n_ropes * i64) && put_block(f, v, 3 * points * real);

    int32_t *particle = (int32_t *)w->scratch;
    for (size_t r = 0, k = 0; r < n_ropes; r++)
        for (int i = 0; i < counts[r]; i++)
            particle[k++] = i;
    ok = ok && put_block(f, particle, points * sizeof(int32_t));

    if (tension && per_link) {
        ok = ok && put_block(f, tension, links * real);
    } else if (tension) {
        sk_real *largest = (sk_real *)w->scratch;
        for (size_t r = 0, k = 0; r < n_ropes; r++) {
            largest[r] = 0;
            for (int i = 0; i + 1 < counts[r]; i++, k++)
                if (i == 0 || tension[k] > largest[r])
                    largest[r] = tension[k];
        }
        ok = ok && put_block(f, largest, n_ropes * real);
    }

    int64_t *cell_rope = (int64_t *)w->scratch;
    for (size_t r = 0, c = 0; r < n_ropes; r++)
        for (int i = 0; i < (per_link ? counts[r] - 1 : 1); i++)
            cell_rope[c++] = (int64_t)rope_ids[r];
    ok = ok && put_block(f, cell_rope, cells * i64) && put_block(f, p, 3 * points * real);

    /* connectivity: the points of each cell; offsets: where each cell's points end */
    int64_t *connectivity = (int64_t *)w->scratch;
    for (size_t r = 0, first = 0, k = 0; r < n_ropes; first += (size_t)counts[r], r++) {
        if (per_link) {
            for (int i = 0; i + 1 < counts[r]; i++) {
                connectivity[k++] = (int64_t)(first + (size_t)i);
                connectivity[k++] = (int64_t)(first + (size_t)i + 1);
            }
        } else {
            for (int i = 0; i < counts[r]; i++)
                connectivity[k++] = (int64_t)(first + (size_t)i);
        }
    }
    ok = ok && put_block(f, connectivity, corners * i64);
    int64_t *offsets = (int64_t *)w->scratch;
    for (size_t r = 0, c = 0, end = 0; r < n_ropes; r++) {
        if (per_link) {
            for (int i = 0; i + 1 < counts[r]; i++)
                offsets[c++] = (int64_t)(end += 2);
        } else {
            offsets[c++] = (int64_t)(end += (size_t)counts[r]);
        }
    }
    ok = ok && put_block(f, offsets, cells * i64);
    /* the XML's fprintf calls are checked here: a failed write leaves the stream's error set */
    return ok && fputs("\n  </AppendedData>\n</VTKFile>\n", f) != EOF && !ferror(f);
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

sk_status sk_vtk_write_arrays(sk_vtk_writer *w, long step, sk_real time, size_t n_ropes, const size_t *rope_ids,
                              const int *counts, const sk_real *p, const sk_real *v, const sk_real *tension,
                              sk_error *err)
{
    size_t points = 0;
    for (size_t r = 0; r < n_ropes; r++) {
        if (counts[r] < 1)
            return sk_fail(err, SK_ERR_INVALID, "%s: rope %zu has %d particles; a rope has at least 1", w->path,
                           rope_ids[r], counts[r]);
        points += (size_t)counts[r];
    }
    /* the largest generated array: connectivity, two indices per link, or one per point */
    const size_t scratch = (2 * points + n_ropes + 1) * sizeof(int64_t);
    if (!grow((void **)&w->scratch, &w->scratch_bytes, scratch) ||
        !grow((void **)&w->times, &w->times_capacity, ((size_t)w->frames + 1) * sizeof *w->times))
        return sk_fail(err, SK_ERR_NO_MEMORY, "%s: out of memory", w->path);

    char file[PATH_MAX];
    snprintf(file, sizeof file, "%s/" FRAME_PREFIX "%06ld" FRAME_SUFFIX, w->temp, w->frames);
    FILE *f = fopen(file, "wb");
    if (!f)
        return io_fail(w, err, "cannot create a frame file", errno);
    bool ok = write_vtp(w, f, step, time, n_ropes, rope_ids, counts, p, v, tension);
    int e = ok ? 0 : errno;
    const int closed = close_synced(f);
    if (ok && closed)
        e = closed, ok = false;
    if (!ok)
        return io_fail(w, err, "write failed", e ? e : EIO);
    w->times[w->frames++] = time;
    return SK_OK;
}

sk_status sk_vtk_write_frame(sk_vtk_writer *w, const sk_engine *e, long step, sk_error *err)
{
    if (!w->counts && !(w->counts = malloc((w->n_ropes ? w->n_ropes : 1) * sizeof *w->counts)))
        return sk_fail(err, SK_ERR_NO_MEMORY, "%s: out of memory", w->path);
    size_t points = 0;
    for (size_t k = 0; k < w->n_ropes; k++)
        points += (size_t)(w->counts[k] = sk_engine_rope_particles(e, w->ropes[k]));
    if (points > w->capacity) {
        size_t have[3] = {w->capacity * 3 * sizeof(sk_real), w->capacity * 3 * sizeof(sk_real),
                          w->capacity * sizeof(sk_real)};
        if (!grow((void **)&w->p, &have[0], points * 3 * sizeof(sk_real)) ||
            !grow((void **)&w->v, &have[1], points * 3 * sizeof(sk_real)) ||
            !grow((void **)&w->tension, &have[2], points * sizeof(sk_real)))
            return sk_fail(err, SK_ERR_NO_MEMORY, "%s: out of memory", w->path);
        w->capacity = points;
    }
    size_t first = 0, link = 0;
    for (size_t k = 0; k < w->n_ropes; k++) {
        const size_t rope = w->ropes[k];
        sk_engine_read_rope(e, rope, w->p + 3 * first, w->v + 3 * first);
        sk_rope_diagnostics d;
        sk_engine_rope_diagnostics(e, rope, &d, w->tension + link);
        first += (size_t)w->counts[k];
        link += (size_t)w->counts[k] - 1;
    }
    const sk_real time = (sk_real)step * w->dt;
    return sk_vtk_write_arrays(w, step, time, w->n_ropes, w->ropes, w->counts, w->p, w->v, w->tension, err);
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

/* Moves the finished temporary onto target, replacing an earlier output there. */
static int move_onto(sk_vtk_writer *w, const char *target, sk_error *err)
{
    if (rename(w->temp, target) == 0)
        return SK_OK; /* target was absent or an empty directory */
    if (errno != ENOTEMPTY && errno != EEXIST)
        return sk_fail(err, SK_ERR_IO, "%s: cannot rename the output onto it: %s", target, strerror(errno));
    /* an earlier output: checked again now, since it may have changed since the run started */
    int rc = sk_vtk_check_target(target, err);
    if (rc)
        return rc;
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
    if (rc == SK_OK)
        rc = move_onto(w, target, err);
    if (rc)
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
