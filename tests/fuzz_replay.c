/* The fuzz target's corpus replayed without libFuzzer, as ctest tests of every build. */
/* Directories: the seeds (scenarios/, tests/bad/, tests/fuzz_seeds/) and every input that once crashed or
 * misbehaved (tests/fuzz_regressions/). */
#include <dirent.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int cmp_name(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static bool wanted(const char *name, bool json_only)
{
    size_t n = strlen(name);
    if (name[0] == '.')
        return false;
    return !json_only || (n > 5 && strcmp(name + n - 5, ".json") == 0);
}

static int replay_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        perror(path);
        return 1;
    }
    size_t cap = 4096, size = 0;
    uint8_t *data = malloc(cap);
    size_t got;
    while (data && (got = fread(data + size, 1, cap - size, f)) > 0) {
        size += got;
        if (size == cap) {
            uint8_t *bigger = realloc(data, cap *= 2);
            if (!bigger)
                free(data);
            data = bigger;
        }
    }
    int bad = ferror(f) || !data;
    fclose(f);
    if (bad) {
        fprintf(stderr, "%s: cannot read\n", path);
        free(data);
        return 1;
    }
    printf("%s (%zu bytes)\n", path, size);
    fflush(stdout);
    LLVMFuzzerTestOneInput(data, size);
    free(data);
    return 0;
}

/* Every wanted file of dir, in name order; fails when there is none (a moved corpus must not pass unseen). */
static int replay_dir(const char *dir, bool json_only)
{
    DIR *d = opendir(dir);
    if (!d) {
        perror(dir);
        return 1;
    }
    char **names = NULL;
    size_t n = 0, cap = 0;
    struct dirent *e;
    int failed = 0;
    while ((e = readdir(d)) != NULL) {
        if (!wanted(e->d_name, json_only))
            continue;
        if (n == cap) {
            char **bigger = realloc(names, (cap = cap ? 2 * cap : 64) * sizeof *names);
            if (!bigger) {
                failed = 1;
                break;
            }
            names = bigger;
        }
        if (!(names[n] = strdup(e->d_name))) {
            failed = 1;
            break;
        }
        n++;
    }
    closedir(d);
    if (!failed)
        qsort(names, n, sizeof *names, cmp_name);
    for (size_t i = 0; i < n; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        if (!failed)
            failed |= replay_file(path);
        free(names[i]);
    }
    free(names);
    if (!failed && n == 0) {
        fprintf(stderr, "%s: no inputs\n", dir);
        return 1;
    }
    printf("%zu inputs replayed from %s\n", n, dir);
    return failed;
}

int main(int argc, char **argv)
{
    LLVMFuzzerInitialize(&argc, &argv);
    const char *which = argc > 1 ? argv[1] : "";
    if (strcmp(which, "scenarios") == 0)
        return replay_dir(SKEIN_SOURCE_DIR "/scenarios", true);
    if (strcmp(which, "bad") == 0)
        return replay_dir(SKEIN_SOURCE_DIR "/tests/bad", true);
    if (strcmp(which, "seeds") == 0)
        return replay_dir(SKEIN_SOURCE_DIR "/tests/fuzz_seeds", false);
    if (strcmp(which, "regressions") == 0)
        return replay_dir(SKEIN_SOURCE_DIR "/tests/fuzz_regressions", false);
    /* Any other arguments: files to replay (a crash file from a fuzz run, say). */
    int failed = argc < 2;
    for (int i = 1; i < argc; i++)
        failed |= replay_file(argv[i]);
    if (failed)
        fprintf(stderr, "usage: test_fuzz_replay scenarios|bad|seeds|regressions|FILE...\n");
    return failed;
}
