/* A test tool that reads a skein HDF5 output with the HDF5 library and prints it as text the scripts
 * compare: a description (attributes, shapes, divergence, swept parameters, non-finite numbers) or the
 * frames as the CSV writer would have written them, to compare with a CSV of the same run byte for byte.
 * Usage: h5_probe describe FILE | h5_probe csv FILE */
#include <hdf5.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "skein/output.h"
#include "skein/types.h"

#ifdef SKEIN_REAL_FLOAT
#define H5T_REAL H5T_NATIVE_FLOAT
#else
#define H5T_REAL H5T_NATIVE_DOUBLE
#endif

static void die(const char *what)
{
    fprintf(stderr, "h5_probe: %s\n", what);
    exit(1);
}

/* Reads a whole dataset into a new buffer; dims gets its shape, the return its rank. */
static void *read_all(hid_t loc, const char *name, hid_t type, hsize_t dims[4], int *rank)
{
    hid_t d = H5Dopen2(loc, name, H5P_DEFAULT);
    if (d < 0)
        die(name);
    hid_t space = H5Dget_space(d);
    *rank = H5Sget_simple_extent_dims(space, dims, NULL);
    size_t n = 1;
    for (int i = 0; i < *rank; i++)
        n *= dims[i];
    void *buf = malloc((n ? n : 1) * H5Tget_size(type));
    if (!buf || (n && H5Dread(d, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf) < 0))
        die(name);
    H5Sclose(space);
    H5Dclose(d);
    return buf;
}

static int64_t attr_i64(hid_t loc, const char *name)
{
    int64_t v = 0;
    hid_t a = H5Aopen(loc, name, H5P_DEFAULT);
    if (a < 0 || H5Aread(a, H5T_NATIVE_INT64, &v) < 0)
        die(name);
    H5Aclose(a);
    return v;
}

/* Prints a string attribute of loc/object (object "." is loc itself), or "-" when it has none. */
static void print_string_attr(hid_t loc, const char *object, const char *name)
{
    if (H5Aexists_by_name(loc, object, name, H5P_DEFAULT) <= 0) {
        printf("-");
        return;
    }
    hid_t a = H5Aopen_by_name(loc, object, name, H5P_DEFAULT, H5P_DEFAULT);
    hid_t type = H5Aget_type(a);
    char *s = NULL;
    if (H5Tis_variable_str(type) <= 0 || H5Aread(a, type, &s) < 0)
        die(name);
    printf("%s", s);
    H5free_memory(s);
    H5Tclose(type);
    H5Aclose(a);
}

static long count_nonfinite(const sk_real *x, size_t n)
{
    long bad = 0;
    for (size_t i = 0; i < n; i++)
        bad += !isfinite(x[i]);
    return bad;
}

typedef struct group_data {
    hsize_t pd[4], cd[4], ed[4], td[4], rd[4];
    sk_real *p, *v, *energy, *tension;
    int *count;
    uint64_t *ropes;
} group_data;

static void read_group(hid_t g, group_data *gd)
{
    int rank;
    gd->p = read_all(g, "position", H5T_REAL, gd->pd, &rank);
    gd->v = read_all(g, "velocity", H5T_REAL, gd->pd, &rank);
    gd->count = read_all(g, "count", H5T_NATIVE_INT, gd->cd, &rank);
    gd->energy = read_all(g, "energy", H5T_REAL, gd->ed, &rank);
    gd->tension = read_all(g, "tension", H5T_REAL, gd->td, &rank);
    gd->ropes = read_all(g, "ropes", H5T_NATIVE_UINT64, gd->rd, &rank);
}

static void free_group(group_data *gd)
{
    free(gd->p);
    free(gd->v);
    free(gd->count);
    free(gd->energy);
    free(gd->tension);
    free(gd->ropes);
}

static herr_t print_param(hid_t params, const char *name, const H5L_info_t *info, void *data)
{
    (void)info;
    (void)data;
    hsize_t dims[4];
    int rank;
    sk_real *x = read_all(params, name, H5T_REAL, dims, &rank);
    printf("  param %s [", name);
    print_string_attr(params, name, "units");
    printf("]");
    for (hsize_t i = 0; i < dims[0]; i++)
        printf(" " SK_REAL_FMT, x[i]);
    printf("\n");
    free(x);
    return 0;
}

static void describe(hid_t f)
{
    printf("complete %" PRId64 "\nsteps %" PRId64 "\nevery %" PRId64 "\nreal ", attr_i64(f, "complete"),
           attr_i64(f, "steps"), attr_i64(f, "every"));
    print_string_attr(f, ".", "real");
    printf("\nunits time ");
    print_string_attr(f, "time", "units");
    printf("\n");
    hsize_t dims[4];
    int rank;
    int64_t *steps = read_all(f, "step", H5T_NATIVE_INT64, dims, &rank);
    sk_real *time = read_all(f, "time", H5T_REAL, dims, &rank);
    printf("frames %llu:", (unsigned long long)dims[0]);
    for (hsize_t i = 0; i < dims[0]; i++)
        printf(" %" PRId64, steps[i]);
    printf("\n");
    long bad = count_nonfinite(time, dims[0]);
    free(steps);
    free(time);

    hid_t groups = H5Gopen2(f, "groups", H5P_DEFAULT);
    H5G_info_t info;
    H5Gget_info(groups, &info);
    for (hsize_t i = 0; i < info.nlinks; i++) {
        char name[32];
        snprintf(name, sizeof name, "%llu", (unsigned long long)i);
        hid_t g = H5Gopen2(groups, name, H5P_DEFAULT);
        group_data gd;
        read_group(g, &gd);
        printf("group %s first_rope %" PRId64 " count %" PRId64 " particles %" PRId64 "\n", name,
               attr_i64(g, "first_rope"), attr_i64(g, "count"), attr_i64(g, "particles"));
        printf("  position %llux%llux%llux%llu [", (unsigned long long)gd.pd[0], (unsigned long long)gd.pd[1],
               (unsigned long long)gd.pd[2], (unsigned long long)gd.pd[3]);
        print_string_attr(g, "position", "units");
        printf("] velocity [");
        print_string_attr(g, "velocity", "units");
        printf("] count %llux%llu energy %llux%llux%llu [", (unsigned long long)gd.cd[0],
               (unsigned long long)gd.cd[1], (unsigned long long)gd.ed[0], (unsigned long long)gd.ed[1],
               (unsigned long long)gd.ed[2]);
        print_string_attr(g, "energy", "units");
        printf("] tension %llux%llux%llu [", (unsigned long long)gd.td[0], (unsigned long long)gd.td[1],
               (unsigned long long)gd.td[2]);
        print_string_attr(g, "tension", "units");
        printf("]\n  ropes");
        for (hsize_t r = 0; r < gd.rd[0]; r++)
            printf(" %" PRIu64, gd.ropes[r]);
        int64_t *diverged = read_all(g, "diverged", H5T_NATIVE_INT64, dims, &rank);
        printf("\n  diverged");
        for (hsize_t r = 0; r < dims[0]; r++)
            printf(" %" PRId64, diverged[r]);
        printf("\n");
        free(diverged);
        const size_t np = (size_t)(gd.pd[0] * gd.pd[1] * gd.pd[2] * gd.pd[3]);
        bad += count_nonfinite(gd.p, np) + count_nonfinite(gd.v, np) +
               count_nonfinite(gd.energy, (size_t)(gd.ed[0] * gd.ed[1] * gd.ed[2])) +
               count_nonfinite(gd.tension, (size_t)(gd.td[0] * gd.td[1] * gd.td[2]));
        /* the last frame's energies: kinetic, gravity, elastic per rope */
        if (gd.ed[0] > 0)
            for (hsize_t r = 0; r < gd.ed[1]; r++) {
                const sk_real *e = gd.energy + ((gd.ed[0] - 1) * gd.ed[1] + r) * 3;
                printf("  last energy rope %" PRIu64 " " SK_REAL_FMT " " SK_REAL_FMT " " SK_REAL_FMT "\n",
                       gd.ropes[r], e[0], e[1], e[2]);
            }
        if (H5Lexists(g, "params", H5P_DEFAULT) > 0) {
            hid_t params = H5Gopen2(g, "params", H5P_DEFAULT);
            H5Literate(params, H5_INDEX_NAME, H5_ITER_INC, NULL, print_param, NULL);
            H5Gclose(params);
        }
        free_group(&gd);
        H5Gclose(g);
    }
    H5Gclose(groups);
    printf("nonfinite %ld\n", bad);
}

/* The frames in the CSV writer's format, ropes in global order within each frame. */
static void as_csv(hid_t f)
{
    hsize_t dims[4];
    int rank;
    int64_t *steps = read_all(f, "step", H5T_NATIVE_INT64, dims, &rank);
    sk_real *time = read_all(f, "time", H5T_REAL, dims, &rank);
    const hsize_t frames = dims[0];
    hid_t groups = H5Gopen2(f, "groups", H5P_DEFAULT);
    H5G_info_t info;
    H5Gget_info(groups, &info);
    group_data *gd = calloc(info.nlinks ? info.nlinks : 1, sizeof *gd);
    for (hsize_t i = 0; i < info.nlinks; i++) {
        char name[32];
        snprintf(name, sizeof name, "%llu", (unsigned long long)i);
        hid_t g = H5Gopen2(groups, name, H5P_DEFAULT);
        read_group(g, &gd[i]);
        H5Gclose(g);
    }
    printf(SK_CSV_HEADER "\n");
    for (hsize_t fr = 0; fr < frames; fr++)
        for (hsize_t i = 0; i < info.nlinks; i++) {
            const group_data *g = &gd[i];
            const hsize_t ropes = g->pd[1], cap = g->pd[2];
            for (hsize_t r = 0; r < ropes; r++) {
                const int n = g->count[fr * ropes + r];
                for (int k = 0; k < n; k++) {
                    const sk_real *p = g->p + ((fr * ropes + r) * cap + (hsize_t)k) * 3;
                    const sk_real *v = g->v + ((fr * ropes + r) * cap + (hsize_t)k) * 3;
                    printf("%" PRIu64 ",%" PRId64 "," SK_REAL_FMT ",%d," SK_REAL_FMT "," SK_REAL_FMT "," SK_REAL_FMT
                           "," SK_REAL_FMT "," SK_REAL_FMT "," SK_REAL_FMT "\n",
                           g->ropes[r], steps[fr], time[fr], k, p[0], p[1], p[2], v[0], v[1], v[2]);
                }
            }
        }
    for (hsize_t i = 0; i < info.nlinks; i++)
        free_group(&gd[i]);
    free(gd);
    H5Gclose(groups);
    free(steps);
    free(time);
}

int main(int argc, char **argv)
{
    if (argc != 3 || (strcmp(argv[1], "describe") != 0 && strcmp(argv[1], "csv") != 0))
        die("usage: h5_probe describe|csv FILE");
    hid_t f = H5Fopen(argv[2], H5F_ACC_RDONLY, H5P_DEFAULT);
    if (f < 0)
        die("cannot open the file");
    if (strcmp(argv[1], "describe") == 0)
        describe(f);
    else
        as_csv(f);
    H5Fclose(f);
    return 0;
}
