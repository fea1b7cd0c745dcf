/* skein-view's command line without a window: every option, every one-line error, and the chosen ropes
 * resolved against a scenario of two groups. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "scenario/scenario.h"
#include "check.h"
#include "options.h"

/* Parses the NULL-terminated arguments after "skein-view"; returns the status, message in err. */
static int parse(sk_view_options *o, sk_error *err, const char *const *args)
{
    char *argv[32] = {"skein-view"};
    int argc = 1;
    while (args[argc - 1])
        argv[argc] = (char *)args[argc - 1], argc++;
    memset(err, 0, sizeof *err);
    return sk_view_options_parse(argc, argv, o, err);
}

static int all_options(void)
{
    sk_view_options o;
    sk_error err;
    const char *args[] = {"f.json", "--rope", "3", "--rope=5", "--group", "1", "--screenshot", "out.png",
                          "--frames", "20", "--size", "640x480", "--strain-scale", "0.05", "--paused",
                          "--set", "dt=0.01", "--set=groups[0].mass=2", NULL};
    CHECK_OK(parse(&o, &err, args));
    CHECK(strcmp(o.file, "f.json") == 0);
    CHECK(o.n_ropes == 2 && o.ropes[0] == 3 && o.ropes[1] == 5);
    CHECK(o.has_group && o.group == 1);
    CHECK(strcmp(o.screenshot, "out.png") == 0 && o.has_frames && o.frames == 20);
    CHECK(o.width == 640 && o.height == 480);
    CHECK(o.strain_scale == 0.05 && o.paused && !o.help);
    CHECK(o.n_sets == 2 && strcmp(o.sets[0], "dt=0.01") == 0 && strcmp(o.sets[1], "groups[0].mass=2") == 0);
    sk_view_options_free(&o);

    const char *plain[] = {"f.json", NULL};
    CHECK_OK(parse(&o, &err, plain));
    CHECK(o.n_ropes == 0 && !o.has_group && !o.screenshot && o.frames == 0 && o.width == 1024 &&
          o.height == 768 && o.strain_scale == 0 && !o.paused);
    sk_view_options_free(&o);

    /* --help needs no file. */
    const char *help[] = {"--help", NULL};
    CHECK_OK(parse(&o, &err, help));
    CHECK(o.help);
    sk_view_options_free(&o);
    return 0;
}

static int errors(void)
{
    static const struct {
        const char *args[6];
        const char *message;
    } cases[] = {
        {{"f.json", "--frobnicate"}, "unknown option '--frobnicate' (see skein-view --help)"},
        {{"f.json", "--rope"}, "--rope: missing value"},
        {{"f.json", "--rope", "--paused"}, "--rope: missing value"},
        {{"f.json", "--rope", "x"}, "--rope: 'x' is not a whole number"},
        {{"f.json", "--rope", "-1"}, "--rope: -1 must be at least 0"},
        {{"f.json", "--rope", "1.5"}, "--rope: '1.5' is not a whole number"},
        {{"f.json", "--group", "99999999999999999999"}, "--group: 99999999999999999999 is too large"},
        {{"f.json", "--frames", "3"}, "--frames needs --screenshot"},
        {{"f.json", "--screenshot", "a.png", "--frames", "-2"}, "--frames: -2 must be at least 0"},
        {{"f.json", "--size", "800"}, "--size: '800' is not WIDTHxHEIGHT (like 1024x768)"},
        {{"f.json", "--size", "800x"}, "--size: '800x' is not WIDTHxHEIGHT (like 1024x768)"},
        {{"f.json", "--size", "8x600"}, "--size: 8x600 must be between 16x16 and 8192x8192"},
        {{"f.json", "--strain-scale", "0"}, "--strain-scale: '0' is not a positive number"},
        {{"f.json", "--strain-scale", "inf"}, "--strain-scale: 'inf' is not a positive number"},
        {{"f.json", "--paused=1"}, "--paused takes no value"},
        {{"f.json", "--set", "dt"}, "--set: 'dt' is not PATH=VALUE"},
        {{"f.json", "g.json"}, "unexpected argument 'g.json'"},
        {{"--rope", "1"}, "missing the scenario FILE (skein-view FILE --rope I; see --help)"},
        {{"f.json", "--screenshot="}, "--screenshot: empty file name"},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        sk_view_options o;
        sk_error err;
        int rc = parse(&o, &err, cases[k].args);
        if (rc != SK_ERR_INVALID || strcmp(err.message, cases[k].message) != 0) {
            fprintf(stderr, "case %zu: status %d, message [%s], expected [%s]\n", k, rc, err.message,
                    cases[k].message);
            return 1;
        }
    }
    return 0;
}

static const char two_groups[] =
    "{\"skein\": 1, \"dt\": 0.001, \"steps\": 1,"
    " \"groups\": [{\"count\": 3, \"particles\": 2, \"start\": [0, 0, 0], \"end\": [1, 0, 0],"
    "              \"link\": {\"type\": \"spring\", \"stiffness\": 10}},"
    "             {\"count\": 2, \"particles\": 3, \"start\": [0, 1, 0], \"end\": [1, 1, 0],"
    "              \"link\": {\"type\": \"rod\"}}]}";

/* Resolves the --rope/--group of args; returns the status and fills got (n values). */
static int resolve(const sk_scenario *s, const char *const *args, size_t *got, int *n, sk_error *err)
{
    sk_view_options o;
    if (parse(&o, err, args) != 0)
        return -1;
    size_t *g;
    int rc = sk_view_options_ropes(&o, s, &g, n, err);
    if (rc == 0) {
        memcpy(got, g, (size_t)*n * sizeof *g);
        free(g);
    }
    sk_view_options_free(&o);
    return rc;
}

static int ropes(void)
{
    sk_scenario s;
    sk_error err = {0};
    CHECK_OK(sk_scenario_load_string(two_groups, "two", NULL, &s, &err));
    size_t got[8];
    int n;
    const char *a1[] = {"f", "--rope", "4", NULL};
    CHECK_OK(resolve(&s, a1, got, &n, &err));
    CHECK(n == 1 && got[0] == 4);
    const char *a2[] = {"f", "--group", "1", "--rope", "1", "--rope", "0", NULL};
    CHECK_OK(resolve(&s, a2, got, &n, &err));
    CHECK(n == 2 && got[0] == 4 && got[1] == 3);
    const char *a3[] = {"f", NULL};
    CHECK_OK(resolve(&s, a3, got, &n, &err));
    CHECK(n == 1 && got[0] == 0);
    const char *a4[] = {"f", "--group", "1", NULL};
    CHECK_OK(resolve(&s, a4, got, &n, &err));
    CHECK(n == 1 && got[0] == 3);
    const char *a5[] = {"f", "--rope", "1", "--rope", "1", "--rope", "0", NULL};
    CHECK_OK(resolve(&s, a5, got, &n, &err));
    CHECK(n == 2 && got[0] == 1 && got[1] == 0);

    const char *b1[] = {"f", "--rope", "5", NULL};
    CHECK(resolve(&s, b1, got, &n, &err) == SK_ERR_INVALID);
    CHECK(strcmp(err.message, "--rope 5: the scenario has 5 ropes") == 0);
    const char *b2[] = {"f", "--group", "1", "--rope", "2", NULL};
    CHECK(resolve(&s, b2, got, &n, &err) == SK_ERR_INVALID);
    CHECK(strcmp(err.message, "--rope 2: group 1 has 2 ropes") == 0);
    const char *b3[] = {"f", "--group", "2", NULL};
    CHECK(resolve(&s, b3, got, &n, &err) == SK_ERR_INVALID);
    CHECK(strcmp(err.message, "--group 2: the scenario has 2 groups") == 0);
    sk_scenario_free(&s);
    return 0;
}

static int hdf5_files(void)
{
    CHECK(sk_view_is_hdf5("run.h5"));
    CHECK(sk_view_is_hdf5("dir/run.hdf5"));
    CHECK(!sk_view_is_hdf5("scenario.json"));
    CHECK(!sk_view_is_hdf5("h5"));
    /* By content: HDF5's eight-byte signature. */
    char path[] = "/tmp/skein-view-test-XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    CHECK(write(fd, "\x89HDF\r\n\x1a\n\0\0", 10) == 10);
    close(fd);
    CHECK(sk_view_is_hdf5(path));
    FILE *f = fopen(path, "wb");
    CHECK(f);
    fputs("{\"skein\": 1}", f);
    fclose(f);
    CHECK(!sk_view_is_hdf5(path));
    remove(path);
    return 0;
}

CHECK_MAIN({"all_options", all_options}, {"errors", errors}, {"ropes", ropes}, {"hdf5_files", hdf5_files})
