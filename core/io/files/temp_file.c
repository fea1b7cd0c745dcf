/* Outputs under a temporary name, renamed when complete (temp_file.h). */
#include "io/files/temp_file.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "skein/output.h"

#define TEMP_SUFFIX ".tmp.XXXXXX"

static void free_names(sk_temp_file *t)
{
    free(t->path);
    free(t->temp);
    t->path = t->temp = NULL;
}

sk_status sk_temp_file_fail(const sk_temp_file *t, sk_error *err, const char *what, int errnum)
{
    return sk_fail(err, SK_ERR_IO, "%s: %s: %s", t->path, what, strerror(errnum));
}

sk_status sk_temp_file_open(sk_temp_file *t, const char *path, sk_error *err)
{
    const size_t len = strlen(path);
    *t = (sk_temp_file){.path = strdup(path), .temp = malloc(len + sizeof TEMP_SUFFIX)};
    if (!t->path || !t->temp) {
        free_names(t);
        return sk_fail(err, SK_ERR_NO_MEMORY, "%s: out of memory", path);
    }
    memcpy(t->temp, path, len);
    memcpy(t->temp + len, TEMP_SUFFIX, sizeof TEMP_SUFFIX);
    const int fd = mkstemp(t->temp);
    if (fd < 0) {
        const sk_status st = sk_temp_file_fail(t, err, "cannot create", errno);
        free_names(t);
        return st;
    }
    /* mkstemp makes the file 0600; give the result the permissions a plain fopen would. */
    const mode_t mask = umask(0);
    umask(mask);
    if (fchmod(fd, 0666 & ~mask) != 0 || !(t->f = fdopen(fd, "w"))) {
        const sk_status st = sk_temp_file_fail(t, err, "cannot create", errno);
        close(fd);
        unlink(t->temp);
        free_names(t);
        return st;
    }
    return SK_OK;
}

sk_status sk_temp_file_commit(sk_temp_file *t, bool incomplete, sk_error *err)
{
    const size_t len = strlen(t->path);
    char *target = malloc(len + sizeof SK_INCOMPLETE_SUFFIX);
    if (target) {
        memcpy(target, t->path, len);
        memcpy(target + len, incomplete ? SK_INCOMPLETE_SUFFIX : "", incomplete ? sizeof SK_INCOMPLETE_SUFFIX : 1);
    }
    /* Each step can fail on a full disk or a lost device; the first failure wins. */
    sk_status rc = SK_OK;
    if (fflush(t->f) != 0)
        rc = sk_temp_file_fail(t, err, "write failed", errno);
    else if (fsync(fileno(t->f)) != 0)
        rc = sk_temp_file_fail(t, err, "fsync failed", errno);
    const int closed = fclose(t->f);
    t->f = NULL;
    if (rc == SK_OK && closed != 0)
        rc = sk_temp_file_fail(t, err, "write failed", errno);
    if (rc == SK_OK && !target)
        rc = sk_fail(err, SK_ERR_NO_MEMORY, "%s: out of memory", t->path);
    if (rc == SK_OK && rename(t->temp, target) != 0)
        rc = sk_fail(err, SK_ERR_IO, "%s: cannot rename the output onto it: %s", target, strerror(errno));
    if (rc != SK_OK)
        unlink(t->temp);
    free(target);
    free_names(t);
    return rc;
}

void sk_temp_file_abort(sk_temp_file *t)
{
    if (t->f)
        fclose(t->f);
    t->f = NULL;
    if (t->temp)
        unlink(t->temp);
    free_names(t);
}
