/* Many small runs side by side, as a parameter study launches them: N `skein run` processes started at
 * once, each a small scenario (seed 003's rope as 16 ropes: two packs, so two threads take part), timed from
 * the first start to the last exit. OpenMP's waiting threads either sleep (policy passive: what skein asks
 * for) or spin (OMP_WAIT_POLICY=active: what libgomp does unless told otherwise), side by side in one run.
 * Items are runs. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench.h"
#include "bench_config.h"

static const char *const policies[] = {"passive", "active"};

static void run(sk_bench_state *st, void *user)
{
    (void)user;
    const int processes = (int)sk_bench_arg(st, 0);
    const char *policy = policies[sk_bench_arg(st, 1)];
    int64_t runs = 0;
    while (sk_bench_keep_running(st)) {
        pid_t pids[64];
        int started = 0;
        for (int i = 0; i < processes && i < 64; i++) {
            const pid_t pid = fork();
            if (pid == 0) {
                setenv("OMP_WAIT_POLICY", policy, 1);
                const int devnull = open("/dev/null", O_WRONLY);
                if (devnull >= 0)
                    dup2(devnull, STDOUT_FILENO);
                execl(SKEIN_BENCH_CLI, "skein", "run", SKEIN_BENCH_SCENARIOS "/seed003_rope_euler.json", "--quiet",
                      "--set", "groups[0].count=16", (char *)NULL);
                _exit(127);
            }
            if (pid > 0)
                pids[started++] = pid;
        }
        bool ok = started == processes;
        for (int i = 0; i < started; i++) {
            int status = 0;
            ok = waitpid(pids[i], &status, 0) == pids[i] && WIFEXITED(status) && WEXITSTATUS(status) == 0 && ok;
        }
        if (!ok) {
            sk_bench_skip_with_error(st, "a skein run failed (is " SKEIN_BENCH_CLI " built?)");
            return;
        }
        runs += processes;
    }
    sk_bench_set_items_processed(st, runs);
}

void sk_bm_register_concurrent(void)
{
    static const char *const names[] = {"processes", "spin"}; /* spin 0: passive, 1: active */
    sk_bench *b = sk_bench_register("concurrent/seed003x16", run, NULL);
    sk_bench_arg_names(b, names, 2);
    for (int64_t spin = 0; spin < 2; spin++)
        for (int64_t n = 1; n <= 8; n *= 2)
            sk_bench_args(b, (int64_t[]){n, spin}, 2);
    sk_bench_use_real_time(b);
    sk_bench_time_unit(b, 'm');
}
