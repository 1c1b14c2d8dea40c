/* journal.h — the session journal (issue 16: no lost work).  Every input a
 * session accepts at its top level (typed, piped or from a script; a
 * command too) is appended to its journal, one record each, flushed and
 * fdatasync'ed before the input runs; `nnpad --restore` and `:restore`
 * replay the last session's journal, so a kill -9 loses nothing typed.
 *
 * Journals live in STATE/journals/ (afile_state_dir), one file per session
 * named by its start time and pid, held with an exclusive flock while the
 * session lives: "the last session" is the newest journal that no live
 * session holds.  The ten newest are kept.  A record is
 *
 *     \x1e LEN \n BYTES \n
 *
 * so any text (newlines, NULs) round-trips, followed once the input has
 * run (whether it worked or not) by the mark \x1f \n.  An input with no
 * mark is the one running when the session ended (killed, crashed): a
 * restore shows it but does not run it again (it may be what hung or
 * crashed).  A torn last record is ignored on reading.
 *
 * A session that ends normally (quit, end of input) appends \x1d \n, or
 * removes its journal if nothing was typed.  "The last session" for a
 * restore is the newest journal without that end (killed, crashed: the
 * work at risk), else the newest that has inputs: opening nnpad and
 * quitting after a crash does not hide the crashed session.
 *
 * The journal is off for -e, lesson playing and under the test suite
 * (NNPAD_TEST) unless NNPAD_JOURNAL=1; NNPAD_JOURNAL=0 turns it off. */
#ifndef NN_REPL_JOURNAL_H
#define NN_REPL_JOURNAL_H
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

typedef struct repl_journal {
    int fd;            /* -1: off */
    char path[4096];   /* this session's journal */
    bool warned;       /* a failed append was said once */
} repl_journal_t;

/* Whether this process should keep a journal (the environment rules). */
bool repl_journal_wanted(void);
/* Start this session's journal; false (and fd -1) with a reason in err. */
bool repl_journal_open(repl_journal_t *j, char *err, size_t cap);
/* Append one record and fdatasync it; a failure is said once on errout
 * and the journal goes on trying (the input still runs). */
void repl_journal_append(repl_journal_t *j, const char *text, size_t len, FILE *errout);
/* The mark after an input has run (not synced: a lost mark only means the
 * input is not run again by a restore). */
void repl_journal_done(repl_journal_t *j);
/* The session ends normally: the end mark, or the journal removed when it
 * holds no input. */
void repl_journal_close(repl_journal_t *j);

/* The journal to restore (above; never one a live session holds, nor j's
 * own) into path, *ended set when that session ended normally; false with
 * a reason in err. */
bool repl_journal_last(const repl_journal_t *j, char *path, size_t cap, bool *ended, char *err, size_t errcap);
/* A journal that has been restored counts as ended (its inputs live on in
 * the journal of the session that restored it). */
void repl_journal_mark_ended(const char *path);
/* Call f(text, len, ran, ctx) for each whole record of the journal at
 * path (ran: its mark follows); returns the count, or -1 with errno if it
 * cannot be read. */
long repl_journal_read(const char *path, void (*f)(const char *text, size_t len, bool ran, void *ctx), void *ctx);

#endif
