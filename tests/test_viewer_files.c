/* The files skein-view writes, where someone else may have planted a symbolic link: the screenshot is
 * written to a fresh temporary (mkstemp, O_EXCL) and renamed over its name, so a link at the name or at a
 * guessable temporary is replaced or left alone, never written through; a link among the numbered names
 * is a name taken. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "screenshot.h"

#define DIR_TEMPLATE "/tmp/skein-view-files-XXXXXX"
static char dir[sizeof DIR_TEMPLATE];

static long size_of(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 ? (long)st.st_size : -1;
}

static int write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    CHECK(f && fputs(text, f) >= 0 && fclose(f) == 0);
    return 0;
}

static int screenshot_symlink(void)
{
    char cwd[4096];
    strcpy(dir, DIR_TEMPLATE);
    CHECK(mkdtemp(dir) && getcwd(cwd, sizeof cwd) && chdir(dir) == 0);
    CHECK_OK(write_text("victim", "precious\n"));
    CHECK_OK(write_text("other", "precious too\n"));
    CHECK(symlink("victim", "shot.png") == 0);
    /* the temporaries of the old naming (NAME.tmp.PID), guessable, linked to another file */
    char guess[64];
    snprintf(guess, sizeof guess, "shot.png.tmp.%ld", (long)getpid());
    CHECK(symlink("other", guess) == 0);
    const unsigned char rgb[3 * 4] = {255, 0, 0, 0, 255, 0, 0, 0, 255, 9, 9, 9};
    sk_error err = {0};
    CHECK_OK(sk_screenshot_write("shot.png", 2, 2, rgb, &err));
    struct stat st;
    CHECK(lstat("shot.png", &st) == 0 && S_ISREG(st.st_mode)); /* the link replaced */
    FILE *f = fopen("shot.png", "rb");
    unsigned char sig[8];
    CHECK(f && fread(sig, 1, 8, f) == 8 && fclose(f) == 0 && memcmp(sig, "\x89PNG\r\n\x1a\n", 8) == 0);
    CHECK(size_of("victim") == 9 && size_of("other") == 13); /* neither written through */
    CHECK(lstat(guess, &st) == 0 && S_ISLNK(st.st_mode));
    unlink(guess);
    unlink("shot.png");
    unlink("victim");
    unlink("other");
    CHECK(chdir(cwd) == 0 && rmdir(dir) == 0);
    return 0;
}

static int next_name_link(void)
{
    char cwd[4096], name[64];
    strcpy(dir, DIR_TEMPLATE);
    CHECK(mkdtemp(dir) && getcwd(cwd, sizeof cwd) && chdir(dir) == 0);
    CHECK(symlink("nowhere", "skein-view-0001.png") == 0); /* a link to nothing is still a name taken */
    sk_error err = {0};
    CHECK_OK(sk_screenshot_next_name(name, sizeof name, &err));
    CHECK(strcmp(name, "skein-view-0002.png") == 0);
    unlink("skein-view-0001.png");
    CHECK(chdir(cwd) == 0 && rmdir(dir) == 0);
    return 0;
}

CHECK_MAIN({"screenshot_symlink", screenshot_symlink}, {"next_name_link", next_name_link})
