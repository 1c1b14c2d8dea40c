/* tap.h — a few lines of TAP (Test Anything Protocol) for the C tests:
 * the automake tap-driver counts every `ok`/`not ok` line. */
#ifndef NN_TAP_H
#define NN_TAP_H
#include <stdio.h>
#include <stdarg.h>
static int tap_n, tap_fail;
static void tap_ok(int cond, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void tap_ok(int cond, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    printf("%s %d - ", cond ? "ok" : "not ok", ++tap_n);
    vprintf(fmt, ap);
    printf("\n");
    va_end(ap);
    if (!cond) tap_fail++;
    fflush(stdout);
}
static void tap_skip(const char *why) __attribute__((unused));
static void tap_skip(const char *why) { printf("1..0 # SKIP %s\n", why); }
static void tap_done(void) __attribute__((unused));
static void tap_done(void) { printf("1..%d\n", tap_n); }
#endif
