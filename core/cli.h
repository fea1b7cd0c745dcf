/* The skein command line (private to the executable): options, commands, shared helpers. */
#ifndef SKEIN_CLI_H
#define SKEIN_CLI_H

#include <stdbool.h>
#include <stddef.h>

#include "skein/error.h"
#include "skein/scenario.h"

typedef enum cli_command {
    CLI_DEFAULT, /* no command: the built-in batch */
    CLI_RUN,
    CLI_VALIDATE,
    CLI_INFO,
    CLI_COMPARE,
    CLI_HELP,
    CLI_VERSION
} cli_command;

typedef struct cli_options {
    cli_command command;
    const char *file;

    bool has_steps, has_duration, has_every, has_threads, has_tolerance;
    long steps;
    double duration;
    long every;
    int threads;
    double tolerance;

    const char *isa;    /* NULL: auto */
    const char *engine; /* NULL: the default engine */
    const char *csv;
    const char *h5;
    const char *ropes; /* --ropes text, syntax checked; resolved against the scenario later */
    const char **sets; /* --set PATH=VALUE, in order */
    int n_sets;
    bool quiet;
} cli_options;

/* Parses argv. Returns 0 or SK_EXIT_USAGE with a one-line message. cli_options_free releases it. */
int cli_parse(int argc, char **argv, cli_options *o, sk_error *err);
void cli_options_free(cli_options *o);

/* Parses a --ropes list ("0,3,10-12") into sorted unique indices below total. Returns 0 or
 * SK_EXIT_USAGE. *out is malloc'd. */
int cli_parse_ropes(const char *text, size_t total, size_t **out, size_t *n, sk_error *err);

/* Loads the command's scenario (the file, or the built-in batch) with the --set overrides. */
int cli_load(const cli_options *o, sk_scenario *s, sk_error *err);

/* The steps to run, the frame interval and the ropes to write/compare, after the options. */
typedef struct cli_plan {
    long steps;
    long every;
    size_t *ropes; /* malloc'd */
    size_t n_ropes;
} cli_plan;
int cli_plan_make(const cli_options *o, const sk_scenario *s, cli_plan *plan, sk_error *err);

/* The commands; each returns the exit status and prints its own output, errors through err. */
int cli_run(const cli_options *o, sk_error *err);
int cli_validate(const cli_options *o, sk_error *err);
int cli_info(const cli_options *o, sk_error *err);
int cli_compare(const cli_options *o, sk_error *err);

/* The --help text. */
extern const char cli_usage[];

#endif
