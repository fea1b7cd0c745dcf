/* The skein command line (private to the executable): options, commands, shared helpers. */
#ifndef SKEIN_CLI_H
#define SKEIN_CLI_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stddef.h>

#include "cli/exit_status.h"
#include "scenario/scenario.h"
#include "skein/skein.h"
#include "engine/summary.h"
#include "io/checkpoint/checkpoint.h"

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
    const char *vtk;       /* --vtk DIR */
    const char *vtk_cells; /* --vtk-cells: "links" (NULL: the default) or "ropes" */
    const char *results; /* --results: one row per rope at the end (sk_results_open) */
    const char *ropes; /* --ropes text, syntax checked; resolved against the scenario later */
    const char **sets; /* --set PATH=VALUE, in order */
    int n_sets;
    bool quiet;

    /* checkpoints: --checkpoint FILE --checkpoint-every K, or --resume FILE (which goes on checkpointing
     * into FILE, every K steps unless --checkpoint-every says otherwise) */
    const char *checkpoint;
    const char *resume;
    bool has_checkpoint_every;
    long checkpoint_every;

    /* skein run --resume FILE without a scenario FILE: the checkpoint's scenario (its normalised text and the
     * file it came from) and its ropes stand in for FILE and --ropes (core/cli/recall.c) */
    const char *scenario_text, *scenario_source;
    const size_t *recalled_ropes;
    size_t n_recalled_ropes;
} cli_options;

/* The functions below return a library status (sk_status, 0 for none) with err filled, except the commands,
 * which return the program's exit status (cli/exit_status.h). */

/* Parses argv. Returns 0 or SK_ERR_INVALID with a one-line message. cli_options_free releases it. */
int cli_parse(int argc, char **argv, cli_options *o, sk_error *err);
void cli_options_free(cli_options *o);

/* Parses a --ropes list ("0,3,10-12") into sorted unique indices below total. Returns 0 or
 * SK_ERR_INVALID. *out is malloc'd. */
int cli_parse_ropes(const char *text, size_t total, size_t **out, size_t *n, sk_error *err);

/* Each group's explicit stability limit (sk_group_stable_dt) on stderr: listed (skein validate), or a warning
 * for each group whose dt is above it (core/cli/stability.c). */
void cli_stability_report(const sk_scenario *s, bool list);
/* Every rope's diagnostics now (malloc'd; NULL when out of memory), the start cli_energy_report compares with. */
sk_rope_diagnostics *cli_energy_start(const sk_engine *e, const sk_scenario *s);
/* A warning per group whose ropes (not diverged) hold more energy than their loads can give
 * (sk_engine_rope_energy_excess). */
void cli_energy_report(const sk_engine *e, const sk_scenario *s, const sk_rope_diagnostics *start);
/* Its parts, for a run across processes: how many of group `group`'s ropes of e (not diverged) gained energy
 * (the first of them, an index of e's ropes, and its gain), and the warning for a group of s. */
void cli_energy_excess(const sk_engine *e, int group, const sk_rope_diagnostics *start, size_t *flagged,
                       size_t *first, double *first_gain);
void cli_energy_warn(const sk_scenario *s, int group, size_t flagged, size_t first, double first_gain);

/* skein run --resume FILE alone: what the checkpoint recorded of its run (scenario, plan, outputs, engine)
 * fills in every option the command line leaves out; options given stay, and a checkpoint of another plan is
 * refused as with a scenario FILE. The strings live in *r until cli_recalled_free. */
typedef struct cli_recalled {
    char *scenario, *source, *csv, *h5, *vtk, *results, *engine;
    size_t *ropes;
} cli_recalled;
int cli_recall(cli_options *o, cli_recalled *r, sk_error *err);
void cli_recalled_free(cli_recalled *r);

/* Loads the command's scenario (the file, the built-in batch, or a recalled checkpoint's) with the --set
 * overrides. */
int cli_load(const cli_options *o, sk_scenario *s, sk_error *err);
/* The same for a run split across `processes` processes: the memory check counts an even share. */
int cli_load_shared(const cli_options *o, int processes, sk_scenario *s, sk_error *err);

/* The steps to run, the frame interval and the ropes to write/compare, after the options. */
typedef struct cli_plan {
    long steps;
    long every;
    size_t *ropes; /* malloc'd */
    size_t n_ropes;
} cli_plan;
int cli_plan_make(const cli_options *o, const sk_scenario *s, cli_plan *plan, sk_error *err);

 /* Checks every file the run writes (--csv, --h5, --results, --vtk's directory, --checkpoint or --resume and its
  * journal) before anything is allocated or stepped: not a directory (--vtk: one that holds only an earlier VTK
  * output), not the scenario file (scenario, may be NULL) itself, not the
 * same file as another output, in a directory where a file can be created. SK_ERR_INVALID naming the option
 * and the path. */
int cli_check_outputs(const cli_options *o, const char *scenario, sk_error *err);

/* After loading: no output is the warm start's file (the scenario's initial.from), which the run reads.
 * SK_ERR_INVALID naming the option and both paths. */
int cli_check_warm_start(const cli_options *o, const sk_scenario *s, sk_error *err);

/* The engine `engine` ("batch", "reference"; NULL the default) with --isa and --threads, its ropes put at the
 * warm start's frame: of `whole`'s ropes from `first` when s is one process's slice of whole (NULL: s is the
 * run's scenario); NULL with err filled,
 * naming --isa for an ISA this build did not compile or this CPU cannot run (SK_ERR_UNSUPPORTED). */
sk_engine *cli_engine_create(const cli_options *o, const sk_scenario *s, const sk_scenario *whole, size_t first,
                             const char *engine, sk_error *err);

/* Checkpoints of skein run (core/cli/checkpoint.c): --checkpoint, --checkpoint-every and --resume. */
typedef struct cli_checkpointing {
    const char *path; /* the checkpoint file; NULL when the run takes none */
    bool resumed;     /* started from the checkpoint at path */
    long resumed_at;  /* its step */
    long replayed;    /* frames the outputs got from the journal before the run went on */
    char *journal_path;
    sk_checkpoint *from;
    sk_journal *journal;
    sk_checkpointer *sink;
    sk_checkpoint_info *info;
    /* A run across processes (core/cli/mpi_checkpoint.c): attach adds a sink that journals the frames, and the
     * ranks write the checkpoints together, recording the last one's step in last. */
    bool across_ranks;
    long last;
    /* The outputs' temporaries as the checkpoints record them: absolute, so that a run resumed from another
     * directory still finds and removes them (csv, h5, vtk, results; NULL for none). */
    char *temps[4];
} cli_checkpointing;

/* The name of a checkpoint taken by one run at a time: a write lock (fcntl) on CHECKPOINT.lock, held from
 * before the scenario is loaded to the end, so that a second run on the same --checkpoint or --resume is
 * refused at once rather than at its first checkpoint. The system drops the lock of a killed run, so a
 * --resume after a kill -9 finds it free. */
typedef struct cli_claim {
    char *path; /* CHECKPOINT.lock */
    int fd;     /* -1: nothing claimed */
} cli_claim;
#define CLI_CLAIM_SUFFIX ".lock"
/* Claims o's checkpoint (nothing without --checkpoint or --resume). SK_ERR_INVALID naming the option and the
 * file when another run holds it, SK_ERR_IO when the lock cannot be made. */
int cli_checkpoint_claim(cli_claim *k, const cli_options *o, sk_error *err);
/* Removes the lock file and lets the claim go; nothing for a claim not taken. */
void cli_checkpoint_unclaim(cli_claim *k);

/* Before the outputs are opened: with --resume, checks that the checkpoint belongs to this run (scenario,
 * engine, steps, every, ropes, outputs) and puts its state into e; with --checkpoint, refuses to start over
 * an existing checkpoint. Either way start gets the summary's start totals (the checkpoint's, when
 * resuming). Nothing to do without either option. */
int cli_checkpoint_begin(cli_checkpointing *c, const cli_options *o, const sk_scenario *s, const cli_plan *plan,
                         sk_engine *e, sk_group_totals *start, sk_error *err);

/* The temporaries this run's outputs are being written to (NULL for an output it does not write): what its
 * checkpoints record, and what a resumed run keeps while it removes the interrupted run's. */
typedef struct cli_output_temps {
    const char *csv, *h5, *vtk, *results;
} cli_output_temps;

/* The same for one process of a run split across several: e is its engine over the ropes first .. (NULL for
 * a process without ropes), and only those ropes' states are put into it; start gets the checkpoint's start
 * totals when resuming, and is left alone otherwise. */
int cli_checkpoint_begin_slice(cli_checkpointing *c, const cli_options *o, const sk_scenario *s, const cli_plan *plan,
                               sk_engine *e, size_t first, sk_group_totals *start, sk_error *err);

/* Once the outputs are open (their sinks in sinks[0 .. *n_sinks - 1], room for one more): creates the frame
 * journal, or for a resumed run checks it, removes what interrupted runs left of the outputs and hands the
 * journal's frames to the outputs again; then adds the checkpointing sink. */
int cli_checkpoint_attach(cli_checkpointing *c, const cli_options *o, const sk_scenario *s, const cli_plan *plan,
                          const cli_output_temps *keep, sk_frame_sink *sinks, int *n_sinks,
                          const sk_group_totals *start, sk_error *err);

/* --vtk-cells as the writer's layout. */
sk_vtk_layout cli_vtk_layout(const cli_options *o);

/* After the outputs were closed: a finished run (its ropes diverged or not) removes its checkpoint and journal,
 * any other keeps them for --resume; for those, err's message gets how to go on. */
void cli_checkpoint_end(cli_checkpointing *c, bool finished, sk_error *err);
/* The step of the checkpoint at c->path now, -1 for none. */
long cli_checkpoint_last(const cli_checkpointing *c);
void cli_checkpoint_free(cli_checkpointing *c);

/* ---- what skein run's two drivers share (core/cli/run.c; core/cli/mpi_run.c splits a run across processes) */

/* Set by Ctrl-C or SIGTERM while cli_catch_stop_signals is in force: the run stops between chunks. */
extern volatile sig_atomic_t cli_stop_requested;
void cli_catch_stop_signals(struct sigaction old[2]);
void cli_restore_signals(const struct sigaction old[2]);

/* The progress bar (sk_run_options.progress, its ctx a cli_progress_bar), on stderr when it is a terminal. */
typedef struct cli_progress_bar {
    bool shown;
} cli_progress_bar;
void cli_draw_progress(void *ctx, long step, long steps, uint64_t particle_steps, double elapsed);
void cli_clear_progress(const cli_progress_bar *bar);

/* Up to ten "rope R at step S" of e's diverged ropes, comma separated, then "and N more". */
void cli_list_diverged(const sk_engine *e, size_t total, char *buf, size_t size);

typedef struct cli_run_outputs {
    const char *csv, *h5, *vtk, *results; /* as named on the command line; NULL when not asked for */
    bool incomplete;      /* stopped early: the outputs went to their .incomplete names */
    long resumed_at;      /* the step of the checkpoint the run went on from, -1 if none */
    const char *checkpoint; /* --checkpoint or --resume's file, NULL if none */
    long checkpoint_step;   /* the step of the checkpoint in it now, -1 if none */
    int ranks;              /* processes the run was split across (0 or 1: one) */
    const char *isa;        /* with ranks > 1: the ISA and threads of each process (e is a frame's stand-in) */
    int threads;
} cli_run_outputs;

/* The summary on stdout; e gives the ropes' divergence marks (and the ISA and threads of a run in one process). */
void cli_print_summary(const sk_scenario *s, const sk_engine *e, const cli_plan *plan, const sk_run_stats *st,
                       const sk_group_totals *start, const sk_group_totals *end, const cli_run_outputs *out);

/* A run's open outputs; NULL for one it does not write. */
typedef struct cli_writers {
    sk_csv_writer *csv;
    sk_h5_writer *h5;
    sk_vtk_writer *vtk;
    sk_results_writer *results;
} cli_writers;

/* The temporaries they are being written to (cli_output_temps). */
cli_output_temps cli_writers_temps(const cli_writers *w);

/* The outputs after the run: committed when it finished (rc SK_OK), kept marked incomplete when it was
 * stopped (SK_ERR_INTERRUPTED), removed on any other failure; each closed one NULL in w after. The results
 * table's rows are e's ropes where the run ended; with e NULL (a run across processes, which gathers its rows)
 * the table is left to the caller. Returns rc, or the first failure of a commit. */
int cli_close_outputs(int rc, cli_writers *w, const sk_engine *e, sk_error *err);

/* Removes whatever of the outputs is still open (after a failure). */
void cli_abort_outputs(cli_writers *w);

/* err's message for a run stopped at step `reached` of `steps`: which of the outputs o names are kept, under
 * which names. */
void cli_fail_interrupted(const cli_options *o, long reached, long steps, sk_error *err);

#ifdef SKEIN_MPI
/* Under mpirun (Open MPI sets OMPI_COMM_WORLD_SIZE) starts MPI and returns the number of processes; else 1,
 * and MPI is never started: skein alone behaves as it always has. */
int cli_mpi_start(int *argc, char ***argv);
int cli_mpi_rank(void);
/* Every process's exit status made the same (the worst), and MPI ended; err's message kept by those whose own
 * failure it is (and rank 0's notes). Returns the exit status to exit with. */
int cli_mpi_finish(int status, sk_error *err);
/* skein run across the processes (ranks >= 2): each steps a contiguous block of the ropes, rank 0 writes. */
int cli_run_ranks(const cli_options *o, sk_error *err);

/* Checkpoints of a run across processes (core/cli/mpi_checkpoint.c): ck as one process's, on rank 0 (its
 * journal, the file), and on every rank what it sends to it. */
typedef struct cli_rank_checkpoints {
    cli_checkpointing ck;
    int rank, size;
    const size_t *first; /* [size + 1]: the ranks' ropes */
    const sk_scenario *s;
    const sk_engine *e;  /* this rank's, NULL without ropes */
    unsigned *fields;    /* [groups]: SK_STATE_* each group's ropes keep */
    sk_state_buffer *buf;  /* a chunk of ropes' states */
    size_t chunk;          /* ropes per chunk */
    sk_state_engine *writer; /* rank 0: what its checkpoint writer reads, the chunks as they come */
    size_t received;         /* rank 0: the ropes before this one came in during this checkpoint */
    long every, steps, k;
} cli_rank_checkpoints;

/* Collective: cli_checkpoint_begin_slice on every rank (each resumes only its ropes), and what the checkpoints
 * need. The status is every rank's. */
int cli_ranks_checkpoint_begin(cli_rank_checkpoints *k, const cli_options *o, const sk_scenario *s,
                               const cli_plan *plan, int rank, int size, const size_t *first, sk_engine *e,
                               sk_group_totals *start, sk_error *err);
/* Collective, after every frame at `step` was written (and journalled by rank 0): at the frames
 * sk_checkpoint_due names, the ropes' states sent to rank 0, which syncs the journal and writes the file. */
int cli_ranks_checkpoint_frame(cli_rank_checkpoints *k, long step, sk_error *err);
void cli_ranks_checkpoint_free(cli_rank_checkpoints *k);
#endif

/* The commands; each returns the program's exit status and prints its own output, errors through err. */
int cli_run(const cli_options *o, sk_error *err);
int cli_validate(const cli_options *o, sk_error *err);
int cli_info(const cli_options *o, sk_error *err);
int cli_compare(const cli_options *o, sk_error *err);

/* The --help text. */
extern const char cli_usage[];

#endif
