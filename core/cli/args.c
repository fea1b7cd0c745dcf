/* Command-line parsing: commands, options and their values, each checked with a one-line error. */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "io/text/text_outputs.h"

enum {
    FOR_DEFAULT = 1 << CLI_DEFAULT,
    FOR_RUN = 1 << CLI_RUN,
    FOR_VALIDATE = 1 << CLI_VALIDATE,
    FOR_COMPARE = 1 << CLI_COMPARE,
    FOR_STEPPING = FOR_DEFAULT | FOR_RUN | FOR_COMPARE
};

typedef enum opt_id {
    OPT_STEPS,
    OPT_DURATION,
    OPT_THREADS,
    OPT_ISA,
    OPT_ENGINE,
    OPT_CSV,
    OPT_H5,
    OPT_VTK,
    OPT_VTK_CELLS,
    OPT_RESULTS,
    OPT_EVERY,
    OPT_ROPES,
    OPT_SET,
    OPT_QUIET,
    OPT_TOLERANCE,
    OPT_CHECKPOINT,
    OPT_CHECKPOINT_EVERY,
    OPT_RESUME
} opt_id;

typedef struct opt_spec {
    const char *name;
    opt_id id;
    bool has_value;
    unsigned commands; /* FOR_* */
} opt_spec;

static const opt_spec options[] = {
    {"--steps", OPT_STEPS, true, FOR_STEPPING},
    {"--duration", OPT_DURATION, true, FOR_STEPPING},
    {"--threads", OPT_THREADS, true, FOR_STEPPING},
    {"--isa", OPT_ISA, true, FOR_STEPPING},
    {"--engine", OPT_ENGINE, true, FOR_STEPPING},
    {"--csv", OPT_CSV, true, FOR_DEFAULT | FOR_RUN},
    {"--h5", OPT_H5, true, FOR_DEFAULT | FOR_RUN},
    {"--vtk", OPT_VTK, true, FOR_DEFAULT | FOR_RUN},
    {"--vtk-cells", OPT_VTK_CELLS, true, FOR_DEFAULT | FOR_RUN},
    {"--results", OPT_RESULTS, true, FOR_DEFAULT | FOR_RUN},
    {"--every", OPT_EVERY, true, FOR_STEPPING},
    {"--ropes", OPT_ROPES, true, FOR_STEPPING},
    {"--set", OPT_SET, true, FOR_STEPPING | FOR_VALIDATE},
    {"--quiet", OPT_QUIET, false, FOR_STEPPING | FOR_VALIDATE},
    {"--tolerance", OPT_TOLERANCE, true, FOR_COMPARE},
    {"--checkpoint", OPT_CHECKPOINT, true, FOR_DEFAULT | FOR_RUN},
    {"--checkpoint-every", OPT_CHECKPOINT_EVERY, true, FOR_DEFAULT | FOR_RUN},
    {"--resume", OPT_RESUME, true, FOR_DEFAULT | FOR_RUN},
};

static const char *const command_names[] = {
    [CLI_DEFAULT] = "skein", [CLI_RUN] = "run",         [CLI_VALIDATE] = "validate",
    [CLI_INFO] = "info",     [CLI_COMPARE] = "compare",
};

static int parse_long(const char *name, const char *text, long min, long *out, sk_error *err)
{
    char *end;
    errno = 0;
    const long v = strtol(text, &end, 10);
    if (end == text || *end != '\0' || isspace((unsigned char)text[0]) || text[0] == '+')
        return sk_fail(err, SK_ERR_INVALID, "%s: '%s' is not a whole number", name, text);
    if (errno == ERANGE)
        return sk_fail(err, SK_ERR_INVALID, "%s: %s is too large", name, text);
    if (v < min)
        return sk_fail(err, SK_ERR_INVALID, "%s: %s must be at least %ld", name, text, min);
    *out = v;
    return 0;
}

static int parse_double(const char *name, const char *text, double *out, sk_error *err)
{
    char *end;
    errno = 0;
    const double v = strtod(text, &end);
    if (end == text || *end != '\0' || isspace((unsigned char)text[0]) || !isfinite(v))
        return sk_fail(err, SK_ERR_INVALID, "%s: '%s' is not a finite number", name, text);
    if (v < 0)
        return sk_fail(err, SK_ERR_INVALID, "%s: %s must not be negative", name, text);
    *out = v;
    return 0;
}

static int parse_word(const char *name, const char *text, const char *const *words, int n,
                      const char *list, const char **out, sk_error *err)
{
    for (int i = 0; i < n; i++)
        if (strcmp(text, words[i]) == 0) {
            *out = words[i];
            return 0;
        }
    return sk_fail(err, SK_ERR_INVALID, "%s: '%s' is not one of %s", name, text, list);
}

/* Reads one number of a --ropes list at *p; advances *p. */
static int rope_number(const char *text, const char **p, size_t *out, sk_error *err)
{
    if (**p < '0' || **p > '9')
        return sk_fail(err, SK_ERR_INVALID,
                       "--ropes: '%s' is not a list of rope indices like 0,3,10-12", text);
    char *end;
    errno = 0;
    const unsigned long long v = strtoull(*p, &end, 10);
    if (errno == ERANGE || v > SIZE_MAX)
        return sk_fail(err, SK_ERR_INVALID, "--ropes: '%s': index too large", text);
    *p = end;
    *out = (size_t)v;
    return 0;
}

static int cmp_size(const void *a, const void *b)
{
    const size_t x = *(const size_t *)a, y = *(const size_t *)b;
    return (x > y) - (x < y);
}

int cli_parse_ropes(const char *text, size_t total, size_t **out, size_t *n, sk_error *err)
{
    size_t *list = NULL, len = 0, cap = 0;
    const char *p = text;
    int rc = 0;
    for (;;) {
        size_t a = 0, b = 0;
        if ((rc = rope_number(text, &p, &a, err)))
            break;
        b = a;
        if (*p == '-') {
            p++;
            if ((rc = rope_number(text, &p, &b, err)))
                break;
            if (b < a) {
                rc = sk_fail(err, SK_ERR_INVALID, "--ropes: '%zu-%zu' goes backwards", a, b);
                break;
            }
        }
        if (*p != ',' && *p != '\0') {
            rc = sk_fail(err, SK_ERR_INVALID,
                         "--ropes: '%s' is not a list of rope indices like 0,3,10-12", text);
            break;
        }
        if (total != SIZE_MAX && b >= total) {
            rc = sk_fail(err, SK_ERR_INVALID, "--ropes: rope %zu does not exist (the scenario has %zu)",
                         b, total);
            break;
        }
        /* Only the check pass (total unknown) may see huge ranges; it stores nothing. */
        for (size_t r = a; total != SIZE_MAX && r <= b; r++) {
            if (len == cap) {
                cap = cap ? 2 * cap : 16;
                size_t *grown = realloc(list, cap * sizeof *list);
                if (!grown) {
                    rc = sk_fail(err, SK_ERR_NO_MEMORY, "--ropes: out of memory");
                    goto done;
                }
                list = grown;
            }
            list[len++] = r;
        }
        if (*p == '\0')
            break;
        p++;
    }
done:
    if (rc) {
        free(list);
        return rc;
    }
    if (len)
        qsort(list, len, sizeof *list, cmp_size);
    size_t u = 0;
    for (size_t i = 0; i < len; i++)
        if (u == 0 || list[i] != list[u - 1])
            list[u++] = list[i];
    if (out)
        *out = list;
    else
        free(list);
    if (n)
        *n = u;
    return 0;
}

static int set_option(cli_options *o, const opt_spec *spec, const char *value, sk_error *err)
{
    static const char *const isas[] = {"auto", "scalar", "avx2", "avx512"};
    static const char *const engines[] = {"batch", "reference"};
    static const char *const vtk_cells[] = {"links", "ropes"};
    long v = 0;
    int rc = 0;
    switch (spec->id) {
    case OPT_STEPS:
        rc = parse_long(spec->name, value, 0, &o->steps, err);
        o->has_steps = true;
        break;
    case OPT_DURATION:
        rc = parse_double(spec->name, value, &o->duration, err);
        o->has_duration = true;
        break;
    case OPT_THREADS:
        rc = parse_long(spec->name, value, 1, &v, err);
        if (rc == 0 && v > 4096)
            rc = sk_fail(err, SK_ERR_INVALID, "--threads: %s is more than 4096", value);
        o->threads = (int)v;
        o->has_threads = true;
        break;
    case OPT_ISA:
        rc = parse_word(spec->name, value, isas, 4, "auto, scalar, avx2, avx512", &o->isa, err);
        break;
    case OPT_ENGINE:
        rc = parse_word(spec->name, value, engines, 2, "batch, reference", &o->engine, err);
        break;
    case OPT_CSV:
    case OPT_H5:
    case OPT_RESULTS:
        if (value[0] == '\0')
            rc = sk_fail(err, SK_ERR_INVALID, "%s: empty file name", spec->name);
        if (spec->id == OPT_CSV)
            o->csv = value;
        else if (spec->id == OPT_H5)
            o->h5 = value;
        else
            o->results = value;
        break;
    case OPT_VTK:
        if (value[0] == '\0')
            rc = sk_fail(err, SK_ERR_INVALID, "%s: empty directory name", spec->name);
        sk_vtk_strip_slashes((char *)value); /* argv's own text: "out/" names out, not a file inside it */
        o->vtk = value;
        break;
    case OPT_VTK_CELLS:
        rc = parse_word(spec->name, value, vtk_cells, 2, "links, ropes", &o->vtk_cells, err);
        break;
    case OPT_EVERY:
        rc = parse_long(spec->name, value, 1, &o->every, err);
        o->has_every = true;
        break;
    case OPT_ROPES:
        rc = cli_parse_ropes(value, SIZE_MAX, NULL, NULL, err);
        o->ropes = value;
        break;
    case OPT_SET: {
        const char *eq = strchr(value, '=');
        if (!eq || eq == value)
            return sk_fail(err, SK_ERR_INVALID, "--set: '%s' is not PATH=VALUE", value);
        const char **grown = realloc(o->sets, (size_t)(o->n_sets + 1) * sizeof *grown);
        if (!grown)
            return sk_fail(err, SK_ERR_NO_MEMORY, "--set: out of memory");
        o->sets = grown;
        o->sets[o->n_sets++] = value;
        break;
    }
    case OPT_QUIET:
        o->quiet = true;
        break;
    case OPT_TOLERANCE:
        rc = parse_double(spec->name, value, &o->tolerance, err);
        o->has_tolerance = true;
        break;
    case OPT_CHECKPOINT:
    case OPT_RESUME:
        if (value[0] == '\0')
            rc = sk_fail(err, SK_ERR_INVALID, "%s: empty file name", spec->name);
        if (spec->id == OPT_CHECKPOINT)
            o->checkpoint = value;
        else
            o->resume = value;
        break;
    case OPT_CHECKPOINT_EVERY:
        rc = parse_long(spec->name, value, 1, &o->checkpoint_every, err);
        o->has_checkpoint_every = true;
        break;
    }
    return rc;
}

static const opt_spec *find_option(const char *arg, size_t len)
{
    for (size_t i = 0; i < sizeof options / sizeof options[0]; i++)
        if (strlen(options[i].name) == len && strncmp(arg, options[i].name, len) == 0)
            return &options[i];
    return NULL;
}

int cli_parse(int argc, char **argv, cli_options *o, sk_error *err)
{
    *o = (cli_options){.command = CLI_DEFAULT};
    /* --help and --version answer whatever else the line holds. */
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            o->command = CLI_HELP;
            return 0;
        }
        if (strcmp(argv[i], "--version") == 0) {
            o->command = CLI_VERSION;
            return 0;
        }
    }

    int i = 1;
    if (argc > 1 && argv[1][0] != '-') {
        static const struct {
            const char *name;
            cli_command command;
        } commands[] = {{"run", CLI_RUN},
                        {"validate", CLI_VALIDATE},
                        {"info", CLI_INFO},
                        {"compare", CLI_COMPARE},
                        {"help", CLI_HELP}};
        bool found = false;
        for (size_t c = 0; c < sizeof commands / sizeof commands[0]; c++)
            if (strcmp(argv[1], commands[c].name) == 0) {
                o->command = commands[c].command;
                found = true;
            }
        if (!found)
            return sk_fail(err, SK_ERR_INVALID,
                           "unknown command '%s' (commands: run, validate, compare, info; see "
                           "skein --help)",
                           argv[1]);
        if (o->command == CLI_HELP)
            return 0;
        i = 2;
    }

    const char *name = command_names[o->command];
    /* every option but --set once: a second --h5 would otherwise quietly drop the first */
    const char *given[OPT_RESUME + 1] = {0};
    bool seen[OPT_RESUME + 1] = {0};
    for (; i < argc; i++) {
        const char *arg = argv[i];
        if (arg[0] != '-' || arg[1] == '\0') {
            if ((o->command == CLI_RUN || o->command == CLI_VALIDATE ||
                 o->command == CLI_COMPARE) &&
                !o->file) {
                o->file = arg;
                continue;
            }
            return sk_fail(err, SK_ERR_INVALID, "%s: unexpected argument '%s'", name, arg);
        }
        const char *eq = strchr(arg, '=');
        const size_t len = eq ? (size_t)(eq - arg) : strlen(arg);
        const opt_spec *spec = find_option(arg, len);
        if (!spec)
            return sk_fail(err, SK_ERR_INVALID, "unknown option '%.*s' (see skein --help)",
                           (int)len, arg);
        if (!(spec->commands & (1u << o->command)))
            return sk_fail(err, SK_ERR_INVALID, "%s is not an option of %s", spec->name,
                           o->command == CLI_DEFAULT ? "skein without a command" : name);
        const char *value = NULL;
        if (spec->has_value) {
            if (eq)
                value = eq + 1;
            else if (i + 1 < argc && strncmp(argv[i + 1], "--", 2) != 0)
                value = argv[++i];
            else
                return sk_fail(err, SK_ERR_INVALID, "%s: missing value", spec->name);
        } else if (eq) {
            return sk_fail(err, SK_ERR_INVALID, "%s takes no value", spec->name);
        }
        if (spec->id != OPT_SET && seen[spec->id]) {
            if (spec->has_value)
                return sk_fail(err, SK_ERR_INVALID, "%s given twice ('%s' and '%s'): give it once", spec->name,
                               given[spec->id], value);
            return sk_fail(err, SK_ERR_INVALID, "%s given twice: give it once", spec->name);
        }
        seen[spec->id] = true;
        given[spec->id] = value;
        const int rc = set_option(o, spec, value, err);
        if (rc)
            return rc;
    }

    /* skein run --resume CK alone runs the scenario the checkpoint recorded */
    const bool recalled = o->command == CLI_RUN && !o->file && o->resume;
    if ((o->command == CLI_RUN || o->command == CLI_VALIDATE || o->command == CLI_COMPARE) && !o->file && !recalled)
        return sk_fail(err, SK_ERR_INVALID, "%s: missing the scenario FILE (skein %s FILE)", name,
                       name);
    if (recalled && o->n_sets > 0)
        return sk_fail(err, SK_ERR_INVALID,
                       "--set needs the scenario FILE: --resume %s alone goes on with the scenario it recorded",
                       o->resume);
    if (o->has_steps && o->has_duration)
        return sk_fail(err, SK_ERR_INVALID, "--steps and --duration: give one or the other");
    if (o->checkpoint && o->resume)
        return sk_fail(err, SK_ERR_INVALID,
                       "--checkpoint and --resume: give one (--resume FILE goes on checkpointing into FILE)");
    if (o->checkpoint && !o->has_checkpoint_every)
        return sk_fail(err, SK_ERR_INVALID, "--checkpoint needs --checkpoint-every K (steps between checkpoints)");
    if (o->vtk_cells && !o->vtk)
        return sk_fail(err, SK_ERR_INVALID, "--vtk-cells needs --vtk DIR");
    if (o->has_checkpoint_every && !o->checkpoint && !o->resume)
        return sk_fail(err, SK_ERR_INVALID, "--checkpoint-every needs --checkpoint FILE (or --resume FILE)");
    return 0;
}

void cli_options_free(cli_options *o)
{
    free(o->sets);
    o->sets = NULL;
    o->n_sets = 0;
}
