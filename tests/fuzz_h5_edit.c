/* Structure-aware mutations of HDF5 files through libhdf5 (fuzz_h5_edit.h). The bytes go to a scratch file
 * (HDF5's in-memory file images drop a user block), are edited there with HDF5 and read back. */
#include "fuzz_h5_edit.h"

#include <fcntl.h>
#include <float.h>
#include <hdf5.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* libFuzzer's own byte mutations, for a string's or a buffer's contents. */
size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size);

#define MAX_NAMES 64
#define NAME_BYTES 256
/* Elements of a dataset read, edited and written back at most: beyond, only its extent, type or links. */
#define MAX_ELEMENTS ((hsize_t)1 << 20)

uint64_t sk_fuzz_random(uint64_t *state)
{
    uint64_t x = *state ? *state : 0x9e3779b97f4a7c15ull;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    *state = x;
    return x * 0x2545f4914f6cdd1dull;
}

static uint64_t below(uint64_t *rng, uint64_t n) { return n ? sk_fuzz_random(rng) % n : 0; }

int64_t sk_fuzz_integer(int64_t v, uint64_t *rng)
{
    static const int64_t table[] = {0,         1,          -1,         2,          3,          7,
                                    8,         31,         32,         63,         64,         100,
                                    127,       128,        255,        256,        1000,       65535,
                                    65536,     INT32_MAX,  INT32_MIN,  UINT32_MAX, 1ll << 32,  1ll << 40,
                                    1ll << 53, 1ll << 60,  (1ll << 61) + 1,         INT64_MAX, INT64_MIN,
                                    INT64_MIN + 1};
    const uint64_t u = (uint64_t)v;
    switch (below(rng, 4)) {
    case 0: return table[below(rng, sizeof table / sizeof table[0])];
    case 1: return (int64_t)(u + 1 + below(rng, 3) - 2); /* v - 1 .. v + 1 */
    case 2: {
        const uint64_t how = below(rng, 5);
        return how == 0 ? (int64_t)(u * 2) : how == 1 ? v / 2 : how == 2 ? (int64_t)(0 - u) : how == 3 ? (int64_t)(u * 8) : (int64_t)(u + 50);
    }
    default: return (int64_t)sk_fuzz_random(rng);
    }
}

static double fuzz_real(double v, uint64_t *rng)
{
    static const double table[] = {0, -0.0, 1, -1, 0.5, NAN, INFINITY, -INFINITY, 1e300, -1e300, DBL_MIN, DBL_MAX,
                                   9007199254740992.0, 9223372036854775808.0, 18446744073709551616.0, 2147483648.0,
                                   4294967296.0, 1e-300};
    switch (below(rng, 3)) {
    case 0: return table[below(rng, sizeof table / sizeof table[0])];
    case 1: return below(rng, 2) ? v + 1 : v * 2;
    default: {
        uint64_t bits = sk_fuzz_random(rng);
        double d;
        memcpy(&d, &bits, sizeof d);
        return d;
    }
    }
}

/* ---- the scratch file ----------------------------------------------------------------------------------- */

static char scratch[4096];

static void remove_scratch(void)
{
    unlink(scratch);
    char *slash = strrchr(scratch, '/');
    *slash = '\0';
    rmdir(scratch);
}

static bool put_file(const uint8_t *data, size_t size)
{
    if (!scratch[0]) {
        const char *tmp = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
        snprintf(scratch, sizeof scratch, "%s/skein-fuzz-edit-XXXXXX", tmp);
        if (!mkdtemp(scratch))
            abort();
        strcat(scratch, "/edit.h5");
        atexit(remove_scratch);
    }
    const int fd = open(scratch, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    const bool ok = fd >= 0 && write(fd, data, size) == (ssize_t)size;
    if (fd >= 0)
        close(fd);
    return ok;
}

/* The scratch file's bytes into data, when they fit in max: their size, else 0. */
static size_t get_file(uint8_t *data, size_t max)
{
    const int fd = open(scratch, O_RDONLY);
    if (fd < 0)
        return 0;
    const off_t size = lseek(fd, 0, SEEK_END);
    size_t got = 0;
    if (size > 0 && (size_t)size <= max && pread(fd, data, (size_t)size, 0) == size)
        got = (size_t)size;
    close(fd);
    return got;
}

/* ---- what the file holds ---------------------------------------------------------------------------------- */

typedef struct names {
    char name[MAX_NAMES][NAME_BYTES];
    H5I_type_t kind[MAX_NAMES];
    int n;
} names;

static herr_t add_object(hid_t root, const char *name, const H5L_info_t *info, void *ctx)
{
    names *nm = ctx;
    if (info->type != H5L_TYPE_HARD || nm->n == MAX_NAMES || strlen(name) >= NAME_BYTES)
        return 0;
    hid_t o = H5Oopen(root, name, H5P_DEFAULT);
    if (o < 0)
        return 0;
    nm->kind[nm->n] = H5Iget_type(o);
    H5Oclose(o);
    snprintf(nm->name[nm->n++], NAME_BYTES, "%s", name);
    return 0;
}

static herr_t add_attribute(hid_t loc, const char *name, const H5A_info_t *info, void *ctx)
{
    (void)loc;
    (void)info;
    names *nm = ctx;
    if (nm->n < MAX_NAMES && strlen(name) < NAME_BYTES)
        snprintf(nm->name[nm->n++], NAME_BYTES, "%s", name);
    return 0;
}

/* ---- attributes ------------------------------------------------------------------------------------------- */

static hid_t text_type(void)
{
    hid_t t = H5Tcopy(H5T_C_S1);
    H5Tset_size(t, H5T_VARIABLE);
    H5Tset_cset(t, H5T_CSET_UTF8);
    return t;
}

/* A string for attribute text `was`: mutated by libFuzzer, another skein word, control characters, empty. */
static char *fuzz_text(const char *was, uint64_t *rng)
{
    static const char *const words[] = {"",      "batch",  "reference",        "float",     "double", "skein checkpoint",
                                        "\x1b[2J\x1b[31mred", "a\nb\rc\td", "out.csv", "/etc/passwd"};
    const size_t len = was ? strlen(was) : 0, cap = len + 64;
    char *s = malloc(cap + 1);
    if (!s)
        abort();
    if (below(rng, 4) == 0) {
        snprintf(s, cap + 1, "%s", words[below(rng, sizeof words / sizeof words[0])]);
        return s;
    }
    memcpy(s, was ? was : "", len);
    size_t n = LLVMFuzzerMutate((uint8_t *)s, len, cap);
    for (size_t i = 0; i < n; i++) /* a C string ends at the first NUL */
        if (!s[i])
            s[i] = ' ';
    s[n] = '\0';
    return s;
}

/* Rewrites attribute `name` of obj: another value of its class, another class, an array, nothing, gone. */
static void edit_attribute(hid_t obj, const char *name, uint64_t *rng)
{
    hid_t a = H5Aopen(obj, name, H5P_DEFAULT);
    if (a < 0)
        return;
    hid_t type = H5Aget_type(a), space = H5Aget_space(a);
    H5T_class_t cls = H5Tget_class(type);
    const bool one = H5Sget_simple_extent_npoints(space) == 1;
    int64_t iv = 0;
    double dv = 0;
    char *text = NULL;
    if (one && cls == H5T_INTEGER)
        H5Aread(a, H5T_NATIVE_INT64, &iv);
    else if (one && cls == H5T_FLOAT)
        H5Aread(a, H5T_NATIVE_DOUBLE, &dv);
    else if (one && cls == H5T_STRING && H5Tis_variable_str(type) > 0) {
        hid_t t = text_type();
        char *v = NULL;
        if (H5Aread(a, t, &v) >= 0 && v) {
            text = strdup(v);
            H5free_memory(v);
        }
        H5Tclose(t);
    }
    H5Tclose(type);
    H5Sclose(space);
    H5Aclose(a);
    if (H5Adelete(obj, name) < 0)
        return;
    const uint64_t op = below(rng, 10);
    if (op == 9) { /* gone */
        free(text);
        return;
    }
    if (op == 8) /* another class */
        cls = cls == H5T_INTEGER ? (below(rng, 2) ? H5T_FLOAT : H5T_STRING) : cls == H5T_FLOAT ? H5T_INTEGER : H5T_INTEGER;
    hsize_t count = op == 7 ? 2 + below(rng, 15) : 1;
    space = op == 6 ? H5Screate(H5S_NULL) : count > 1 ? H5Screate_simple(1, &count, NULL) : H5Screate(H5S_SCALAR);
    if (cls == H5T_FLOAT) {
        double *v = malloc(count * sizeof *v);
        for (hsize_t i = 0; i < count; i++)
            v[i] = op < 6 ? fuzz_real(dv, rng) : dv;
        hid_t b = H5Acreate2(obj, name, H5T_NATIVE_DOUBLE, space, H5P_DEFAULT, H5P_DEFAULT);
        if (b >= 0 && op != 6)
            H5Awrite(b, H5T_NATIVE_DOUBLE, v);
        H5Aclose(b);
        free(v);
    } else if (cls == H5T_STRING) {
        char **v = malloc(count * sizeof *v);
        for (hsize_t i = 0; i < count; i++)
            v[i] = op < 6 ? fuzz_text(text, rng) : strdup(text ? text : "1");
        hid_t t = text_type(), b = H5Acreate2(obj, name, t, space, H5P_DEFAULT, H5P_DEFAULT);
        if (b >= 0 && op != 6)
            H5Awrite(b, t, v);
        H5Aclose(b);
        H5Tclose(t);
        for (hsize_t i = 0; i < count; i++)
            free(v[i]);
        free(v);
    } else {
        int64_t *v = malloc(count * sizeof *v);
        for (hsize_t i = 0; i < count; i++)
            v[i] = op < 6 ? sk_fuzz_integer(iv, rng) : iv;
        /* mostly as skein writes them; now and then narrower or unsigned */
        const hid_t types[] = {H5T_NATIVE_INT64, H5T_NATIVE_INT64, H5T_NATIVE_INT64, H5T_NATIVE_UINT64,
                               H5T_NATIVE_INT32, H5T_NATIVE_UINT8};
        const hid_t ft = types[below(rng, 6)];
        hid_t b = H5Acreate2(obj, name, ft, space, H5P_DEFAULT, H5P_DEFAULT);
        if (b >= 0 && op != 6)
            H5Awrite(b, H5T_NATIVE_INT64, v); /* HDF5 converts, clamping what does not fit */
        H5Aclose(b);
        free(v);
    }
    H5Sclose(space);
    free(text);
}

/* ---- datasets --------------------------------------------------------------------------------------------- */

/* A new dataset at name of the given type and extent, chunked and unlimited (so that an extent of any size
 * costs no storage), holding `values` (count elements of memtype, repeated or cut to fit) when it is small. */
static void make_dataset(hid_t file, const char *name, hid_t ftype, int rank, const hsize_t *dims, hid_t memtype,
                         const void *values, hsize_t count)
{
    hsize_t chunk[H5S_MAX_RANK], max[H5S_MAX_RANK], n = 1, per_chunk = 1;
    for (int i = 0; i < rank; i++) {
        chunk[i] = dims[i] == 0 ? 1 : dims[i] < 256 ? dims[i] : 256;
        per_chunk *= chunk[i];
        max[i] = H5S_UNLIMITED;
        n = dims[i] && n > MAX_ELEMENTS / dims[i] ? MAX_ELEMENTS + 1 : n * dims[i];
    }
    for (int i = 0; per_chunk > ((hsize_t)1 << 16); i = (i + 1) % rank) /* chunks of 64 Ki elements at most */
        if (chunk[i] > 1) {
            per_chunk = per_chunk / chunk[i] * ((chunk[i] + 1) / 2);
            chunk[i] = (chunk[i] + 1) / 2;
        }
    hid_t space = H5Screate_simple(rank, dims, max), dcpl = H5Pcreate(H5P_DATASET_CREATE);
    if (rank > 0)
        H5Pset_chunk(dcpl, rank, chunk);
    hid_t lcpl = H5Pcreate(H5P_LINK_CREATE);
    H5Pset_create_intermediate_group(lcpl, 1);
    hid_t d = H5Dcreate2(file, name, ftype, space, lcpl, dcpl, H5P_DEFAULT);
    if (d >= 0 && n <= MAX_ELEMENTS && n > 0 && count > 0) {
        const size_t size = H5Tget_size(memtype);
        unsigned char *buf = calloc(n, size);
        for (hsize_t i = 0; buf && i < n; i++)
            memcpy(buf + i * size, (const unsigned char *)values + (i % count) * size, size);
        if (buf)
            H5Dwrite(d, memtype, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf);
        free(buf);
    }
    if (d >= 0)
        H5Dclose(d);
    H5Pclose(lcpl);
    H5Pclose(dcpl);
    H5Sclose(space);
}

/* Edits dataset `name`: some of its values, its extent, rank or type; or deletes it. */
static void edit_dataset(hid_t file, const char *name, uint64_t *rng)
{
    hid_t d = H5Dopen2(file, name, H5P_DEFAULT);
    if (d < 0)
        return;
    hid_t type = H5Dget_type(d), space = H5Dget_space(d);
    const H5T_class_t cls = H5Tget_class(type);
    hsize_t dims[H5S_MAX_RANK];
    const int rank = H5Sget_simple_extent_dims(space, dims, NULL);
    /* its elements counted here: HDF5's own count wraps past 2^64, and a read of a wrapped count walks
     * every chunk of the true extent */
    hssize_t n = rank >= 0 ? 1 : -1;
    for (int i = 0; i < rank && n >= 0; i++)
        n = dims[i] == 0 ? 0 : (hsize_t)n > MAX_ELEMENTS / dims[i] ? -1 : n * (hssize_t)dims[i];
    const hid_t memtype = cls == H5T_FLOAT ? H5T_NATIVE_DOUBLE : H5T_NATIVE_INT64;
    const bool numeric = cls == H5T_INTEGER || cls == H5T_FLOAT;
    void *values = NULL;
    if (numeric && rank >= 0 && n >= 0 && (hsize_t)n <= MAX_ELEMENTS) {
        values = calloc((size_t)n + 1, 8);
        if (values && n > 0 && H5Dread(d, memtype, H5S_ALL, H5S_ALL, H5P_DEFAULT, values) < 0) {
            free(values);
            values = NULL;
        }
    }
    const uint64_t op = below(rng, 12);
    if (op < 6 && values && n > 0) { /* values, in place */
        if (below(rng, 3) == 0) {
            LLVMFuzzerMutate(values, (size_t)n * 8, (size_t)n * 8);
        } else {
            for (uint64_t k = 1 + below(rng, 3); k > 0; k--) {
                const uint64_t i = below(rng, (uint64_t)n);
                if (cls == H5T_FLOAT)
                    ((double *)values)[i] = fuzz_real(((double *)values)[i], rng);
                else
                    ((int64_t *)values)[i] = sk_fuzz_integer(((int64_t *)values)[i], rng);
            }
        }
        H5Dwrite(d, memtype, H5S_ALL, H5S_ALL, H5P_DEFAULT, values);
    }
    H5Sclose(space);
    hid_t ftype = H5Tcopy(type);
    H5Tclose(type);
    H5Dclose(d);
    if (op >= 6 && rank >= 0) {
        int new_rank = rank;
        hsize_t nd[H5S_MAX_RANK];
        memcpy(nd, dims, sizeof nd);
        if (op == 6 || op == 7) { /* another extent, often an absurd one */
            if (rank == 0)
                new_rank = 1, nd[0] = 1;
            const int i = (int)below(rng, (uint64_t)new_rank);
            const hsize_t choices[] = {0, 1, nd[i] ? nd[i] - 1 : 0, nd[i] + 1, nd[i] * 2, (hsize_t)1 << 31,
                                       (hsize_t)1 << 40, ((hsize_t)1 << 61) + 1, ((hsize_t)1 << 62)};
            nd[i] = choices[below(rng, sizeof choices / sizeof choices[0])];
        } else if (op == 8) { /* another rank */
            if (rank > 0 && (below(rng, 2) || rank == H5S_MAX_RANK))
                new_rank = rank - 1;
            else
                nd[new_rank++] = 1 + below(rng, 3);
        } else if (op == 9 && numeric) { /* another type */
            H5Tclose(ftype);
            const hid_t types[] = {H5T_NATIVE_INT32, H5T_NATIVE_INT64, H5T_NATIVE_UINT64, H5T_NATIVE_DOUBLE,
                                   H5T_NATIVE_FLOAT, H5T_NATIVE_INT8};
            ftype = H5Tcopy(types[below(rng, 6)]);
        }
        if (op <= 9 && H5Ldelete(file, name, H5P_DEFAULT) >= 0)
            make_dataset(file, name, ftype, new_rank, nd, memtype, values, values ? (hsize_t)n : 0);
        else if (op >= 10)
            H5Ldelete(file, name, H5P_DEFAULT);
    }
    H5Tclose(ftype);
    free(values);
}

/* ---- links ------------------------------------------------------------------------------------------------ */

/* Copies, moves or deletes object `name`; a copy or move goes beside it under a number ("groups/0" to
 * "groups/2") or over another object. */
static void edit_link(hid_t file, const names *objects, const char *name, uint64_t *rng)
{
    char to[NAME_BYTES + 16];
    const char *slash = strrchr(name, '/');
    const int dir = slash ? (int)(slash - name + 1) : 0;
    snprintf(to, sizeof to, "%.*s%d", dir, name, (int)below(rng, 4));
    if (below(rng, 3) == 0)
        snprintf(to, sizeof to, "%s", objects->name[below(rng, (uint64_t)objects->n)]);
    if (strcmp(to, name) == 0 || strncmp(to, name, strlen(name)) == 0)
        return;
    switch (below(rng, 3)) {
    case 0: H5Ldelete(file, name, H5P_DEFAULT); break;
    case 1:
        H5Ldelete(file, to, H5P_DEFAULT);
        H5Ocopy(file, name, file, to, H5P_DEFAULT, H5P_DEFAULT);
        break;
    default:
        H5Ldelete(file, to, H5P_DEFAULT);
        H5Lmove(file, name, file, to, H5P_DEFAULT, H5P_DEFAULT);
    }
}

/* ---- one edit --------------------------------------------------------------------------------------------- */

size_t sk_fuzz_h5_edit(uint8_t *data, size_t size, size_t max, uint64_t *rng)
{
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
    if (!put_file(data, size))
        return 0;
    hid_t file = H5Fopen(scratch, H5F_ACC_RDWR, H5P_DEFAULT);
    if (file < 0)
        return 0;
    static names objects;
    objects.n = 0;
    H5Lvisit(file, H5_INDEX_NAME, H5_ITER_INC, add_object, &objects);
    const uint64_t what = below(rng, 10);
    if (what < 5 || objects.n == 0) { /* an attribute, of the root mostly */
        const bool root = objects.n == 0 || below(rng, 2);
        hid_t obj = root ? H5Oopen(file, "/", H5P_DEFAULT)
                         : H5Oopen(file, objects.name[below(rng, (uint64_t)objects.n)], H5P_DEFAULT);
        static names attributes;
        attributes.n = 0;
        if (obj >= 0)
            H5Aiterate2(obj, H5_INDEX_NAME, H5_ITER_INC, NULL, add_attribute, &attributes);
        if (attributes.n > 0)
            edit_attribute(obj, attributes.name[below(rng, (uint64_t)attributes.n)], rng);
        if (obj >= 0)
            H5Oclose(obj);
    } else {
        int datasets[MAX_NAMES], n = 0;
        for (int i = 0; i < objects.n; i++)
            if (objects.kind[i] == H5I_DATASET)
                datasets[n++] = i;
        if (what < 9 && n > 0)
            edit_dataset(file, objects.name[datasets[below(rng, (uint64_t)n)]], rng);
        else
            edit_link(file, &objects, objects.name[below(rng, (uint64_t)objects.n)], rng);
    }
    if (H5Fclose(file) < 0)
        return 0;
    return get_file(data, max);
}

size_t sk_fuzz_h5_set_root_int(uint8_t *data, size_t size, size_t max, const char *name, int64_t value)
{
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
    if (!put_file(data, size))
        return 0;
    hid_t file = H5Fopen(scratch, H5F_ACC_RDWR, H5P_DEFAULT);
    if (file < 0)
        return 0;
    H5Adelete(file, name);
    hid_t space = H5Screate(H5S_SCALAR), a = H5Acreate2(file, name, H5T_NATIVE_INT64, space, H5P_DEFAULT, H5P_DEFAULT);
    if (a >= 0) {
        H5Awrite(a, H5T_NATIVE_INT64, &value);
        H5Aclose(a);
    }
    H5Sclose(space);
    if (H5Fclose(file) < 0)
        return 0;
    return get_file(data, max);
}
