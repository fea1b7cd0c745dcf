/* The CSV writer: values read back to the same bits, the temporary file is renamed only on success. */
#include <dirent.h>
#include <errno.h>
#include <float.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "skein/output.h"
#include "io/text/text_outputs.h"

#ifdef SKEIN_REAL_FLOAT
#define REAL_MAX FLT_MAX
static sk_real parse_real(const char *s, char **end) { return strtof(s, end); }
#else
#define REAL_MAX DBL_MAX
static sk_real parse_real(const char *s, char **end) { return strtod(s, end); }
#endif

/* A fresh directory for one case. */
static char *scratch_dir(void)
{
    static char dir[64];
    snprintf(dir, sizeof dir, "/tmp/skein-test-csv.XXXXXX");
    return mkdtemp(dir);
}

static char *read_file(const char *path)
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
    fclose(f);
    return text;
}

/* Entries of dir other than . and .. */
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

static void remove_dir(const char *dir, const char *file)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s", dir, file);
    unlink(path);
    rmdir(dir);
}

/* Values that print badly with too few digits: thirds, tenths, the extremes, signed zero. */
static void tricky_values(sk_real v[12])
{
    sk_real tiny = 1; /* the smallest subnormal */
    while (tiny / 2 > 0)
        tiny /= 2;
    const sk_real third = (sk_real)1 / (sk_real)3;
    v[0] = (sk_real)0.1;
    v[1] = -third;
    v[2] = tiny;
    v[3] = REAL_MAX;
    v[4] = -(sk_real)0;
    v[5] = (sk_real)1 + (sk_real)FLT_EPSILON; /* 1 + 2^-23: exact in float and double */
    v[6] = (sk_real)123456.789;
    v[7] = -REAL_MAX;
    v[8] = (sk_real)2 / (sk_real)3 * (sk_real)1e-30;
    v[9] = (sk_real)0;
    v[10] = (sk_real)9.87654321e20;
    v[11] = third * (sk_real)7;
}

/* Writes two particles of rope 5 at step 3, reads the row fields back, compares bits. */
static int round_trip(void)
{
    const char *dir = scratch_dir();
    CHECK(dir);
    char path[128];
    snprintf(path, sizeof path, "%s/out.csv", dir);
    sk_real v[12];
    tricky_values(v);
    const size_t ropes[] = {5};
    sk_error err = {0};
    sk_csv_writer *w = sk_csv_open(path, (sk_real)0.25, ropes, 1, &err);
    CHECK(w);
    CHECK_OK(sk_csv_write_rope(w, 5, 3, 2, v, v + 6, &err));
    CHECK_OK(sk_csv_commit(w, &err));

    char *text = read_file(path);
    CHECK(text);
    char *line = strtok(text, "\n");
    CHECK(line && strcmp(line, SK_CSV_HEADER) == 0);
    for (int i = 0; i < 2; i++) {
        line = strtok(NULL, "\n");
        CHECK(line);
        char *p = line, *end;
        CHECK(strtol(p, &end, 10) == 5 && *end == ',');
        p = end + 1;
        CHECK(strtol(p, &end, 10) == 3 && *end == ',');
        p = end + 1;
        CHECK_SAME_BITS(parse_real(p, &end), (sk_real)0.75); /* 3 * 0.25, exact */
        CHECK(*end == ',');
        p = end + 1;
        CHECK(strtol(p, &end, 10) == i && *end == ',');
        for (int k = 0; k < 6; k++) {
            p = end + 1;
            const sk_real want = k < 3 ? v[3 * i + k] : v[6 + 3 * i + k - 3];
            CHECK_SAME_BITS(parse_real(p, &end), want);
            CHECK(*end == (k < 5 ? ',' : '\0'));
        }
    }
    CHECK(strtok(NULL, "\n") == NULL);
    free(text);
    CHECK(count_entries(dir) == 1); /* the temporary is gone */
    remove_dir(dir, "out.csv");
    return 0;
}

/* The time column is (sk_real)step * dt, printed so it reads back: 7 * 0.1 is 0.70000000000000007 in
 * double. */
static int time_column(void)
{
    const char *dir = scratch_dir();
    CHECK(dir);
    char path[128];
    snprintf(path, sizeof path, "%s/out.csv", dir);
    const sk_real p[3] = {1, 2, 3}, v[3] = {4, 5, 6};
    const size_t ropes[] = {0};
    sk_error err = {0};
    sk_csv_writer *w = sk_csv_open(path, (sk_real)0.1, ropes, 1, &err);
    CHECK(w);
    CHECK_OK(sk_csv_write_rope(w, 0, 7, 1, p, v, &err));
    CHECK_OK(sk_csv_commit(w, &err));
    char *text = read_file(path);
    CHECK(text);
#ifdef SKEIN_REAL_FLOAT
    /* 0.1f = 0.100000001490116; times 7 is 0.70000001043, nearer the float 0.699999988 than
     * 0.700000048. */
    CHECK(strcmp(text, SK_CSV_HEADER "\n0,7,0.699999988,0,1,2,3,4,5,6\n") == 0);
#else
    CHECK(strcmp(text, SK_CSV_HEADER "\n0,7,0.70000000000000007,0,1,2,3,4,5,6\n") == 0);
#endif
    free(text);
    remove_dir(dir, "out.csv");
    return 0;
}

/* Aborting removes the temporary and leaves an existing file as it was. */
static int abort_keeps_target(void)
{
    const char *dir = scratch_dir();
    CHECK(dir);
    char path[128];
    snprintf(path, sizeof path, "%s/out.csv", dir);
    FILE *f = fopen(path, "w");
    CHECK(f);
    fputs("old\n", f);
    fclose(f);
    const sk_real p[3] = {1, 2, 3};
    const size_t ropes[] = {0};
    sk_error err = {0};
    sk_csv_writer *w = sk_csv_open(path, 1, ropes, 1, &err);
    CHECK(w);
    /* The temporary sits beside the target while the run goes on. */
    const char *temp = sk_csv_temp_path(w);
    CHECK(strncmp(temp, path, strlen(path)) == 0 && strncmp(temp + strlen(path), ".tmp.", 5) == 0);
    CHECK(access(temp, F_OK) == 0);
    CHECK(count_entries(dir) == 2);
    CHECK_OK(sk_csv_write_rope(w, 0, 0, 1, p, p, &err));
    sk_csv_abort(w);
    char *text = read_file(path);
    CHECK(text && strcmp(text, "old\n") == 0);
    free(text);
    CHECK(count_entries(dir) == 1);
    remove_dir(dir, "out.csv");
    return 0;
}

/* Commit replaces an existing file; the result has the mode a new file gets under the umask. */
static int commit_replaces_target(void)
{
    const char *dir = scratch_dir();
    CHECK(dir);
    char path[128];
    snprintf(path, sizeof path, "%s/out.csv", dir);
    FILE *f = fopen(path, "w");
    CHECK(f);
    fputs("old\n", f);
    fclose(f);
    umask(027);
    const size_t ropes[] = {0};
    sk_error err = {0};
    sk_csv_writer *w = sk_csv_open(path, 1, ropes, 1, &err);
    CHECK(w);
    CHECK_OK(sk_csv_commit(w, &err));
    char *text = read_file(path);
    CHECK(text && strcmp(text, SK_CSV_HEADER "\n") == 0);
    free(text);
    struct stat st;
    CHECK(stat(path, &st) == 0 && (st.st_mode & 0777) == 0640);
    CHECK(count_entries(dir) == 1);
    remove_dir(dir, "out.csv");
    return 0;
}

/* A directory that does not exist: status 1, the message names the file and the reason. */
static int unwritable_path(void)
{
    const char *dir = scratch_dir();
    CHECK(dir);
    char path[128], want[256];
    snprintf(path, sizeof path, "%s/missing/out.csv", dir);
    snprintf(want, sizeof want, "%s: cannot create: %s", path, strerror(ENOENT));
    const size_t ropes[] = {0};
    sk_error err = {0};
    CHECK(sk_csv_open(path, 1, ropes, 1, &err) == NULL);
    CHECK(err.status == SK_ERR_IO);
    CHECK(strcmp(err.message, want) == 0);
    CHECK(count_entries(dir) == 0);
    rmdir(dir);
    return 0;
}

/* A file size limit stands in for a full disk: the failure surfaces (here or at commit) as status
 * 1 naming the file, and nothing is left behind. */
static int write_error(void)
{
    const char *dir = scratch_dir();
    CHECK(dir);
    char path[128];
    snprintf(path, sizeof path, "%s/out.csv", dir);
    signal(SIGXFSZ, SIG_IGN);
    struct rlimit old, small;
    CHECK(getrlimit(RLIMIT_FSIZE, &old) == 0);
    small = old;
    small.rlim_cur = 4096;
    CHECK(setrlimit(RLIMIT_FSIZE, &small) == 0);

    sk_real p[300];
    for (int i = 0; i < 300; i++)
        p[i] = (sk_real)1 / (sk_real)(i + 3);
    const size_t ropes[] = {0};
    sk_error err = {0};
    sk_csv_writer *w = sk_csv_open(path, 1, ropes, 1, &err);
    CHECK(w);
    int rc = 0;
    for (int step = 0; step < 100 && rc == 0; step++)
        rc = sk_csv_write_rope(w, 0, step, 100, p, p, &err);
    if (rc == 0)
        rc = sk_csv_commit(w, &err);
    else
        sk_csv_abort(w);
    setrlimit(RLIMIT_FSIZE, &old);
    CHECK(rc == SK_ERR_IO && err.status == SK_ERR_IO);
    char want[256];
    snprintf(want, sizeof want, "%s: write failed: %s", path, strerror(EFBIG));
    CHECK(strcmp(err.message, want) == 0);
    CHECK(count_entries(dir) == 0);
    rmdir(dir);
    return 0;
}

CHECK_MAIN({"round_trip", round_trip}, {"time_column", time_column},
           {"abort_keeps_target", abort_keeps_target},
           {"commit_replaces_target", commit_replaces_target},
           {"unwritable_path", unwritable_path}, {"write_error", write_error})
