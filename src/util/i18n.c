/* i18n.c — gettext bound by path, switched by name (i18n.h).  Without
 * libintl (the web build: none exists for wasm32-wasi), util/mo.c reads
 * the same catalogue, NN_LOCALEDIR/ko/LC_MESSAGES/nnpad.mo (the web page's
 * worker and tests/wasm-run.mjs put it at /locale/...). */
#include "config.h"
#include "util/i18n.h"
#include "util/afile.h"

#include <limits.h>
#include <stdbool.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#ifdef ENABLE_NLS
#include <libintl.h>
#else
#include "util/mo.h"
#endif

static const char *cur = "en";

#ifndef ENABLE_NLS
/* The catalogue, read at the first Korean message (English reads none):
 * NULL when it is missing or malformed, and the messages stay English. */
static const mo_t *catalogue(void)
{
    static mo_t *cat;
    static int tried;
    if (!tried) {
        tried = 1;
        cat = mo_load(NN_LOCALEDIR "/ko/LC_MESSAGES/" PACKAGE ".mo");
    }
    return cat;
}
#endif

const char *nn_tr(const char *msgid)
{
#ifdef ENABLE_NLS
    if (msgid && *msgid && cur[0] != 'e') return dgettext(PACKAGE, msgid);
#else
    if (msgid && *msgid && cur[0] != 'e') {
        const char *t = mo_find(catalogue(), msgid);
        if (t) return t;
    }
#endif
    return msgid;
}

const char *nn_trn(const char *msgid, const char *plural, unsigned long n)
{
#ifdef ENABLE_NLS
    if (cur[0] != 'e') return dngettext(PACKAGE, msgid, plural, n);
#else
    /* msgstr[0]: right for a language of one form (Korean: nplurals=1;
     * plural=0), which is all this reader evaluates of Plural-Forms */
    if (cur[0] != 'e' && mo_nplurals(catalogue()) == 1) {
        const char *t = mo_find(catalogue(), msgid);
        if (t) return t;
    }
#endif
    return n == 1 ? msgid : plural;
}

#ifdef ENABLE_NLS
/* gettext's documented way to drop its cache of looked-up messages. */
extern int _nl_msg_cat_cntr;

static int file_exists(const char *p) { return access(p, R_OK) == 0; }
#endif

/* LC_CTYPE from the environment, so that readline edits UTF-8 by character
 * and wcwidth counts columns.  Where that gives the C locale (LANG unset,
 * C or POSIX, or a locale that is not installed, such as ko_KR.UTF-8 on a
 * fresh Debian), C.UTF-8 instead, as Python does (PEP 538), unless LC_ALL
 * itself names C or POSIX; LC_CTYPE in the environment then names it too,
 * for readline, which reads the variables itself. */
void i18n_ctype(void)
{
    static int done;
    if (done) return;
    done = 1;
    const char *r = setlocale(LC_CTYPE, "");
    const char *all = getenv("LC_ALL");
    bool c = !r || !strcmp(r, "C") || !strcmp(r, "POSIX");
    if (c && all && (!strcmp(all, "C") || !strcmp(all, "POSIX"))) c = false;
    if (c) {
        static const char *const utf8[] = { "C.UTF-8", "C.utf8", "en_US.UTF-8", NULL };
        for (int i = 0; utf8[i]; i++)
            if (setlocale(LC_CTYPE, utf8[i])) {
                setenv("LC_CTYPE", utf8[i], 1);
                break;
            }
    }
}

/* The environment names C.UTF-8 for LC_CTYPE: its byte classes (ctype.h,
 * toupper) are the C locale's, so it waits for its first real use (the
 * columns of an error's caret, readline, a window, a child process);
 * loading it reads locale.alias, a fifth of `nnpad -e 1+1`.  Any other
 * name is set now. */
void i18n_ctype_start(void)
{
    const char *n = getenv("LC_ALL");
    if (!n || !*n) n = getenv("LC_CTYPE");
    if (!n || !*n) n = getenv("LANG");
    if (n && (!strcmp(n, "C.UTF-8") || !strcmp(n, "C.utf8"))) return;
    i18n_ctype();
}

void i18n_init(void)
{
    i18n_ctype();
#ifdef ENABLE_NLS
    static int done;
    if (done) return;
    done = 1;
    /* The build tree's catalogue (make builds locale/ beside the program)
     * before the installed one, as lessons are found (lesson_run.c). */
    char exe[PATH_MAX], dir[PATH_MAX + 64], probe[PATH_MAX + 128];
    const char *bound = NN_LOCALEDIR;
    if (afile_exe_dir(exe, sizeof exe)) {
        {
            static const char *const rel[] = { "/locale", "/../locale", NULL };
            for (int i = 0; rel[i]; i++) {
                snprintf(dir, sizeof dir, "%s%s", exe, rel[i]);
                snprintf(probe, sizeof probe, "%s/ko/LC_MESSAGES/%s.mo", dir, PACKAGE);
                if (file_exists(probe)) { bound = dir; break; }
            }
        }
    }
    bindtextdomain(PACKAGE, bound);
    bind_textdomain_codeset(PACKAGE, "UTF-8");
    /* gettext ignores LANGUAGE when LC_MESSAGES is C: C.UTF-8 then (glibc
     * has it built in), whatever locales are installed. */
    const char *m = setlocale(LC_MESSAGES, "");
    if (!m || !strcmp(m, "C") || !strcmp(m, "POSIX"))
        if (!setlocale(LC_MESSAGES, "C.UTF-8")) setlocale(LC_MESSAGES, "C.utf8");
#endif
}

void i18n_set_lang(const char *code)
{
    cur = (code && !strcmp(code, "ko")) ? "ko" : "en";
#ifdef ENABLE_NLS
    /* English reads no catalogue (nn_tr): bound at the first "ko" */
    if (cur[0] != 'e') i18n_init();
    setenv("LANGUAGE", cur, 1);
    ++_nl_msg_cat_cntr;
#endif
}

const char *i18n_lang(void) { return cur; }
