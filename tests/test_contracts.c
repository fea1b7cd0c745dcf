/* SK_ASSERT at work (builds with SKEIN_ASSERTS: Debug and sanitizers): a rope index past the scenario, handed
 * to the engine, stops the program with one line naming the contract, instead of reading another group's
 * memory. Each case runs in a child process, which must die of SIGABRT. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "scenario/scenario.h"
#include "check.h"
#include "skein/skein.h"
#include "engine/engine_state.h"

static const char scenario[] =
    "{\"skein\": 1, \"dt\": 1e-3, \"steps\": 10, \"groups\": [{\"count\": 3, \"particles\": 4, \"start\": [0, 0, 0],"
    " \"end\": [1, 0, 0], \"link\": {\"type\": \"spring\", \"stiffness\": 10}}]}";

/* Runs call(e, s) in a child; 0 when it died of SIGABRT having said "SK_ASSERT(" on stderr. */
static int aborts(void (*call)(sk_engine *e, const sk_scenario *s), const char *engine)
{
    sk_scenario s;
    sk_error err = {0};
    CHECK(sk_scenario_load_string(scenario, "t.json", NULL, &s, &err) == SK_OK);
    sk_engine *e = sk_engine_create(&s, &(sk_engine_options){.engine = engine, .threads = 1}, &err);
    CHECK(e);
    int fds[2];
    CHECK(pipe(fds) == 0);
    fflush(NULL);
    const pid_t pid = fork();
    CHECK(pid >= 0);
    if (pid == 0) {
        dup2(fds[1], STDERR_FILENO);
        close(fds[0]);
        signal(SIGABRT, SIG_DFL);
        call(e, &s);
        _exit(0); /* not stopped: the test fails */
    }
    close(fds[1]);
    char said[512] = "";
    size_t got = 0;
    ssize_t n;
    while (got + 1 < sizeof said && (n = read(fds[0], said + got, sizeof said - 1 - got)) > 0)
        got += (size_t)n;
    said[got] = '\0';
    close(fds[0]);
    int status = 0;
    CHECK(waitpid(pid, &status, 0) == pid);
    sk_engine_destroy(e);
    sk_scenario_free(&s);
    if (!WIFSIGNALED(status) || WTERMSIG(status) != SIGABRT || !strstr(said, "skein: internal error: ") ||
        !strstr(said, "SK_ASSERT(")) {
        fprintf(stderr, "child status %d, said [%s]\n", status, said);
        return 1;
    }
    return 0;
}

static void read_past_the_end(sk_engine *e, const sk_scenario *s)
{
    sk_real p[12];
    sk_engine_read_rope(e, s->total_ropes, p, NULL);
}

static void particles_past_the_end(sk_engine *e, const sk_scenario *s) { sk_engine_rope_particles(e, s->total_ropes + 7); }

static void group_past_the_end(sk_engine *e, const sk_scenario *s) { sk_engine_state_fields(e, s->n_groups); }

static int rope_index_batch(void) { return aborts(read_past_the_end, "batch") || aborts(particles_past_the_end, "batch"); }

static int rope_index_reference(void)
{
    return aborts(read_past_the_end, "reference") || aborts(particles_past_the_end, "reference");
}

static int group_index(void) { return aborts(group_past_the_end, "batch"); }

CHECK_MAIN({"rope_index_batch", rope_index_batch}, {"rope_index_reference", rope_index_reference},
           {"group_index", group_index})
