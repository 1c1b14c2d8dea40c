/* repl_int.h — what repl.c, repl_tty.c and commands.c share; not for other
 * modules (they use repl.h). */
#ifndef NN_REPL_INT_H
#define NN_REPL_INT_H
#include <stddef.h>
#include "repl/repl.h"
#include "repl/journal.h"
#include "lang/parse.h"
#include "util/error.h"

/* Nested :load deeper than this is an error (a file that loads itself). */
#define REPL_MAX_LOAD_DEPTH 16

struct repl {
    session_t *s;              /* borrowed */
    repl_options_t opt;
    FILE *out, *errout;        /* where the current input's output and errors go */
    bool interactive;          /* command errors print without a file:line prefix */
    bool quit;                 /* :quit seen */
    int load_depth;            /* :load nesting */
    bool restoring;            /* :restore is replaying (a journal that holds :restore does not nest it) */
    struct lesson_runner *lesson;   /* the guided lessons (src/lesson/lesson.h); owned */
    /* Where the command being run came from, for its error messages. */
    const char *where_name;
    int where_line;
    /* The command line being run (repl_command), for its errors' caret:
     * cmd_src.text is NULL outside a command; cmd_span is where its errors
     * point (the argument, or just after the command when it has none;
     * commands narrow it to the word at fault), cmd_arg_at the argument's
     * offset in the line. */
    source_t cmd_src;
    span_t cmd_span;
    int cmd_arg_at;
    /* the session journal (journal.h): top-level inputs only, those read at
     * run_depth == journal_depth (0 typed, 1 piped or a script) */
    repl_journal_t journal;
    int run_depth, journal_depth;
};

/* An input being collected, possibly over several lines.  The text is the
 * lines joined by '\n' (no trailing newline), in malloc'd memory: it is
 * REPL plumbing, not user data, so it stays outside mem.h's limit. */
typedef struct repl_input {
    char *buf;
    size_t len, cap;
    int first_line;            /* line number of its first line */
    parse_scan_t scan;         /* how far parse_scan_complete has read buf (zero: nothing) */
} repl_input_t;

enum { REPL_FEED_DONE, REPL_FEED_MORE };

/* The terminal module's (nnpad-tty.so, repl_tty.c) agreement with the
 * program: raise it when struct repl or what the module calls changes. */
#define NN_TTY_ABI 3

/* Why f cannot be run as input (a device other than a terminal, such as
 * /dev/zero), or NULL: scripts and :load. */
const char *repl_not_input(FILE *f);

/* Feed one line (without its newline; may hold any bytes) of input from
 * source `name` at line number lineno.  Returns REPL_FEED_MORE while a
 * block is open; REPL_FEED_DONE after running a command or a whole input
 * (or skipping a blank line), with its status (0 or 1) in *status. */
int repl_feed_line(repl_t *r, repl_input_t *in, const char *line, size_t len,
                   const char *name, int lineno, int *status);
/* Run whatever is collected, complete or not (end of file: the parser then
 * reports what is missing).  Returns 0 or 1; 0 if nothing was pending. */
int repl_flush_input(repl_t *r, repl_input_t *in, const char *name, int *status);
void repl_input_clear(repl_input_t *in);
void repl_input_free(repl_input_t *in);

/* Reset the Ctrl-C count and choose after how many Ctrl-Cs during one
 * computation the process is killed (0: never). */
void repl_sigint_arm(int kill_at);
#define REPL_KILL_BATCH 2          /* script, pipe, -e: the second Ctrl-C kills */
#define REPL_KILL_INTERACTIVE 3    /* one typed computation: the third kills */

/* Run one ':command' line (leading blanks allowed).  Errors print to
 * r->errout.  Returns 0 or 1. */
int repl_command(repl_t *r, const char *line);

/* Print a command error to r->errout; returns 1 so callers can `return
 * repl_cmd_error(...)`.  While a command runs, as err_print prints an
 * expression's error: "NAME:LINE:COL: error: ...", the line and a caret
 * under r->cmd_span; else "NAME:LINE: error: ..." ("error: ..." when
 * interactive). */
int repl_cmd_error(repl_t *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* For Tab completion: the command table. */
typedef enum repl_arg_kind {
    REPL_ARG_NONE,     /* takes no argument */
    REPL_ARG_WORDS,    /* one of the words in args */
    REPL_ARG_TEXT,     /* free text (sizes, numbers) */
    REPL_ARG_FILE,     /* a file name */
    REPL_ARG_EXPR,     /* an expression: complete names */
    REPL_ARG_HELP,     /* a command (':name') or a builtin name */
} repl_arg_kind_t;

typedef struct repl_cmd {
    const char *name;            /* without the ':' */
    const char *const *aliases;  /* NULL-terminated, or NULL */
    const char *usage;           /* ":precision [fp16|bf16|fp32|fp64]" */
    const char *help;            /* one line */
    const char *detail;          /* more lines for `:help :name`, or NULL */
    repl_arg_kind_t arg;
    const char *const *words;    /* for REPL_ARG_WORDS */
    int (*exec)(repl_t *r, const char *arg);   /* arg: trimmed, "" if none; returns 0 or 1 */
} repl_cmd_t;

extern const repl_cmd_t repl_cmds[];   /* terminated by an entry with name NULL */
/* The command named name (without ':'), aliases included; NULL if none. */
const repl_cmd_t *repl_cmd_find(const char *name, size_t len);
/* The known command (or alias) nearest to name by edit distance. */
const char *repl_cmd_nearest(const char *name, size_t len);


/* Tab completion (complete.c), for the terminal (repl_tty.c) and the web
 * page (repl_web.c).  The word being completed is line[start..cursor),
 * text its copy; each candidate that begins with text goes to cb (in no
 * particular order, possibly twice).  The result says what follows a
 * single candidate, or that text is a file name (the caller completes
 * those: readline's, or the web build's own). */
typedef enum repl_complete {
    REPL_COMPLETE_NONE,   /* nothing completes here */
    REPL_COMPLETE_NAME,   /* a name: nothing after it ("(" or "." follows) */
    REPL_COMPLETE_WORD,   /* a command or one of its words: a space after it */
    REPL_COMPLETE_FILE,   /* a file name (no candidates given) */
} repl_complete_t;
repl_complete_t repl_complete(repl_t *r, const char *line, int start, const char *text,
                              void (*cb)(const char *cand, void *ctx), void *ctx);
/* The characters that end a word on this line (blanks only in a file name) */
const char *repl_complete_breaks(const char *line);
/* Where the word that ends at cursor begins */
int repl_complete_start(const char *line, int cursor);

/* The REPL that reads the console (stdin, at the top level) while it waits
 * for a line, and whether it is in the middle of an input (an open block or
 * bracket: the terminal's "... " prompt); NULL when none is reading.  For
 * the web page's console (repl_web.c). */
repl_t *repl_console(bool *continuing);

#endif
