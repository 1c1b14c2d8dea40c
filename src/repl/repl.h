/* repl.h — the ways into a session: the interactive REPL, piped standard
 * input, script files, -e strings, and the :commands they all share.
 *
 * Every way in feeds text line by line through one grouping step: a line
 * starting with ':' (when no block is open) is a command; other lines are
 * collected until parse_is_complete() says the input is whole, then run with
 * session_run().  So a script, a pipe and typed input behave the same; they
 * differ only in where errors go and whether the first error stops the run:
 *
 *   way in            errors to   first error        exit status
 *   interactive       stdout      keeps going        0 (errors were seen)
 *   pipe (stdin)      stdout      keeps going        1 if any error, else 0
 *   FILE.nn, -e       stderr      stops              1 on error, else 0
 *
 * Errors go to stdout in the REPL and pipe so that a transcript shows each
 * error next to the input that caused it.
 *
 * Nothing here calls exit(); every function returns a status to main.
 */
#ifndef NN_REPL_H
#define NN_REPL_H
#include <stdbool.h>
#include <stdio.h>
#include "lang/session.h"

#ifdef PACKAGE_VERSION
#define NNPAD_VERSION PACKAGE_VERSION
#else
#define NNPAD_VERSION "0.1"
#endif

typedef struct repl_options {
    bool headless;     /* --headless: figures go to files, never a window (kept for the view module) */
} repl_options_t;

typedef struct repl repl_t;

/* A REPL context around session s (borrowed: the caller keeps ownership and
 * frees s after repl_free).  Returns NULL only if malloc fails.  Caller owns
 * the result and frees it with repl_free. */
repl_t *repl_new(session_t *s, const repl_options_t *opt);
void repl_free(repl_t *r);

/* Install the SIGINT (and SIGWINCH) handlers: Ctrl-C sets
 * err_interrupt_flag, which the evaluator polls (error.h) and the
 * interactive loop uses to cancel the line being typed.  Installed without
 * SA_RESTART so that a blocking read or select() returns EINTR.  A second
 * Ctrl-C during a batch run (script, pipe, -e), or a third while one
 * interactive computation runs, restores the default action and kills the
 * process: the way out of a computation that never polls. */
void repl_install_signals(repl_t *r);

/* The interactive REPL on the terminal (stdin must be a tty): banner,
 * readline with history and completion, until :quit or Ctrl-D.  Returns 0
 * (errors in the input were shown to the user and do not count), or 1 if
 * the terminal itself failed. */
int repl_interactive(repl_t *r);

/* Read lines from `in` until EOF (or :quit) and run them as typed input,
 * without prompts.  name is used in error messages ("<stdin>" or a file
 * name); line numbers are the lines' numbers in the stream.  With
 * stop_on_error the first error (or bad command) ends the run.  Output goes
 * to out, errors to errout.  Does not close `in`.  Returns 0, or 1 if any
 * input failed. */
int repl_run_stream(repl_t *r, FILE *in, const char *name, bool stop_on_error,
                    FILE *out, FILE *errout);

/* Run text (one or more lines, need not end in a newline) like a script:
 * used for -e ("<-e>").  Stops at the first error.  Returns 0 or 1. */
int repl_run_text(repl_t *r, const char *name, const char *text, size_t len,
                  FILE *out, FILE *errout);

/* Run the script at path (nnpad FILE.nn): output to out, errors to errout,
 * stop at the first error.  A file that cannot be opened is an error
 * printed to errout.  Returns 0 or 1. */
int repl_run_file(repl_t *r, const char *path, FILE *out, FILE *errout);

/* The REPL's lesson runner (src/lesson/lesson.h; owned by the REPL), for
 * main's --lesson, --auto, --check-lesson and --lang. */
struct lesson_runner *repl_lesson(repl_t *r);

/* The session journal (journal.h): start it for a typed session (typed)
 * or a piped one or a script; nothing if the environment turns it off. */
void repl_journal_start(repl_t *r, bool typed);
/* Replay the last session's journal (--restore, :restore): each input as
 * typed, the failures counted and the first named.  0, or 1 if none could
 * be found or an input failed. */
int repl_restore(repl_t *r, FILE *out);

/* True once :quit (or Ctrl-D interactively) has been seen. */
bool repl_quit_requested(const repl_t *r);

/* The hook where a window's event pump will run: called every 16 ms while
 * the interactive REPL waits for a key, and between lines.  Does nothing
 * yet (figures come with their issue). */
void repl_pump_events(void);

/* "fp32 · cpu · eager" from the session settings, for the banner.  Writes at
 * most cap bytes including the NUL; returns buf. */
char *repl_settings_line(repl_t *r, char *buf, size_t cap);

#endif
