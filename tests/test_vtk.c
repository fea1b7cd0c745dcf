/* The VTK writer: each array of a frame lands in the appended data, at the offset its tag names, with the
 * bytes it was given (or the indices it implies); the directory is renamed only on success, replaces only an
 * earlier VTK output, and a stopped run's goes to DIR.incomplete. (tests/vtk/readback.py reads the files back
 * with VTK itself.) */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "skein/output.h"
#include "io/text/text_outputs.h"

static char scratch[64];

/* A fresh directory for one case. */
static const char *scratch_dir(void)
{
    snprintf(scratch, sizeof scratch, "/tmp/skein-test-vtk.XXXXXX");
    return mkdtemp(scratch);
}

static char *read_file(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    const long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *text = malloc((size_t)n + 1);
    if (text && fread(text, 1, (size_t)n, f) != (size_t)n) {
        free(text);
        text = NULL;
    }
    if (text)
        text[n] = '\0';
    if (size)
        *size = (size_t)n;
    fclose(f);
    return text;
}

/* Entries of dir other than . and .., and whether one is named name. */
static int count_entries(const char *dir)
{
    DIR *d = opendir(dir);
    int n = 0;
    for (struct dirent *e; d && (e = readdir(d));)
        n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
    if (d)
        closedir(d);
    return n;
}

static bool exists(const char *dir, const char *name)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return access(path, F_OK) == 0;
}

/* Removes dir and everything in it (one level of subdirectories). */
static void remove_tree(const char *dir)
{
    DIR *d = opendir(dir);
    for (struct dirent *e; d && (e = readdir(d));) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        char path[512];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        if (unlink(path) != 0)
            remove_tree(path);
    }
    if (d)
        closedir(d);
    rmdir(dir);
}

/* Whether the appended array named name in a frame file holds exactly the bytes want: its block's byte count
 * and its bytes. The name's first tag after `after` (a section tag such as "<CellData") is the one meant. */
static bool array_is(const char *file, const char *after, const char *name, const void *want, size_t bytes)
{
    const char *section = strstr(file, after);
    char key[64];
    snprintf(key, sizeof key, "Name=\"%s\"", name);
    const char *tag = section ? strstr(section, key) : NULL;
    const char *offset = tag ? strstr(tag, "offset=\"") : NULL;
    const char *data = strstr(file, "<AppendedData encoding=\"raw\">");
    if (!offset || offset > strchr(tag, '>') || !data)
        return false;
    const unsigned long long at = strtoull(offset + strlen("offset=\""), NULL, 10);
    data = strchr(data, '_') + 1;
    uint64_t size;
    memcpy(&size, data + at, sizeof size);
    return size == bytes && memcmp(data + at + sizeof size, want, bytes) == 0;
}

static bool has_text(const char *file, const char *text) { return strstr(file, text) != NULL; }

/* Two ropes, 3 particles and 1: a frame of each layout. */
static const size_t ids[2] = {4, 9};
static const int counts[2] = {3, 1};
static sk_real p[12], v[12], tension[2] = {(sk_real)1.5, (sk_real)-0.25};

static void fill_state(void)
{
    for (int i = 0; i < 12; i++) {
        p[i] = (sk_real)1 / (sk_real)(i + 3);
        v[i] = -(sk_real)(i + 1) / (sk_real)7;
    }
}

/* Writes one frame of the two ropes into dir/out, and checks what both layouts share; *file is the frame's. */
static int write_one(const char *dir, sk_vtk_layout layout, char **file_out, size_t *size)
{
    char out[128], frame[160];
    snprintf(out, sizeof out, "%s/out", dir);
    sk_error err = {0};
    sk_vtk_writer *w = sk_vtk_open(out, (sk_real)0.1, ids, 2, layout, &err);
    CHECK(w);
    const sk_real time = (sk_real)1 / (sk_real)3;
    CHECK_OK(sk_vtk_write_arrays(w, 41, time, 2, ids, counts, p, v, tension, &err));
    CHECK(sk_vtk_frames(w) == 1);
    CHECK_OK(sk_vtk_commit(w, &err));
    snprintf(frame, sizeof frame, "%s/frame_000000.vtp", out);
    char *file = read_file(frame, size);
    CHECK(file);
    CHECK(has_text(file, "header_type=\"UInt64\""));
    CHECK(has_text(file, sizeof(sk_real) == 8 ? "type=\"Float64\" Name=\"velocity\"" : "type=\"Float32\" Name=\"velocity\""));
    CHECK(array_is(file, "<FieldData", "TimeValue", &time, sizeof time));
    const int64_t step = 41, ropes[2] = {4, 9};
    CHECK(array_is(file, "<FieldData", "step", &step, 8));
    CHECK(array_is(file, "<FieldData", "rope", ropes, 16));
    CHECK(array_is(file, "<Points", "position", p, sizeof p));
    CHECK(array_is(file, "<PointData", "velocity", v, sizeof v));
    const int32_t particle[4] = {0, 1, 2, 0};
    CHECK(array_is(file, "<PointData", "particle", particle, sizeof particle));
    *file_out = file;
    return 0;
}

static int arrays_links(void)
{
    const char *dir = scratch_dir();
    CHECK(dir);
    fill_state();
    size_t size;
    char *file = NULL;
    CHECK_OK(write_one(dir, SK_VTK_LINKS, &file, &size));
    /* rope 4's two links are the cells; rope 9 (one particle) has none */
    CHECK(has_text(file, "NumberOfPoints=\"4\""));
    CHECK(has_text(file, "NumberOfLines=\"2\""));
    CHECK(array_is(file, "<CellData", "tension", tension, sizeof tension));
    const int64_t cell_rope[2] = {4, 4}, connectivity[4] = {0, 1, 1, 2}, offsets[2] = {2, 4};
    CHECK(array_is(file, "<CellData", "rope", cell_rope, 16));
    CHECK(array_is(file, "<Lines", "connectivity", connectivity, 32));
    CHECK(array_is(file, "<Lines", "offsets", offsets, 16));
    CHECK(strcmp(file + size - strlen("</VTKFile>\n"), "</VTKFile>\n") == 0);
    free(file);

    /* the collection names the frame with its time, to the bit */
    char path[160];
    snprintf(path, sizeof path, "%s/out/" SK_VTK_COLLECTION, dir);
    char *pvd = read_file(path, NULL);
    CHECK(pvd);
    char want[160];
    snprintf(want, sizeof want, "<DataSet timestep=\"" SK_REAL_FMT "\" group=\"\" part=\"0\" file=\"frame_000000.vtp\"/>",
             (sk_real)1 / (sk_real)3);
    CHECK(has_text(pvd, want));
    CHECK(has_text(pvd, "type=\"Collection\""));
    free(pvd);
    remove_tree(dir);
    return 0;
}

static int arrays_polylines(void)
{
    const char *dir = scratch_dir();
    CHECK(dir);
    fill_state();
    char *file = NULL;
    CHECK_OK(write_one(dir, SK_VTK_POLYLINES, &file, NULL));
    /* one polyline per rope: its points, and its largest link tension (0 without links) */
    CHECK(has_text(file, "NumberOfLines=\"2\""));
    const sk_real largest[2] = {(sk_real)1.5, 0};
    CHECK(array_is(file, "<CellData", "max_tension", largest, sizeof largest));
    const int64_t cell_rope[2] = {4, 9}, connectivity[4] = {0, 1, 2, 3}, offsets[2] = {3, 4};
    CHECK(array_is(file, "<CellData", "rope", cell_rope, 16));
    CHECK(array_is(file, "<Lines", "connectivity", connectivity, 32));
    CHECK(array_is(file, "<Lines", "offsets", offsets, 16));
    free(file);
    remove_tree(dir);
    return 0;
}

/* Writes `frames` frames into dir/out and commits (or keeps them as incomplete). */
static int write_frames(const char *out, int frames, bool complete, sk_error *err)
{
    sk_vtk_writer *w = sk_vtk_open(out, 1, ids, 2, SK_VTK_LINKS, err);
    if (!w)
        return err->status;
    for (int k = 0; k < frames; k++) {
        const int rc = sk_vtk_write_arrays(w, k, (sk_real)k, 2, ids, counts, p, v, tension, err);
        if (rc) {
            sk_vtk_abort(w);
            return rc;
        }
    }
    return complete ? sk_vtk_commit(w, err) : sk_vtk_keep_incomplete(w, err);
}

static int replaces_own_output(void)
{
    const char *dir = scratch_dir();
    CHECK(dir);
    fill_state();
    char out[128];
    snprintf(out, sizeof out, "%s/out/", dir); /* a trailing slash names the directory itself */
    sk_error err = {0};
    CHECK_OK(write_frames(out, 3, true, &err));
    CHECK(count_entries(out) == 4);
    /* a second run replaces it whole: no frame of the first is left */
    CHECK_OK(write_frames(out, 1, true, &err));
    CHECK(count_entries(out) == 2 && exists(out, "frame_000000.vtp") && exists(out, SK_VTK_COLLECTION));
    CHECK(count_entries(dir) == 1);
    /* an empty directory is taken as it is */
    char empty[128];
    snprintf(empty, sizeof empty, "%s/empty", dir);
    CHECK(mkdir(empty, 0777) == 0);
    CHECK_OK(write_frames(empty, 2, true, &err));
    CHECK(count_entries(empty) == 3);
    CHECK(count_entries(dir) == 2);
    remove_tree(dir);
    return 0;
}

static int refuses_other_files(void)
{
    const char *dir = scratch_dir();
    CHECK(dir);
    fill_state();
    char out[128], want[512];
    snprintf(out, sizeof out, "%s/out", dir);
    sk_error err = {0};
    CHECK_OK(write_frames(out, 2, true, &err));
    char notes[160];
    snprintf(notes, sizeof notes, "%s/notes.txt", out);
    FILE *f = fopen(notes, "w");
    CHECK(f && fputs("mine\n", f) >= 0 && fclose(f) == 0);
    CHECK(write_frames(out, 1, true, &err) == SK_ERR_INVALID);
    snprintf(want, sizeof want,
             "%s: holds notes.txt, which skein did not write; name a new or empty directory, or an earlier VTK output "
             "of skein (which is replaced)",
             out);
    CHECK(strcmp(err.message, want) == 0);
    CHECK(count_entries(out) == 4 && exists(out, "frame_000001.vtp"));
    /* a file that appears in it while a run writes: the finished frames stay in the temporary, named */
    unlink(notes);
    sk_vtk_writer *w = sk_vtk_open(out, 1, ids, 2, SK_VTK_LINKS, &err);
    CHECK(w);
    char temp[160];
    snprintf(temp, sizeof temp, "%s", sk_vtk_temp_path(w));
    CHECK_OK(sk_vtk_write_arrays(w, 0, 0, 2, ids, counts, p, v, tension, &err));
    f = fopen(notes, "w");
    CHECK(f && fclose(f) == 0);
    CHECK(sk_vtk_commit(w, &err) == SK_ERR_IO);
    snprintf(want, sizeof want,
             "%s: holds notes.txt, which skein did not write; name a new or empty directory, or an earlier VTK output "
             "of skein (which is replaced); the frames written are kept in %s",
             out, temp);
    CHECK(strcmp(err.message, want) == 0);
    CHECK(count_entries(temp) == 2 && exists(temp, SK_VTK_COLLECTION));
    CHECK(count_entries(out) == 4);
    remove_tree(temp);
    /* a subdirectory with a frame's name is not a frame */
    unlink(notes);
    char sub[160];
    snprintf(sub, sizeof sub, "%s/frame_000007.vtp", out);
    CHECK(mkdir(sub, 0777) == 0);
    CHECK(sk_vtk_check_target(out, &err) == SK_ERR_INVALID);
    rmdir(sub);
    CHECK_OK(sk_vtk_check_target(out, &err));
    /* a file is not a directory */
    char file[128];
    snprintf(file, sizeof file, "%s/file", dir);
    f = fopen(file, "w");
    CHECK(f && fclose(f) == 0);
    CHECK(write_frames(file, 1, true, &err) == SK_ERR_INVALID);
    snprintf(want, sizeof want, "%s: exists and is not a directory; name a directory", file);
    CHECK(strcmp(err.message, want) == 0);
    CHECK(count_entries(dir) == 2); /* out and file; no temporary */
    remove_tree(dir);
    return 0;
}

static int abort_keeps_target(void)
{
    const char *dir = scratch_dir();
    CHECK(dir);
    fill_state();
    char out[128];
    snprintf(out, sizeof out, "%s/out", dir);
    sk_error err = {0};
    CHECK_OK(write_frames(out, 3, true, &err));
    sk_vtk_writer *w = sk_vtk_open(out, 1, ids, 2, SK_VTK_LINKS, &err);
    CHECK(w);
    CHECK(strncmp(sk_vtk_temp_path(w), out, strlen(out)) == 0);
    CHECK_OK(sk_vtk_write_arrays(w, 0, 0, 2, ids, counts, p, v, NULL, &err));
    CHECK(count_entries(dir) == 2); /* out and the temporary */
    sk_vtk_abort(w);
    CHECK(count_entries(dir) == 1 && count_entries(out) == 4);
    sk_vtk_abort(NULL);
    remove_tree(dir);
    return 0;
}

static int keep_incomplete(void)
{
    const char *dir = scratch_dir();
    CHECK(dir);
    fill_state();
    char out[128], incomplete[160];
    snprintf(out, sizeof out, "%s/out", dir);
    snprintf(incomplete, sizeof incomplete, "%s" SK_INCOMPLETE_SUFFIX, out);
    sk_error err = {0};
    CHECK_OK(write_frames(out, 3, true, &err));
    CHECK_OK(write_frames(out, 2, false, &err));
    CHECK(count_entries(out) == 4 && count_entries(incomplete) == 3);
    /* a later stopped run replaces the earlier incomplete one */
    CHECK_OK(write_frames(out, 1, false, &err));
    CHECK(count_entries(out) == 4 && count_entries(incomplete) == 2);
    CHECK(count_entries(dir) == 2);
    remove_tree(dir);
    return 0;
}

static int bad_input(void)
{
    const char *dir = scratch_dir();
    CHECK(dir);
    fill_state();
    char out[128], want[256];
    snprintf(out, sizeof out, "%s/out", dir);
    sk_error err = {0};
    sk_vtk_writer *w = sk_vtk_open(out, 1, ids, 2, SK_VTK_LINKS, &err);
    CHECK(w);
    const int none[2] = {3, 0};
    CHECK(sk_vtk_write_arrays(w, 0, 0, 2, ids, none, p, v, tension, &err) == SK_ERR_INVALID);
    snprintf(want, sizeof want, "%s: rope 9 has 0 particles; a rope has at least 1", out);
    CHECK(strcmp(err.message, want) == 0);
    CHECK(sk_vtk_frames(w) == 0);
    sk_vtk_abort(w);
    /* a directory that cannot be created beside */
    snprintf(out, sizeof out, "%s/missing/out", dir);
    CHECK(!sk_vtk_open(out, 1, ids, 2, SK_VTK_LINKS, &err));
    snprintf(want, sizeof want, "%s: cannot create a directory beside it: %s", out, strerror(ENOENT));
    CHECK(err.status == SK_ERR_IO && strcmp(err.message, want) == 0);
    CHECK(count_entries(dir) == 0);
    remove_tree(dir);
    return 0;
}

/* A full disk (a file-size limit stands in): the frame fails, the abort leaves nothing. */
static int write_error(void)
{
    const char *dir = scratch_dir();
    CHECK(dir);
    fill_state();
    char out[128];
    snprintf(out, sizeof out, "%s/out", dir);
    struct rlimit old, small;
    CHECK(getrlimit(RLIMIT_FSIZE, &old) == 0);
    small = old;
    small.rlim_cur = 512;
    signal(SIGXFSZ, SIG_IGN);
    sk_error err = {0};
    sk_vtk_writer *w = sk_vtk_open(out, 1, ids, 2, SK_VTK_LINKS, &err);
    CHECK(w);
    CHECK(setrlimit(RLIMIT_FSIZE, &small) == 0);
    const int rc = sk_vtk_write_arrays(w, 0, 0, 2, ids, counts, p, v, tension, &err);
    setrlimit(RLIMIT_FSIZE, &old);
    CHECK(rc == SK_ERR_IO);
    char want[256];
    snprintf(want, sizeof want, "%s: write failed: %s", out, strerror(EFBIG));
    CHECK(strcmp(err.message, want) == 0);
    sk_vtk_abort(w);
    CHECK(count_entries(dir) == 0);
    remove_tree(dir);
    return 0;
}

CHECK_MAIN({"arrays_links", arrays_links}, {"arrays_polylines", arrays_polylines},
           {"replaces_own_output", replaces_own_output}, {"refuses_other_files", refuses_other_files},
           {"abort_keeps_target", abort_keeps_target}, {"keep_incomplete", keep_incomplete},
           {"bad_input", bad_input}, {"write_error", write_error})
