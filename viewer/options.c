/* Parsing skein-view's command line. */
#include "options.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char sk_view_usage[] =
    "skein-view: shows chosen ropes of a skein scenario in a window, simulated in real time\n"
    "\n"
    "usage: skein-view FILE [--rope I]... [--group G] [options]\n"
    "       skein-view FILE [--rope I]... --screenshot PNG [--frames N] [options]\n"
    "       skein-view OUT.h5 [--rope I]... [--screenshot PNG --frames N] [options]   (replay)\n"
    "\n"
    "Each chosen rope is simulated alone by skein's scalar reference engine. Ropes never interact,\n"
    "so a rope alone moves exactly as it does inside the whole batch (what skein run computes for it).\n"
    "Real time follows docs/model.md section 8: each frame adds its duration, at most 0.01 s, to an\n"
    "accumulator and takes whole steps of the scenario's dt while it holds one.\n"
    "\n"
    "options:\n"
    "  --rope I          show rope I (repeatable). I is a global rope index, or an index within\n"
    "                    group G with --group. Default: the first rope (of the group)\n"
    "  --group G         count --rope indices within group G (0-based)\n"
    "  --screenshot PNG  no window loop and no real time: take --frames steps, draw one picture,\n"
    "                    write it to PNG (through a temporary file) and exit\n"
    "  --frames N        steps before the screenshot (default 0: the initial state);\n"
    "                    in a replay, the frame to draw (0-based)\n"
    "  --size WxH        window and picture size in pixels (default 1024x768)\n"
    "  --strain-scale S  strain at the ends of the colour scale (default: the smallest of\n"
    "                    1, 2, 5 x 10^k holding the largest strain seen, at least 0.01)\n"
    "  --paused          start paused\n"
    "  --set PATH=VALUE  override a scenario value before validation, as skein run --set does\n"
    "  --help            this text\n"
    "\n"
    "picture: links are thin quads coloured by strain |d|/rest - 1: blue compressed, grey at rest,\n"
    "red stretched; the legend bar at the right spans -S (bottom) to +S (top), the title gives S.\n"
    "Particles are discs in the colour of their links' mean strain (larger for the current rope),\n"
    "pinned particles green; the anchor is a larger green disc joined to the particle it holds. The\n"
    "ground is a dark translucent plane; the grid lies on it (or under the ropes), its spacing in the\n"
    "title. The title also shows the current rope, the time, its energy (kinetic + gravity +\n"
    "elastic, J), the steps per second and the speed.\n"
    "\n"
    "keys and mouse:\n";

const char sk_view_usage_tail[] =
    "\n"
    "exit status: 0 done; 2 bad usage, invalid scenario, or no display; 1 anything else.\n"
    "\n"
    "replay: skein-view OUT.h5 --rope I plays back rope I (a global index; --group G counts within G)\n"
    "from the output of skein run --h5 --ropes ..., which must hold it: only the chosen ropes' frames\n"
    "are read. The file's scenario gives the ground, anchors and rest lengths; the frames advance in\n"
    "real time by their stored times. The title shows the frame, step, time, stored energy, \"replay\"\n"
    "and \"incomplete\" when the run did not finish (attribute complete = 0). --set does not apply.\n"
    "replay keys:\n";

static int parse_long(const char *name, const char *text, long min, long max, long *out, sk_error *err)
{
    char *end;
    errno = 0;
    long v = strtol(text, &end, 10);
    if (end == text || *end != '\0' || isspace((unsigned char)text[0]) || text[0] == '+')
        return sk_fail(err, SK_ERR_INVALID, "%s: '%s' is not a whole number", name, text);
    if (errno == ERANGE || v > max)
        return sk_fail(err, SK_ERR_INVALID, "%s: %s is too large", name, text);
    if (v < min)
        return sk_fail(err, SK_ERR_INVALID, "%s: %s must be at least %ld", name, text, min);
    *out = v;
    return 0;
}

static int parse_size(const char *text, int *w, int *h, sk_error *err)
{
    char *x = strchr(text, 'x');
    char *end1, *end2;
    long a = 0, b = 0;
    if (x && x != text && isdigit((unsigned char)text[0]) && isdigit((unsigned char)x[1])) {
        errno = 0;
        a = strtol(text, &end1, 10);
        b = strtol(x + 1, &end2, 10);
        if (errno || end1 != x || *end2 != '\0')
            x = NULL;
    } else {
        x = NULL;
    }
    if (!x)
        return sk_fail(err, SK_ERR_INVALID, "--size: '%s' is not WIDTHxHEIGHT (like 1024x768)", text);
    if (a < 16 || b < 16 || a > 8192 || b > 8192)
        return sk_fail(err, SK_ERR_INVALID, "--size: %s must be between 16x16 and 8192x8192", text);
    *w = (int)a;
    *h = (int)b;
    return 0;
}

typedef enum opt_id { OPT_ROPE, OPT_GROUP, OPT_SCREENSHOT, OPT_FRAMES, OPT_SIZE, OPT_STRAIN, OPT_PAUSED,
                      OPT_SET, OPT_HELP } opt_id;

static const struct {
    const char *name;
    opt_id id;
    bool has_value;
} options[] = {
    {"--rope", OPT_ROPE, true},     {"--group", OPT_GROUP, true},   {"--screenshot", OPT_SCREENSHOT, true},
    {"--frames", OPT_FRAMES, true}, {"--size", OPT_SIZE, true},     {"--strain-scale", OPT_STRAIN, true},
    {"--paused", OPT_PAUSED, false}, {"--set", OPT_SET, true},      {"--help", OPT_HELP, false},
};

static int parse_option(sk_view_options *o, opt_id id, const char *name, const char *value, sk_error *err)
{
    switch (id) {
    case OPT_ROPE: {
        long v;
        int rc = parse_long(name, value, 0, 1L << 40, &v, err);
        if (rc)
            return rc;
        o->ropes[o->n_ropes++] = v;
        return 0;
    }
    case OPT_GROUP:
        o->has_group = true;
        return parse_long(name, value, 0, 1L << 30, &o->group, err);
    case OPT_SCREENSHOT:
        if (!value[0])
            return sk_fail(err, SK_ERR_INVALID, "--screenshot: empty file name");
        o->screenshot = value;
        return 0;
    case OPT_FRAMES:
        o->has_frames = true;
        return parse_long(name, value, 0, 1L << 40, &o->frames, err);
    case OPT_SIZE:
        return parse_size(value, &o->width, &o->height, err);
    case OPT_STRAIN: {
        char *end;
        errno = 0;
        double v = strtod(value, &end);
        if (end == value || *end != '\0' || errno == ERANGE || !isfinite(v) || !(v > 0))
            return sk_fail(err, SK_ERR_INVALID, "--strain-scale: '%s' is not a positive number", value);
        o->strain_scale = v;
        return 0;
    }
    case OPT_PAUSED:
        o->paused = true;
        return 0;
    case OPT_SET:
        if (!strchr(value, '=') || value[0] == '=')
            return sk_fail(err, SK_ERR_INVALID, "--set: '%s' is not PATH=VALUE", value);
        o->sets[o->n_sets++] = value;
        return 0;
    case OPT_HELP:
        o->help = true;
        return 0;
    }
    return 0;
}

int sk_view_options_parse(int argc, char **argv, sk_view_options *o, sk_error *err)
{
    *o = (sk_view_options){.width = 1024, .height = 768};
    /* At most one --rope or --set per argument: arrays of argc entries are enough. */
    o->ropes = calloc((size_t)argc + 1, sizeof *o->ropes);
    o->sets = calloc((size_t)argc + 1, sizeof *o->sets);
    if (!o->ropes || !o->sets) {
        sk_view_options_free(o);
        return sk_fail(err, SK_ERR_NO_MEMORY, "out of memory");
    }
    int rc = 0;
    for (int a = 1; a < argc && rc == 0; a++) {
        const char *arg = argv[a];
        if (strncmp(arg, "--", 2) != 0) {
            if (o->file)
                rc = sk_fail(err, SK_ERR_INVALID, "unexpected argument '%s'", arg);
            else
                o->file = arg;
            continue;
        }
        const char *eq = strchr(arg, '=');
        size_t len = eq ? (size_t)(eq - arg) : strlen(arg);
        int found = -1;
        for (size_t i = 0; i < sizeof options / sizeof options[0]; i++)
            if (strlen(options[i].name) == len && strncmp(options[i].name, arg, len) == 0)
                found = (int)i;
        if (found < 0) {
            rc = sk_fail(err, SK_ERR_INVALID, "unknown option '%.*s' (see skein-view --help)", (int)len, arg);
            break;
        }
        const char *name = options[found].name, *value = NULL;
        if (options[found].has_value) {
            if (eq)
                value = eq + 1;
            else if (a + 1 < argc && strncmp(argv[a + 1], "--", 2) != 0)
                value = argv[++a];
            else
                rc = sk_fail(err, SK_ERR_INVALID, "%s: missing value", name);
        } else if (eq) {
            rc = sk_fail(err, SK_ERR_INVALID, "%s takes no value", name);
        }
        if (rc == 0)
            rc = parse_option(o, options[found].id, name, value, err);
    }
    if (rc == 0 && !o->help) {
        if (!o->file)
            rc = sk_fail(err, SK_ERR_INVALID, "missing the scenario FILE (skein-view FILE --rope I; see --help)");
        else if (o->has_frames && !o->screenshot)
            rc = sk_fail(err, SK_ERR_INVALID, "--frames needs --screenshot");
    }
    if (rc != 0)
        sk_view_options_free(o);
    return rc;
}

void sk_view_options_free(sk_view_options *o)
{
    free(o->ropes);
    free(o->sets);
    o->ropes = NULL;
    o->sets = NULL;
    o->n_ropes = o->n_sets = 0;
}

int sk_view_options_ropes(const sk_view_options *o, const sk_scenario *s, size_t **global, int *n, sk_error *err)
{
    *global = NULL;
    *n = 0;
    const int groups = sk_scenario_groups(s);
    if (o->has_group && o->group >= groups)
        return sk_fail(err, SK_ERR_INVALID, "--group %ld: the scenario has %d group%s", o->group, groups,
                       groups == 1 ? "" : "s");
    sk_group_info g = {.count = sk_scenario_ropes(s)};
    if (o->has_group)
        sk_scenario_group(s, (int)o->group, &g);
    size_t first = g.first_rope, count = g.count;
    size_t *out = malloc(((size_t)o->n_ropes + 1) * sizeof *out);
    if (!out)
        return sk_fail(err, SK_ERR_NO_MEMORY, "out of memory");
    int m = 0;
    for (int i = 0; i < o->n_ropes; i++) {
        size_t r = (size_t)o->ropes[i];
        if (r >= count) {
            free(out);
            if (o->has_group)
                return sk_fail(err, SK_ERR_INVALID, "--rope %ld: group %ld has %zu rope%s", o->ropes[i], o->group,
                               count, count == 1 ? "" : "s");
            return sk_fail(err, SK_ERR_INVALID, "--rope %ld: the scenario has %zu rope%s", o->ropes[i], count,
                           count == 1 ? "" : "s");
        }
        bool seen = false;
        for (int j = 0; j < m; j++)
            seen = seen || out[j] == first + r;
        if (!seen)
            out[m++] = first + r;
    }
    if (m == 0)
        out[m++] = first;
    *global = out;
    *n = m;
    return 0;
}

bool sk_view_is_hdf5(const char *path)
{
    size_t len = strlen(path);
    if ((len > 3 && strcmp(path + len - 3, ".h5") == 0) || (len > 5 && strcmp(path + len - 5, ".hdf5") == 0))
        return true;
    /* HDF5's signature at offset 0 (a user block could move it; files made by skein have none). */
    static const unsigned char signature[8] = {0x89, 'H', 'D', 'F', '\r', '\n', 0x1a, '\n'};
    unsigned char head[8];
    FILE *f = fopen(path, "rb");
    if (!f)
        return false;
    size_t got = fread(head, 1, sizeof head, f);
    fclose(f);
    return got == sizeof head && memcmp(head, signature, sizeof head) == 0;
}

int sk_view_exit_status(sk_status status)
{
    switch (status) {
    case SK_OK: return 0;
    case SK_ERR_INVALID:
    case SK_ERR_UNSUPPORTED:
    case SK_ERR_MISMATCH:
    case SK_ERR_CORRUPT: return 2;
    case SK_ERR_INTERRUPTED: return 130;
    case SK_ERR_IO:
    case SK_ERR_NO_MEMORY: break;
    }
    return 1;
}
