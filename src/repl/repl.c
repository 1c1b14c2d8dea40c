/* repl.c — the REPL context, signals, grouping lines into inputs, and the
 * batch ways in (pipe, script file, -e).  The terminal loop is in
 * repl_tty.c, the :commands in commands.c. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1     /* getline, sigaction (config.h defines it in the autotools build) */
#endif
#include <ctype.h>
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "ops/ops.h"

#include "repl/repl_int.h"
#include "view/view.h"
#include "view/figures.h"
#include "util/error.h"
#include "lang/parse.h"
#include "lesson/lesson.h"
#include "util/text.h"
#include "util/i18n.h"
#include "util/plat.h"

/* ---- context ---------------------------------------------------------- */

/* How an input ended, for its journal record: i0 the Ctrl-C count before
 * it ran (error.h's err_interrupts: fit catches its Ctrl-C and returns the
 * weights reached, so a Ctrl-C is told by the count, not the status); at
 * the byte where the failing statement starts (the ones before it ran). */
static journal_end_t input_end(int st, unsigned long i0, long at, long *at_out)
{
    *at_out = 0;
    if (err_interrupts == i0) return st ? JOURNAL_FAILED : JOURNAL_FINISHED;
    /* stopped by one Ctrl-C in the failing statement: the ones before it
     * ran whole and run again; any other way, none does */
    if (st && err_interrupts == i0 + 1 && err_last()->kind == ERR_INTERRUPT) *at_out = at;
    return JOURNAL_INTERRUPTED;
}

/* The lesson runner runs demonstrations and answers as typed input, through
 * the same grouping and cells as everything else (stopping at an error). */
static int lesson_run_cb(void *ctx, const char *text, size_t len, FILE *out)
{
    repl_t *r = ctx;
    /* :save x.nn writes these, not the lesson commands that ran them; and
     * the journal keeps them, as a restore replays the code and leaves the
     * commands out (run at the journaled level: the lesson ran from there) */
    bool journaled = r->journal_depth >= 0 && r->run_depth == r->journal_depth;
    if (journaled) repl_journal_append(&r->journal, text, len, r->errout);
    view_cells_lesson(true);
    unsigned long i0 = err_interrupts;
    int st = repl_run_text(r, "<lesson>", text, len, out, out);   /* errors beside the code, as in a transcript */
    view_cells_lesson(false);
    long at;
    journal_end_t how = input_end(st, i0, 0, &at);
    if (journaled) repl_journal_end(&r->journal, how, at);
    return st;
}

struct lesson_runner *repl_lesson(repl_t *r) { return r->lesson; }

repl_t *repl_new(session_t *s, const repl_options_t *opt)
{
    repl_t *r = calloc(1, sizeof *r);
    if (!r)
        return NULL;
    r->s = s;
    if (opt)
        r->opt = *opt;
    r->out = stdout;
    r->errout = stderr;
    r->journal.fd = -1;
    r->journal_depth = -1;
    err_pump_hook = view_pump_maybe;   /* the window stays live during long computations (error.h) */
    figures_register();                /* bits() and graph() draw (ops.h's figure hooks) */
    r->lesson = lesson_runner_new(s, lesson_run_cb, r);
    if (!r->lesson) {
        free(r);
        return NULL;
    }
    return r;
}

void repl_free(repl_t *r)
{
    if (!r)
        return;
    repl_journal_close(&r->journal);
    lesson_runner_free(r->lesson);
    free(r);
}

bool repl_quit_requested(const repl_t *r) { return r->quit; }

void repl_pump_events(void)
{
    /* The window's event pump (SDL_PollEvent, and a redraw when a figure
     * changed): the window stays live while the user types (DESIGN.md §4,
     * TOOLCHAIN.md "readline + SDL").  Returns at once without a window. */
    view_pump_events();
}

char *repl_settings_line(repl_t *r, char *buf, size_t cap)
{
    const session_settings_t *st = session_settings(r->s);
    const char *prec = (st->precision >= 0 && st->precision < DT_COUNT)
                       ? dtype_traits[st->precision].name : "?";
    /* a rounding mode other than nearest even and :ftz on show, so a value is never read as nearest's */
    snprintf(buf, cap, "%s \u00b7 %s \u00b7 %s%s%s%s%s", prec,
             st->device ? st->device : "cpu", st->mode ? st->mode : "eager", st->tf32 ? " \u00b7 tf32" : "",
             st->rounding ? " \u00b7 rounding " : "", st->rounding ? op_rounding_name(st->rounding) : "",
             st->ftz ? " \u00b7 ftz" : "");
    return buf;
}

/* ---- signals ---------------------------------------------------------- */

/* SIGINTs since the loop last consumed one, and the count at which the
 * handler gives up and lets the default action kill the process (0: never).
 * sig_atomic_t: written in the handler, read in the loop. */
static volatile sig_atomic_t sigint_count;
static volatile sig_atomic_t sigint_kill_at;
/* The handler's last words, in the messages' language: looked up outside
 * the handler (repl_sigint_arm), as gettext is not async-signal-safe. */
static const char *volatile sigint_msg = "\nnnpad: interrupted again; stopping\n";

static void on_sigint(int sig)
{
    /* Only async-signal-safe work here: set flags, write(2), raise(). */
    err_interrupt_flag = 1;
    sigint_count = sigint_count + 1;
    if (sigint_kill_at == REPL_KILL_INTERACTIVE && sigint_count == 1) {
        /* The terminal has echoed "^C" after the computation's output: end
         * that line so the "interrupted" message starts on its own. */
        ssize_t w = write(STDOUT_FILENO, "\n", 1);
        (void)w;
    }
    if (sigint_kill_at > 0 && sigint_count >= sigint_kill_at) {
        const char *msg = sigint_msg;
        size_t len = 0;
        while (msg[len])
            len++;
        ssize_t w = write(STDERR_FILENO, msg, len);
        (void)w;
        signal(sig, SIG_DFL);
        raise(sig);
    }
}

/* Called around each computation: count Ctrl-Cs afresh and choose after how
 * many the process is killed (0: never; the interactive prompt uses 0). */
void repl_sigint_arm(int kill_at)
{
    sigint_msg = _("\nnnpad: interrupted again; stopping\n");
    sigint_count = 0;
    sigint_kill_at = kill_at;
}

void repl_install_signals(repl_t *r)
{
    (void)r;
    plat_sig_catch(SIGINT, on_sigint, NULL);   /* no SA_RESTART: select()/read() return EINTR so the loop sees Ctrl-C at once */
    repl_sigint_arm(REPL_KILL_BATCH);
}

/* ---- command errors --------------------------------------------------- */

/* fmt is translated here (po/Makevars lists repl_cmd_error as a keyword):
 * its callers pass plain English literals.  A command's error prints as
 * an expression's does (err_print_at: the one way of drawing a caret). */
int repl_cmd_error(repl_t *r, const char *fmt, ...)
{
    va_list ap;
    fflush(r->out);    /* keep order when out and errout are different streams */
    char small[1024], *msg = NULL;
    va_start(ap, fmt);
    if (vasprintf(&msg, _(fmt), ap) < 0) msg = NULL;
    va_end(ap);
    if (!msg) {   /* no memory for the whole message: as much as fits */
        va_start(ap, fmt);
        vsnprintf(small, sizeof small, _(fmt), ap);
        va_end(ap);
    }
    if (r->cmd_src.text) {
        err_print_at(r->errout, &r->cmd_src, r->cmd_span, _("error: "), msg ? msg : small);
    } else {
        if (!r->interactive && r->where_name) {
            if (r->where_line > 0)
                fprintf(r->errout, "%s:%d: ", r->where_name, r->where_line);
            else
                fprintf(r->errout, "%s: ", r->where_name);
        }
        fprintf(r->errout, "%s%s\n", _("error: "), msg ? msg : small);
    }
    free(msg);
    fflush(r->errout);
    return 1;
}

/* ---- grouping lines into inputs --------------------------------------- */

static bool is_blank(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!isspace((unsigned char)s[i]))
            return false;
    return true;
}

static bool input_append(repl_input_t *in, const char *line, size_t len)
{
    size_t need = in->len + (in->len ? 1 : 0) + len + 1;
    if (need > in->cap) {
        size_t cap = in->cap ? in->cap : 256;
        while (cap < need)
            cap *= 2;
        char *b = realloc(in->buf, cap);
        if (!b)
            return false;
        in->buf = b;
        in->cap = cap;
    }
    if (in->len)
        in->buf[in->len++] = '\n';
    memcpy(in->buf + in->len, line, len);
    in->len += len;
    in->buf[in->len] = '\0';
    return true;
}

void repl_input_clear(repl_input_t *in)
{
    in->len = 0;
    if (in->buf)
        in->buf[0] = '\0';
    memset(&in->scan, 0, sizeof in->scan);
}

void repl_input_free(repl_input_t *in)
{
    free(in->buf);
    memset(in, 0, sizeof *in);
}

/* A command the journal keeps: all but those that end or restore a
 * session (replaying them would quit, or replay again) */
static bool journaled_command(const char *cmd)
{
    static const char *const skip[] = { "quit", "q", "exit", "restore" };
    return text_command_of(cmd, strlen(cmd), skip, 4) < 0;
}

static int run_collected(repl_t *r, repl_input_t *in, const char *name)
{
    /* A lesson's multiple-choice step takes a letter itself. */
    if (lesson_take_input(r->lesson, in->buf, in->len, r->out)) {
        fflush(r->out);
        repl_input_clear(in);
        return 0;
    }
    /* One notebook cell per input: its text is the caption, its output is
     * kept for the HTML export (view.h: the stream tees into the cell). */
    bool journaled = r->run_depth == r->journal_depth;
    if (journaled)   /* written and synced before it runs */
        repl_journal_append(&r->journal, in->buf, in->len, r->errout);
    lesson_before_input(r->lesson);   /* before the cell: a figure check counts the cells from this input's on */
    FILE *out = view_cell_begin(in->buf, in->len, r->out);
    unsigned long i0 = err_interrupts;
    int st = session_run(r->s, name, in->buf, (int)in->len, in->first_line, out, r->errout == r->out ? out : r->errout);
    /* how the input ended (written before the lesson's check, which may
     * run the next step's code: journaled after it) */
    long at;
    journal_end_t how = input_end(st, i0, st ? session_failed_at(r->s) : 0, &at);
    if (journaled) repl_journal_end(&r->journal, how, at);
    /* an active lesson checks the input against its step (and may move on) */
    lesson_after_input(r->lesson, in->buf, in->len, st, out);
    if (st) view_cell_failed((size_t)session_failed_at(r->s));
    view_cell_end();
    fflush(r->out);
    fflush(r->errout);
    repl_input_clear(in);
    return st ? 1 : 0;
}

int repl_feed_line(repl_t *r, repl_input_t *in, const char *line, size_t len,
                   const char *name, int lineno, int *status)
{
    *status = 0;
    if (in->len == 0) {
        if (is_blank(line, len))
            return REPL_FEED_DONE;
        size_t i = 0;
        while (i < len && isspace((unsigned char)line[i]))
            i++;
        if (line[i] == ':') {
            /* A command is one line; it never continues a block, and a ':'
             * at the start of a continuation line is left to the parser. */
            r->where_name = name;
            r->where_line = lineno;
            /* a command is text: a NUL byte would end it early and drop the rest silently */
            const char *nul = memchr(line, '\0', len);
            if (nul) {   /* the caret under it (shown as '?') */
                r->cmd_src = (source_t){ name, line, (int)len, lineno };
                r->cmd_span = span_make((int)(nul - line), (int)(nul - line) + 1);
                *status = repl_cmd_error(r, "invalid byte 0x00 (NUL) in the command: a command is plain text");
                r->cmd_src.text = NULL;
                return REPL_FEED_DONE;
            }
            char *cmd = strndup(line, len);
            bool journaled = cmd && r->run_depth == r->journal_depth && journaled_command(cmd);
            if (journaled)
                repl_journal_append(&r->journal, line, len, r->errout);
            FILE *save_out = r->out, *save_err = r->errout;
            r->out = view_cell_begin(line, len, r->out);    /* commands are cells too (:save FILE.nn replays them) */
            if (save_err == save_out) r->errout = r->out;   /* a command's error shows in its cell, as a statement's does */
            static const char *const restore_cmd[] = { "restore" };
            if (lesson_is_command(line, len) || text_command_of(line, len, restore_cmd, 1) >= 0)
                view_cell_no_replay();   /* ... but for these */
            unsigned long i0 = err_interrupts;
            *status = cmd ? repl_command(r, cmd) : repl_cmd_error(r, "out of memory");
            long at;
            journal_end_t how = input_end(*status, i0, 0, &at);
            if (journaled) repl_journal_end(&r->journal, how, at);
            r->out = save_out;
            r->errout = save_err;
            if (*status) view_cell_failed(0);
            view_cell_end();
            free(cmd);
            fflush(r->out);
            return REPL_FEED_DONE;
        }
        in->first_line = lineno;
    }
    if (len > INT32_MAX / 2 || in->len > (size_t)INT32_MAX / 2) {
        /* session_run takes an int length. */
        repl_input_clear(in);
        r->where_name = name;
        r->where_line = lineno;
        *status = repl_cmd_error(r, "input too long");
        return REPL_FEED_DONE;
    }
    if (!input_append(in, line, len)) {
        repl_input_clear(in);
        r->where_name = name;
        r->where_line = lineno;
        *status = repl_cmd_error(r, "out of memory reading input");
        return REPL_FEED_DONE;
    }
    if (!parse_scan_complete(&in->scan, in->buf, (int)in->len) && !parse_fails_early(&in->scan, in->buf, (int)in->len))
        return REPL_FEED_MORE;
    *status = run_collected(r, in, name);
    return REPL_FEED_DONE;
}

int repl_flush_input(repl_t *r, repl_input_t *in, const char *name, int *status)
{
    *status = 0;
    if (in->len == 0)
        return 0;
    *status = run_collected(r, in, name);
    return *status;
}

/* ---- batch ways in ---------------------------------------------------- */

/* The REPL reading stdin at the top level, while it reads (repl_console) */
static struct console {
    repl_t *r;
    const repl_input_t *in;
} console;

repl_t *repl_console(bool *continuing)
{
    if (continuing) *continuing = console.r && console.in->len > 0;
    return console.r;
}

/* One line source for both streams and memory, so the pipe, scripts and -e
 * share the loop below. */
typedef struct line_src {
    FILE *f;                      /* stream, or NULL for memory */
    const char *p, *end;          /* memory */
    char *line;                   /* getline's buffer (malloc'd) */
    size_t cap;
    bool skipping;                /* the rest of an over-long line is still to skip */
    bool past_first;              /* the first line has been read (its UTF-8 byte order mark dropped) */
} line_src_t;

/* Ctrl-C while a stream is read (a line with no end, /dev/zero): reading
 * stops as at a read error with EINTR (run_lines says "interrupted") */
#define READ_INTERRUPTED(k) (((k) & 0xFFFF) == 0 && err_interrupt_flag)

/* The longest line read (bytes, newline not counted).  A longer line is
 * refused as soon as the limit is passed: the rest of it is skipped, not
 * stored, so one huge line (a 3 GB paste, a binary file) costs at most
 * this much memory and the session goes on. */
#define REPL_LINE_MAX ((size_t)16 << 20)

/* Next line without its newline (and without a '\r' before it, for files
 * written on Windows).  Returns its length, or -1 at EOF, -2 on a read
 * error (errno set), or -3 for a line longer than REPL_LINE_MAX (skipped). */
static ssize_t next_line(line_src_t *ls, const char **out)
{
    ssize_t n;
    if (ls->f) {
        size_t len = 0;
        int c = EOF;
        bool any = false;
        errno = 0;
        if (ls->skipping) {
            size_t k = 0;
            while ((c = getc_unlocked(ls->f)) != EOF && c != '\n')
                if (READ_INTERRUPTED(++k)) { errno = EINTR; return -2; }
            ls->skipping = false;
            if (c == EOF && ferror(ls->f))
                return -2;
        }
        while ((c = getc_unlocked(ls->f)) != EOF) {
            any = true;
            if (READ_INTERRUPTED(len + 1)) { errno = EINTR; return -2; }
            if (len + 2 > ls->cap) {
                size_t cap = ls->cap ? ls->cap * 2 : 256;
                if (cap > REPL_LINE_MAX + 2)
                    cap = REPL_LINE_MAX + 2;
                char *b = realloc(ls->line, cap);
                if (!b) {
                    errno = ENOMEM;
                    return -2;
                }
                ls->line = b;
                ls->cap = cap;
            }
            ls->line[len++] = (char)c;
            if (c == '\n')
                break;
            if (len > REPL_LINE_MAX) {
                /* the rest is skipped by the next call, if there is one (a
                 * script stops here; a pipe goes on with the next line) */
                ls->skipping = true;
                /* give the buffer back: the next lines are short again */
                free(ls->line);
                ls->line = NULL;
                ls->cap = 0;
                return -3;
            }
        }
        if (c == EOF && ferror(ls->f))
            return -2;
        if (!any)
            return -1;
        ls->line[len] = '\0';
        n = (ssize_t)len;
        *out = ls->line;
    } else {
        if (ls->p >= ls->end)
            return -1;
        const char *nl = memchr(ls->p, '\n', (size_t)(ls->end - ls->p));
        const char *stop = nl ? nl + 1 : ls->end;
        *out = ls->p;
        n = stop - ls->p;
        ls->p = stop;
        if ((size_t)n > REPL_LINE_MAX + 1)
            return -3;
    }
    if (n > 0 && (*out)[n - 1] == '\n')
        n--;
    if (n > 0 && (*out)[n - 1] == '\r')
        n--;
    /* a file saved by a Windows editor may begin with a byte order mark
     * (U+FEFF): not part of the program, as Python reads it */
    if (!ls->past_first && n >= 3 && !memcmp(*out, "\xEF\xBB\xBF", 3)) {
        *out += 3;
        n -= 3;
    }
    ls->past_first = true;
    return n;
}

static int run_lines(repl_t *r, line_src_t *ls, const char *name, bool stop_on_error,
                     FILE *out, FILE *errout)
{
    FILE *save_out = r->out, *save_err = r->errout;
    bool save_inter = r->interactive;
    /* A :load typed at the prompt keeps the prompt's Ctrl-C rules. */
    int kill_at = r->interactive ? REPL_KILL_INTERACTIVE : REPL_KILL_BATCH;
    r->out = out;
    r->errout = errout;
    r->interactive = false;
    r->run_depth++;

    repl_input_t in = {0};
    int lineno = 0, failed = 0, st;
    bool is_console = ls->f == stdin && r->run_depth == 1;
    for (;;) {
        const char *line;
        repl_sigint_arm(kill_at);
        if (is_console) console = (struct console){ r, &in };
        ssize_t n = next_line(ls, &line);
        if (is_console) console.r = NULL;
        if (n == -2) {
            if (errno == EINTR && err_interrupt_flag) {
                /* Ctrl-C while waiting for input: stop reading, like the
                 * end of input but counted as an error. */
                err_interrupt_flag = 0;
                r->where_name = name;
                r->where_line = lineno;
                failed = repl_cmd_error(r, "interrupted");
            } else {
                r->where_name = name;
                r->where_line = lineno;
                failed = repl_cmd_error(r, "cannot read input: %s", strerror(errno));
            }
            break;
        }
        if (n == -3) {
            /* one line past the limit: refused (with any unfinished block
             * it belonged to); a pipe goes on with the next line */
            lineno++;
            r->where_name = name;
            r->where_line = lineno;
            if (in.len)
                repl_cmd_error(r, "line %d is longer than %zu MB: refused (its text skipped, with the unfinished "
                               "input it continued); nnpad reads at most %zu MB a line", lineno, REPL_LINE_MAX >> 20,
                               REPL_LINE_MAX >> 20);
            else
                repl_cmd_error(r, "line %d is longer than %zu MB: refused (its text skipped); "
                               "nnpad reads at most %zu MB a line", lineno, REPL_LINE_MAX >> 20, REPL_LINE_MAX >> 20);
            repl_input_clear(&in);
            failed = 1;
            if (stop_on_error)
                break;
            continue;
        }
        if (n == -1) {
            repl_flush_input(r, &in, name, &st);
            failed |= st;
            break;
        }
        lineno++;
        if (repl_feed_line(r, &in, line, (size_t)n, name, lineno, &st) == REPL_FEED_DONE) {
            /* A Ctrl-C that the computation never polled: a script stops
             * (the user asked it to); a pipe, like the prompt, goes on
             * without letting it hit the next input. */
            if (err_interrupt_flag && stop_on_error && st == 0) {
                r->where_name = name;
                r->where_line = lineno;
                st = repl_cmd_error(r, "interrupted");
            }
            err_interrupt_flag = 0;
            failed |= st;
            if ((st && stop_on_error) || r->quit)
                break;
        }
        repl_pump_events();
    }
    repl_input_free(&in);
    free(ls->line);
    ls->line = NULL;
    r->out = save_out;
    r->errout = save_err;
    r->interactive = save_inter;
    r->run_depth--;
    return failed ? 1 : 0;
}

void repl_journal_start(repl_t *r, bool typed)
{
    if (!repl_journal_wanted() || r->journal.fd >= 0) return;
    char err[4600];
    if (!repl_journal_open(&r->journal, err, sizeof err)) {
        fprintf(stderr, _("warning: %s: this session's inputs cannot be restored after a crash\n"), err);
        return;
    }
    r->journal_depth = typed ? 0 : 1;
}

typedef struct {
    repl_t *r;
    FILE *out;
    long n, failed, first_failed, unrun, skipped, ran, stopped_at;
    char first[80];
} restore_t;

/* show text indented, as typed */
static void show_text(FILE *out, const char *text, size_t len)
{
    for (const char *p = text, *e = text + len; p < e;) {
        const char *nl = memchr(p, '\n', (size_t)(e - p));
        size_t k = nl ? (size_t)(nl - p) : (size_t)(e - p);
        fprintf(out, "    %.*s\n", (int)k, p);
        p += k + (nl ? 1 : 0);
    }
}

/* Run one replayed text as typed, so this session's journal keeps it
 * (repl_restore moves the journal's depth to the replay's): a second
 * crash loses nothing.  False when a Ctrl-C stopped it: the restore stops. */
static bool replay(restore_t *rs, const char *text, size_t len)
{
    char name[48];   /* an error names the input it came from: <restore input 10>:1:7 */
    snprintf(name, sizeof name, _("<restore input %ld>"), rs->n);
    unsigned long i0 = err_interrupts;
    int st = repl_run_text(rs->r, name, text, len, rs->out, rs->out);
    rs->ran++;
    if (err_interrupts != i0) {
        rs->stopped_at = rs->n;
        return false;
    }
    if (st != 0 && !rs->failed++) {
        rs->first_failed = rs->n;
        size_t k = strcspn(text, "\n");
        snprintf(rs->first, sizeof rs->first, "%.*s%s", (int)(k < 60 ? k : 60), text, k > 60 || k < len ? " ..." : "");
    }
    return true;
}

static bool restore_one(const char *text, size_t len, journal_end_t how, long at, void *ctx)
{
    restore_t *rs = ctx;
    rs->n++;
    /* the lesson commands are left out: replayed they would check old
     * answers against today's step and move its progress (the code the
     * lesson ran and the answers typed replay as code) */
    if (lesson_is_command(text, len)) {
        rs->skipped++;
        return true;
    }
    if (how == JOURNAL_FINISHED || how == JOURNAL_FAILED) return replay(rs, text, len);
    /* not run again: running when the session ended (it may be what hung
     * or crashed), stopped by Ctrl-C (an endless loop, a long fit: it would
     * run again for as long), or shown by an earlier restore; the
     * statements before an interrupted one ran whole and run again */
    size_t from = how == JOURNAL_INTERRUPTED && at > 0 && (size_t)at < len ? (size_t)at : 0;
    if (from && !replay(rs, text, from)) return false;
    rs->unrun++;
    const char *why = how == JOURNAL_RUNNING       ? _("was running when that session ended")
                      : how == JOURNAL_INTERRUPTED ? _("was interrupted (Ctrl-C) in that session")
                                                   : _("was not run by an earlier restore (running or interrupted when a session ended)");
    if (from)
        fprintf(rs->out, _("restore: input %ld %s; not run again from the interrupted statement on (type it to run it):\n"),
                rs->n, why);
    else
        fprintf(rs->out, _("restore: input %ld %s; not run again (type it to run it):\n"), rs->n, why);
    show_text(rs->out, text + from, len - from);
    /* kept in this session's journal as not run, so that a restore after
     * a second crash still shows it */
    repl_t *r = rs->r;
    if (r->journal_depth >= 0) {
        repl_journal_append(&r->journal, text + from, len - from, r->errout);
        repl_journal_end(&r->journal, JOURNAL_NOT_RUN, 0);
    }
    return true;
}

int repl_restore(repl_t *r, FILE *out)
{
    char path[4096], err[4600];
    if (r->restoring) {
        /* only a journal written by hand holds :restore */
        fputs(_("restore: already replaying a session; :restore inside it is left out\n"), out);
        return 1;
    }
    /* one restore at a time: two at once would replay one journal twice */
    int lk = repl_journal_lock(err, sizeof err);
    if (lk < 0) {
        fprintf(out, "restore: %s\n", err);
        return 1;
    }
    bool ended = false;
    if (!repl_journal_last(&r->journal, path, sizeof path, &ended, err, sizeof err)) {
        repl_journal_unlock(lk);
        fprintf(out, "restore: %s\n", err);
        return 1;
    }
    restore_t rs = { r, out, 0, 0, 0, 0, 0, 0, 0, "" };
    if (ended)
        fprintf(out, _("restoring the last session from %s\n"), path);
    else
        fprintf(out, _("restoring the last session that did not end (killed or crashed) from %s\n"), path);
    fflush(out);
    int jd = r->journal_depth;
    if (jd >= 0) r->journal_depth = r->run_depth + 1;   /* the replayed inputs are this session's too */
    r->restoring = true;
    view_set_replaying(true);   /* a figure already in the folder is not written again */
    long damaged = 0;
    long n = repl_journal_read(path, restore_one, &rs, &damaged);
    int rerr = errno;
    view_set_replaying(false);
    r->restoring = false;
    r->journal_depth = jd;
    if (n < 0) {
        repl_journal_unlock(lk);
        fprintf(out, _("restore: cannot read %s: %s\n"), path, strerror(rerr));
        return 1;
    }
    if (damaged)
        fprintf(out, NG_("restore: skipped a damaged record (%ld stretch of the journal that is not a whole record: a torn "
                         "write or a full disk); the records after it were read\n",
                         "restore: skipped a damaged records (%ld stretches of the journal that are not a whole record: a "
                         "torn write or a full disk); the records after them were read\n", (unsigned long)damaged),
                damaged);
    if (rs.stopped_at) {
        /* the journal stays as it was: :restore again replays it from its start */
        repl_journal_unlock(lk);
        fprintf(out, _("restore: stopped by Ctrl-C at input %ld; the inputs after it are not run (that session's journal is "
                       "kept: :restore again replays it from the start)\n"), rs.stopped_at);
        fflush(out);
        return 1;
    }
    repl_journal_mark_ended(path);
    repl_journal_unlock(lk);
    long done = rs.ran;
    if (rs.skipped)
        fprintf(out, NG_("restore: %ld lesson command left out (the lesson's code and your answers ran as code; :lessons "
                         "shows your progress)\n",
                         "restore: %ld lesson commands left out (the lesson's code and your answers ran as code; :lessons "
                         "shows your progress)\n", (unsigned long)rs.skipped),
                rs.skipped);
    if (rs.failed)
        fprintf(out, NG_("restored %ld input; %ld failed, the first input %ld: %s\n",
                         "restored %ld inputs; %ld failed, the first input %ld: %s\n", (unsigned long)done),
                done, rs.failed, rs.first_failed, rs.first);
    else
        fprintf(out, NG_("restored %ld input\n", "restored %ld inputs\n", (unsigned long)done), done);
    fflush(out);
    return rs.failed ? 1 : 0;
}

int repl_run_stream(repl_t *r, FILE *in, const char *name, bool stop_on_error,
                    FILE *out, FILE *errout)
{
    line_src_t ls = { .f = in };
    return run_lines(r, &ls, name, stop_on_error, out, errout);
}

int repl_run_text(repl_t *r, const char *name, const char *text, size_t len,
                  FILE *out, FILE *errout)
{
    line_src_t ls = { .p = text, .end = text + len };
    return run_lines(r, &ls, name, true, out, errout);
}

const char *repl_not_input(FILE *f)
{
    struct stat sb;
    if (fstat(fileno(f), &sb) != 0) return NULL;
    /* /dev/zero would be read for ever (a terminal is a device too, and is input) */
    if ((S_ISCHR(sb.st_mode) || S_ISBLK(sb.st_mode)) && !isatty(fileno(f)))
        return _("a device, not a file of input");
    return NULL;
}

int repl_run_file(repl_t *r, const char *path, FILE *out, FILE *errout)
{
    FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "r");
    if (!f) {
        fflush(out);
        fprintf(errout, _("nnpad: cannot open '%s': %s\n"), path, strerror(errno));
        fflush(errout);
        return 1;
    }
    const char *why = f == stdin ? NULL : repl_not_input(f);
    if (why) {
        fclose(f);
        fflush(out);
        fprintf(errout, _("nnpad: cannot run '%s': %s\n"), path, why);
        fflush(errout);
        return 1;
    }
    int st = repl_run_stream(r, f, f == stdin ? "<stdin>" : path, true, out, errout);
    if (f != stdin)
        fclose(f);
    return st;
}
