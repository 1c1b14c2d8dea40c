/* i18n.c — gettext bound by path, switched by name (i18n.h). */
#include "config.h"
#include "util/i18n.h"
#include "util/afile.h"

#include <limits.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#ifdef ENABLE_NLS
#include <libintl.h>
#endif

static const char *cur = "en";

const char *nn_tr(const char *msgid)
{
#ifdef ENABLE_NLS
    if (msgid && *msgid && cur[0] != 'e') return dgettext(PACKAGE, msgid);
#endif
    return msgid;
}

const char *nn_trn(const char *msgid, const char *plural, unsigned long n)
{
#ifdef ENABLE_NLS
    if (cur[0] != 'e') return dngettext(PACKAGE, msgid, plural, n);
#endif
    return n == 1 ? msgid : plural;
}

#ifdef ENABLE_NLS
/* gettext's documented way to drop its cache of looked-up messages. */
extern int _nl_msg_cat_cntr;

static int file_exists(const char *p) { return access(p, R_OK) == 0; }
#endif

void i18n_init(void)
{
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
    i18n_init();
    setenv("LANGUAGE", cur, 1);
    ++_nl_msg_cat_cntr;
#endif
}

const char *i18n_lang(void) { return cur; }
