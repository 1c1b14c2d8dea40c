/* tap.h — the one TAP (Test Anything Protocol) writer of the C tests; the
 * automake tap-driver counts every `ok`/`not ok` line (tests/tap.sh is the
 * shell's twin).
 *
 *   tap_ok(cond, fmt, ...)          one check: "ok N - what" / "not ok N - what"
 *   tap_skip_one(why, fmt, ...)     one check that cannot run here:
 *                                   "ok N - what # SKIP why" (counted as SKIP)
 *   tap_todo_one(cond, why, fmt, ...) a known failure: "not ok N - what # TODO why"
 *                                   (XFAIL; an ok is XPASS and fails the run)
 *   tap_diag(fmt, ...)              "# ..." lines (not counted)
 *   tap_bail(fmt, ...)              "Bail out! ..." and exit 1: the test cannot
 *                                   go on (a missing reference file, a set-up
 *                                   that failed)
 *   tap_skip(why)                   the whole program skips: "1..0 # SKIP why"
 *   tap_rmdir(dir)                  remove a test's temporary folder (rm -rf),
 *                                   a "# could not remove" line if it fails
 *   tap_done()                      the plan "1..N" (TAP allows it last);
 *                                   returns 1 if any check failed, else 0
 *
 * A description never contains '#' or a newline (both would change what the
 * driver reads): they become spaces. */
#ifndef NN_TAP_H
#define NN_TAP_H
#include <stdio.h>
#include <stdlib.h>
#include <stdarg.h>
#include <string.h>

#define TAP_UNUSED __attribute__((unused))
#define TAP_FMT(a, b) __attribute__((format(printf, a, b)))

static int tap_n TAP_UNUSED, tap_fail TAP_UNUSED;

static void tap_line(const char *status, const char *directive, const char *fmt, va_list ap)
{
    char desc[2048];
    vsnprintf(desc, sizeof desc, fmt, ap);
    for (char *p = desc; *p; p++) if (*p == '\n' || *p == '\r' || *p == '#') *p = ' ';
    printf("%s %d - %s%s\n", status, ++tap_n, desc, directive ? directive : "");
    fflush(stdout);
}

static void tap_ok(int cond, const char *fmt, ...) TAP_FMT(2, 3) TAP_UNUSED;
static void tap_ok(int cond, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    tap_line(cond ? "ok" : "not ok", NULL, fmt, ap);
    va_end(ap);
    if (!cond) tap_fail++;
}

static void tap_skip_one(const char *why, const char *fmt, ...) TAP_FMT(2, 3) TAP_UNUSED;
static void tap_skip_one(const char *why, const char *fmt, ...)
{
    char dir[512];
    snprintf(dir, sizeof dir, " # SKIP %s", why);
    for (char *p = dir + 8; *p; p++) if (*p == '\n' || *p == '\r' || *p == '#') *p = ' ';
    va_list ap;
    va_start(ap, fmt);
    tap_line("ok", dir, fmt, ap);
    va_end(ap);
}

/* A known failure, said as one: "not ok N - what # TODO why" when cond
 * fails (the driver counts it XFAIL), "ok N - what # TODO why" once fixed
 * (XPASS, which fails the run: take the TODO out then). */
static void tap_todo_one(int cond, const char *why, const char *fmt, ...) TAP_FMT(3, 4) TAP_UNUSED;
static void tap_todo_one(int cond, const char *why, const char *fmt, ...)
{
    char dir[512];
    snprintf(dir, sizeof dir, " # TODO %s", why);
    for (char *p = dir + 8; *p; p++) if (*p == '\n' || *p == '\r' || *p == '#') *p = ' ';
    va_list ap;
    va_start(ap, fmt);
    tap_line(cond ? "ok" : "not ok", dir, fmt, ap);
    va_end(ap);
}

static void tap_diag(const char *fmt, ...) TAP_FMT(1, 2) TAP_UNUSED;
static void tap_diag(const char *fmt, ...)
{
    char buf[4096];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    for (char *p = buf; p && *p;) {
        char *nl = strchr(p, '\n');
        printf("# %.*s\n", nl ? (int)(nl - p) : (int)strlen(p), p);
        p = nl ? nl + 1 : NULL;
    }
    fflush(stdout);
}

static void tap_bail(const char *fmt, ...) TAP_FMT(1, 2) TAP_UNUSED;
static void tap_bail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    printf("Bail out! ");
    vprintf(fmt, ap);
    printf("\n");
    va_end(ap);
    fflush(stdout);
    exit(1);
}

static void tap_skip(const char *why) TAP_UNUSED;
static void tap_skip(const char *why) { printf("1..0 # SKIP %s\n", why); }

static void tap_rmdir(const char *dir) TAP_UNUSED;
static void tap_rmdir(const char *dir)
{
    char cmd[4200];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0) printf("# could not remove %s\n", dir);
}

static int tap_done(void) TAP_UNUSED;
static int tap_done(void)
{
    printf("1..%d\n", tap_n);
    if (tap_fail) printf("# %d of %d checks failed\n", tap_fail, tap_n);
    fflush(stdout);
    return tap_fail ? 1 : 0;
}
#endif
