/* repl_web.c — what the web page's console asks nnpad between inputs (the
 * web build only: tests/wasm-env.sh compiles it, tests/wasm-build.sh
 * exports these).  web/worker.js calls them from inside fd_read, while
 * nnpad waits for the next line of its stdin: the session is between
 * inputs, nothing of it is half-changed.
 *
 *   nnpad_complete_buf(n)       room for a line of n bytes (and its NUL)
 *   nnpad_complete(line, cur)   Tab at byte cur of line: "START KIND\n" then
 *                               one candidate a line (complete.c's, as the
 *                               terminal's readline gets them); START: where
 *                               the word begins, KIND: n(ame), w(ord: a
 *                               space follows), f(ile), or - (none)
 *   nnpad_continuing()          1 while an input is unfinished (an open {,
 *                               ( or [: the terminal's "... " prompt) */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "repl/repl_int.h"

#define EXPORT(name) __attribute__((export_name(#name), used))

static struct { char *p; size_t len, cap; } res;
static char *linebuf;

static void put(const char *s, size_t n)
{
    if (res.len + n + 1 > res.cap) {
        size_t cap = res.cap ? res.cap : 4096;
        while (cap < res.len + n + 1) cap *= 2;
        char *p = realloc(res.p, cap);
        if (!p) return;   /* the list is cut short, never wrong */
        res.p = p;
        res.cap = cap;
    }
    memcpy(res.p + res.len, s, n);
    res.len += n;
    res.p[res.len] = '\0';
}

static void put_line(const char *s, void *ctx)
{
    (void)ctx;
    if (strchr(s, '\n')) return;
    put(s, strlen(s));
    put("\n", 1);
}

EXPORT(nnpad_complete_buf) char *nnpad_complete_buf(int n)
{
    free(linebuf);
    linebuf = n >= 0 ? calloc((size_t)n + 1, 1) : NULL;
    return linebuf;
}

/* File names in the page's file system: text's folder, the entries that
 * begin with the rest ("/" after a folder's name) */
static void files(const char *text)
{
    const char *slash = strrchr(text, '/');
    size_t dn = slash ? (size_t)(slash - text) + 1 : 0;
    char dir[4096];
    snprintf(dir, sizeof dir, "%.*s", (int)(dn ? dn : 1), dn ? text : ".");
    const char *base = text + dn;
    DIR *d = opendir(dir);
    if (!d) return;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (strncmp(e->d_name, base, strlen(base)) || (e->d_name[0] == '.' && base[0] != '.')) continue;
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
        char path[8192];
        snprintf(path, sizeof path, "%.*s%s", (int)dn, text, e->d_name);
        struct stat sb;
        bool isdir = stat(dn ? path : e->d_name, &sb) == 0 && S_ISDIR(sb.st_mode);
        if (isdir) strncat(path, "/", sizeof path - strlen(path) - 1);
        put_line(path, NULL);
    }
    closedir(d);
}

EXPORT(nnpad_complete) const char *nnpad_complete(const char *line, int cursor)
{
    res.len = 0;
    put("", 0);
    repl_t *r = repl_console(NULL);
    int len = line ? (int)strlen(line) : 0;
    if (!r || cursor < 0 || cursor > len) {
        put("0 -\n", 4);
        return res.p;
    }
    int start = repl_complete_start(line, cursor);
    char *text = strndup(line + start, (size_t)(cursor - start));
    if (!text) return res.p;
    char head[32];
    snprintf(head, sizeof head, "%d ", start);
    put(head, strlen(head));
    size_t kind_at = res.len;
    put("-\n", 2);
    repl_complete_t k = repl_complete(r, line, start, text, put_line, NULL);
    if (k == REPL_COMPLETE_FILE) files(text);
    if (res.p) res.p[kind_at] = k == REPL_COMPLETE_NAME ? 'n' : k == REPL_COMPLETE_WORD ? 'w' : k == REPL_COMPLETE_FILE ? 'f' : '-';
    free(text);
    return res.p;
}

EXPORT(nnpad_continuing) int nnpad_continuing(void)
{
    bool more = false;
    repl_console(&more);
    return more;
}
