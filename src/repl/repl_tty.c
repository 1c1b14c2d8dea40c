/* repl_tty.c — the interactive REPL: GNU Readline's callback interface in
 * a select() loop (built into the module nnpad-tty.so, which
 * repl_ttyload.c opens only when the REPL is interactive: -e, scripts and
 * pipes load no Readline), so that a window's events can be pumped every 16 ms
 * while the user types (TOOLCHAIN.md "readline + SDL"); history kept
 * between runs; Tab completion of commands and names; Ctrl-C cancels the
 * line being typed or interrupts the computation.
 *
 * Readline's callbacks take no context pointer, so the REPL being run is
 * held in one static (there is one terminal). */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1
#endif
#include "lesson/lesson.h"
#include "util/afile.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/select.h>
#include <sys/stat.h>
#include <unistd.h>
#include <pwd.h>
#include <readline/readline.h>
#include <readline/history.h>

#include "repl/repl_int.h"
#include "util/i18n.h"
#include "repl/histfile.h"
#include "util/error.h"
#include "lang/parse.h"

#define PROMPT      ">>> "
#define PROMPT_MORE "... "
#define HISTORY_MAX 1000
#define POLL_MS     16      /* one frame at 60 fps */


static struct {
    repl_t *r;
    repl_input_t in;
    int status;                 /* 1 if the terminal failed (not for user errors) */
    char *hist_path;            /* malloc'd; NULL: no history file */
    bool hist_warned;
    bool handler_installed;
} tty;

static volatile sig_atomic_t winch_flag, cont_flag;

static void on_sigwinch(int sig)
{
    (void)sig;
    winch_flag = 1;
}

/* After Ctrl-Z and `fg` the shell hands the terminal back in its own
 * (cooked) mode; readline's own handler would re-prepare it, but we keep
 * readline's handlers off (see repl_interactive). */
static void on_sigcont(int sig)
{
    (void)sig;
    cont_flag = 1;
}

/* ---- history ----------------------------------------------------------- */

/* what: a format with one %s for the path, marked N_() by the caller */
static void hist_warn(const char *what, const char *path, int err)
{
    if (tty.hist_warned)
        return;
    tty.hist_warned = true;
    char buf[4300];
    snprintf(buf, sizeof buf, _(what), path);
    fprintf(stderr, _("nnpad: warning: history not kept (%s: %s)\n"), buf, strerror(err));
}

/* mkdir -p for the directories above path; true if they exist afterwards. */
static bool make_parents(char *path)
{
    for (char *p = path + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = '\0';
        int rc = mkdir(path, 0700);
        int e = errno;
        *p = '/';
        if (rc != 0 && e != EEXIST) {
            errno = e;
            return false;
        }
    }
    return true;
}

/* $XDG_STATE_HOME/nnpad/history, else ~/.local/state/nnpad/history (the XDG
 * Base Directory spec: a relative $XDG_STATE_HOME is ignored).  malloc'd,
 * or NULL when there is no home directory. */
static char *history_path(void)
{
    char dir[4096], *p = NULL;
    if (!afile_state_dir(dir, sizeof dir)) return NULL;
    if (asprintf(&p, "%s/history", dir) < 0) p = NULL;
    return p;
}

static void history_start(void)
{
    /* The file is nnpad's own format (histfile.h): readline's timestamp
     * marks would read a comment "#1 first layer" as a timestamp. */
    history_comment_char = '\0';
    history_write_timestamps = 0;
    stifle_history(HISTORY_MAX);

    tty.hist_path = history_path();
    if (!tty.hist_path) {
        hist_warn(N_("no home directory for %s"), "~/.local/state/nnpad/history", ENOENT);
        return;
    }
    if (!make_parents(tty.hist_path)) {
        hist_warn(N_("cannot create the directory of %s"), tty.hist_path, errno);
        free(tty.hist_path);
        tty.hist_path = NULL;
        return;
    }
    char **v;
    size_t n;
    int rc = repl_hist_read(tty.hist_path, &v, &n);
    if (rc == EILSEQ) {
        /* readline's format, as nnpad wrote it before: read it the old way
         * once and keep it in the new format */
        history_comment_char = '#';
        history_multiline_entries = 1;
        unstifle_history();
        rc = read_history(tty.hist_path);
        history_comment_char = '\0';
        history_multiline_entries = 0;
        if (rc == 0) {
            HIST_ENTRY **h = history_list();
            int k = h ? history_length : 0;
            n = (size_t)k;
            v = calloc(n ? n : 1, sizeof *v);
            for (int i = 0; v && i < k; i++) v[i] = strdup(h[i]->line);
            char err[600];
            if (v && repl_hist_write(tty.hist_path, v, n, err, sizeof err) != 0 && !tty.hist_warned) {
                tty.hist_warned = true;
                fprintf(stderr, _("nnpad: warning: history not kept (%s)\n"), err);
            }
            repl_hist_free(v, v ? n : 0);
            clear_history();
            v = NULL;
            n = 0;
            rc = repl_hist_read(tty.hist_path, &v, &n);
        }
        stifle_history(HISTORY_MAX);
    }
    if (rc != 0 && rc != ENOENT) {
        hist_warn(N_("cannot read %s"), tty.hist_path, rc);
        return;
    }
    for (size_t i = n > HISTORY_MAX ? n - HISTORY_MAX : 0; i < n; i++)
        add_history(v[i]);
    repl_hist_free(v, n);
}

/* Add one entry and append it to the file at once, so a killed terminal
 * loses nothing and several sessions interleave instead of overwriting. */
static void history_add(const char *text)
{
    HIST_ENTRY *last = history_length > 0 ? history_get(history_base + history_length - 1) : NULL;
    if (last && strcmp(last->line, text) == 0)
        return;    /* like HISTCONTROL=ignoredups */
    add_history(text);
    if (!tty.hist_path)
        return;
    int rc = repl_hist_append(tty.hist_path, text);
    if (rc != 0)
        hist_warn(N_("cannot write %s"), tty.hist_path, rc);
}

static void history_finish(void)
{
    if (tty.hist_path) {
        /* Keep the file at HISTORY_MAX entries: read it back (other
         * sessions' entries included) and rewrite the newest HISTORY_MAX
         * (util/afile.h: a full disk leaves the old file). */
        char **v;
        size_t n;
        if (repl_hist_read(tty.hist_path, &v, &n) == 0) {
            char err[600];
            if (n > HISTORY_MAX && repl_hist_write(tty.hist_path, v + (n - HISTORY_MAX), HISTORY_MAX, err, sizeof err) != 0)
                fprintf(stderr, _("nnpad: warning: history not trimmed (%s)\n"), err);
            repl_hist_free(v, n);
        }
        clear_history();
        free(tty.hist_path);
        tty.hist_path = NULL;
    }
}

/* ---- completion -------------------------------------------------------- */

/* Candidates for the current completion; malloc'd strings because readline
 * frees what the generator returns. */
static struct {
    char **v;
    size_t n, cap, next;
} cand;

static void cand_clear(void)
{
    for (size_t i = 0; i < cand.n; i++)
        free(cand.v[i]);
    cand.n = cand.next = 0;
}

static void cand_add(const char *s, void *ctx)
{
    (void)ctx;
    if (cand.n == cand.cap) {
        size_t cap = cand.cap ? 2 * cand.cap : 64;
        char **v = realloc(cand.v, cap * sizeof *v);
        if (!v)
            return;
        cand.v = v;
        cand.cap = cap;
    }
    char *d = strdup(s);
    if (d)
        cand.v[cand.n++] = d;
}

static char *cand_gen(const char *text, int state)
{
    (void)text;
    (void)state;
    if (cand.next < cand.n) {
        char *s = cand.v[cand.next];
        cand.v[cand.next++] = NULL;   /* readline owns it now */
        return s;
    }
    return NULL;
}

/* The candidates are complete.c's (the web page's console asks it too) */
static char **complete(const char *text, int start, int end)
{
    (void)end;
    rl_attempted_completion_over = 1;   /* never fall back to file names */
    rl_completion_append_character = ' ';
    cand_clear();
    switch (repl_complete(tty.r, rl_line_buffer, start, text, cand_add, NULL)) {
    case REPL_COMPLETE_FILE:
        rl_attempted_completion_over = 0;
        return rl_completion_matches(text, rl_filename_completion_function);
    case REPL_COMPLETE_NAME:
        rl_completion_append_character = '\0';
        break;
    case REPL_COMPLETE_WORD:
        rl_completion_append_character = ' ';
        break;
    default:
        return NULL;
    }
    if (cand.n == 0)
        return NULL;
    return rl_completion_matches(text, cand_gen);
}

static char *word_breaks(void)
{
    return (char *)repl_complete_breaks(rl_line_buffer);
}

/* ---- the loop ---------------------------------------------------------- */

static bool paste_on(void)
{
    const char *v = rl_variable_value("enable-bracketed-paste");
    return v && strcmp(v, "on") == 0;
}

/* The prompt names the precision, device and mode, since they change
 * what every number means: "fp16·cpu·eager >>> ", after the lesson and
 * step while one runs ("[03-collapse · 4/14] ").  The continuation prompt
 * is "... " under the ">>> ". */
static void set_prompt(void)
{
    static char p[256];
    char set[96], les[96], lesb[104] = "";
    if (lesson_status(repl_lesson(tty.r), les, sizeof les)[0]) snprintf(lesb, sizeof lesb, "[%s] ", les);
    repl_settings_line(tty.r, set, sizeof set);
    /* compact form: no spaces around the dots */
    char *w = set;
    for (char *q = set; *q; q++) {
        if (*q == ' ' && (q[1] == '\xc2' || (q > set && q[-1] == '\xb7'))) continue;
        *w++ = *q;
    }
    *w = 0;
    if (tty.in.len) {
        int n = err_text_cols(lesb, -1) + err_text_cols(set, -1) + 1;   /* "... " under ">>> " */
        snprintf(p, sizeof p, "%*s" PROMPT_MORE, n > 0 ? n : 0, "");
    } else {
        snprintf(p, sizeof p, "%s%s " PROMPT, lesb, set);
    }
    rl_set_prompt(p);
}

/* Readline calls this with each line typed (malloc'd; we free it), or NULL
 * for Ctrl-D on an empty line.  The terminal is back in its normal mode
 * here, so output and Ctrl-C during a computation behave as usual. */
static void on_line(char *line)
{
    repl_t *r = tty.r;
    if (!line) {
        /* With bracketed paste on, readline has already ended the line
         * when it reset the terminal at EOF (rltty.c, rl_deprep_terminal);
         * and it keeps doing so while rl_eof_found stays set. */
        if (!paste_on())
            fputc('\n', stdout);
#if RL_VERSION_MAJOR > 8 || (RL_VERSION_MAJOR == 8 && RL_VERSION_MINOR >= 2)
        rl_eof_found = 0;
#endif
        if (tty.in.len) {
            /* Ctrl-D inside a block: drop the block, not the session. */
            repl_input_clear(&tty.in);
            fputs(_("(block discarded; Ctrl-D again to quit)\n"), stdout);
            fflush(stdout);
            set_prompt();
            return;
        }
        r->quit = true;
    } else {
        /* The history entry: a whole block as one entry, kept before the
         * feed runs (and clears) it. */
        char *entry = NULL;
        if (tty.in.len == 0)
            entry = strdup(line);
        else if (asprintf(&entry, "%s\n%s", tty.in.buf, line) < 0)
            entry = NULL;
        int st;   /* not used: errors typed at the prompt do not set the exit status */
        /* A ^C pressed during the computation is counted afresh: the third
         * one kills a computation that never polls. */
        repl_sigint_arm(REPL_KILL_INTERACTIVE);
        int fed = repl_feed_line(r, &tty.in, line, strlen(line), "<stdin>", 1, &st);
        repl_sigint_arm(0);
        if (fed == REPL_FEED_DONE) {
            if (entry && entry[strspn(entry, " \t\r\n")] != '\0')
                history_add(entry);
            err_interrupt_flag = 0;   /* consumed by the computation, or too late */
        }
        free(entry);
        free(line);
    }
    fflush(stdout);
    if (r->quit) {
        /* Removing the handler here stops readline from printing one more
         * prompt after we return (readline's documented callback idiom). */
        rl_callback_handler_remove();
        tty.handler_installed = false;
        return;
    }
    set_prompt();
}

/* Ctrl-C while typing: drop the line and any open block, show ^C, and
 * start a fresh prompt. */
static void cancel_line(void)
{
    err_interrupt_flag = 0;
    repl_sigint_arm(0);
    rl_free_line_state();
    rl_callback_sigcleanup();        /* leaves i-search, digit args, key sequences */
    rl_point = rl_end;
    rl_redisplay();                  /* cursor to the end of what was typed */
    fputs("^C", rl_outstream);
    rl_replace_line("", 0);
    using_history();                 /* <UP> starts again from the newest entry */
    repl_input_clear(&tty.in);
    rl_crlf();
    set_prompt();
    rl_on_new_line();
    rl_redisplay();
}

static int tty_run(repl_t *r)
{
    memset(&tty, 0, sizeof tty);
    tty.r = r;
    r->interactive = true;
    r->out = stdout;
    r->errout = stdout;     /* errors beside the input in the transcript */

    /* Our own signal handling: readline's would also catch SIGINT during
     * the computations our line handler runs. */
    rl_catch_signals = 0;
    rl_catch_sigwinch = 0;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigwinch;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGWINCH, &sa, NULL);
    sa.sa_handler = on_sigcont;
    sigaction(SIGCONT, &sa, NULL);
    repl_sigint_arm(0);

    rl_readline_name = "nnpad";            /* for $if nnpad in ~/.inputrc */
    rl_attempted_completion_function = complete;
    rl_completion_word_break_hook = word_breaks;
    rl_basic_word_break_characters = (char *)repl_complete_breaks("");
    rl_initialize();                        /* reads ~/.inputrc; our settings below win */
    /* Bracketed paste wraps the echo in escape codes: off when the output
     * is compared (not a terminal, or NNPAD_TEST set). */
    if (!isatty(STDOUT_FILENO) || getenv("NNPAD_TEST"))
        rl_variable_bind("enable-bracketed-paste", "off");

    history_start();

    char set[128];
    printf("nnpad %s \u2014 %s        (:help, :lessons, :quit)\n", NNPAD_VERSION,
           repl_settings_line(r, set, sizeof set));
    fflush(stdout);

    rl_callback_handler_install(PROMPT, on_line);
    set_prompt();
    rl_redisplay();
    tty.handler_installed = true;
    while (!r->quit) {
        repl_pump_events();
        if (cont_flag) {
            cont_flag = 0;
            /* Restore the modes saved at preparation, then prepare afresh
             * from what the shell left, and redraw the line. */
            const char *meta = rl_variable_value("input-meta");
            (*rl_deprep_term_function)();
            (*rl_prep_term_function)(meta && strcmp(meta, "on") == 0);
            rl_forced_update_display();
            winch_flag = 1;    /* the window may have changed meanwhile */
        }
        if (winch_flag) {
            winch_flag = 0;
            rl_resize_terminal();
        }
        if (err_interrupt_flag) {
            cancel_line();
            continue;
        }
        fd_set fds;
        FD_ZERO(&fds);
        FD_SET(STDIN_FILENO, &fds);
        struct timeval tv = { 0, POLL_MS * 1000 };
        int n = select(STDIN_FILENO + 1, &fds, NULL, NULL, &tv);
        if (n < 0) {
            if (errno == EINTR)
                continue;          /* Ctrl-C or a resize: handled at the top */
            fprintf(stderr, "nnpad: select: %s\n", strerror(errno));
            tty.status = 1;
            break;
        }
        if (n > 0 && FD_ISSET(STDIN_FILENO, &fds))
            rl_callback_read_char();
    }
    if (tty.handler_installed)
        rl_callback_handler_remove();       /* restores the terminal modes */
    tty.handler_installed = false;
    history_finish();
    repl_input_free(&tty.in);
    cand_clear();
    free(cand.v);
    cand.v = NULL;
    cand.cap = 0;
    return tty.status;
}

/* The module's one symbol (repl_ttyload.c): the loop, when the program was
 * built with the same repl_t (abi). */
int (*nn_tty_entry(int abi))(repl_t *);
int (*nn_tty_entry(int abi))(repl_t *)
{
    return abi == NN_TTY_ABI ? tty_run : NULL;
}
