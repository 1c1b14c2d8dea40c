/* i18n.h — the messages nnpad prints, in the user's language (GNU gettext).
 *
 * English is the source: a message is written in English in the code and
 * po/ko.po holds its Korean.  Mark a message where it is shown:
 *     printf(_("%d steps\n"), n);          translated where it runs
 *     static const char *k = N_("loss");   marked only: _(k) where shown
 *     NG_("%d step", "%d steps", n)        a count (ngettext)
 * err_raise translates its own format (po/Makevars lists it as a keyword),
 * so `err_raise(ERR_SHAPE, sp, "...", ...)` needs no _().  Mark text for
 * people only: never a name, a keyword, code, or text that is written to a
 * file and read back (journals, progress files, CSV).
 *
 * tests/po-complete.sh extracts every marked message and fails when one has
 * no Korean entry in po/ko.po (or a fuzzy one, or a format that does not
 * match); tests/ko-coverage.sh runs inputs under --lang ko and fails on an
 * English error message.
 *
 * The language: i18n_set_lang("en" | "ko") (main from --lang or the
 * locale, and :lang).  It does not depend on the environment's locales: the
 * catalogue is bound by path (the build tree's locale/ first, then the
 * installed one), its text is always UTF-8, and LC_MESSAGES is C.UTF-8
 * where the environment gives C (gettext ignores LANGUAGE in the C locale).
 * Without libintl (the web build) util/mo.c reads the same catalogue from
 * NN_LOCALEDIR (/locale there): a damaged one leaves the messages English. */
#ifndef NN_I18N_H
#define NN_I18N_H

/* Korean (or the language set) for msgid; msgid itself when there is none,
 * when msgid is "" (gettext would give the catalogue's header) or NULL. */
const char *nn_tr(const char *msgid);
const char *nn_trn(const char *msgid, const char *plural, unsigned long n);

#define _(s) nn_tr(s)
#define N_(s) s
#define NG_(s, p, n) nn_trn(s, p, n)

/* LC_CTYPE from the environment (once; C.UTF-8 where that is C); called
 * before anything that depends on it: wcwidth, readline, a window, a
 * child process.  i18n_ctype_start: at start-up, sets it now unless it
 * can wait (i18n.c). */
void i18n_ctype(void);
void i18n_ctype_start(void);
/* Bind the catalogue and set LC_MESSAGES (once; LC_CTYPE first). */
void i18n_init(void);
/* Switch the messages' language: "en" or "ko" (anything else is English). */
void i18n_set_lang(const char *code);
/* The language the messages are in now: "en" or "ko". */
const char *i18n_lang(void);

#endif
