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
 *     \x1e LEN ' ' CRC \n BYTES \n
 *
 * (CRC: the CRC-32 of BYTES in 8 hex digits) so any text (newlines, NULs)
 * round-trips, followed once the input has run by how it ended:
 *
 *     \x1f \n          finished
 *     \x1f e \n        failed (an error: replaying it fails again, and the
 *                      statements before the failing one run again)
 *     \x1f i OFF \n    interrupted (Ctrl-C, even one that fit caught): not
 *                      run again; OFF > 0 is the byte where the interrupted
 *                      statement starts, the statements before it run again
 *     \x1f r \n        not run: a restore showed it (it was running or
 *                      interrupted in the session restored); carried on so
 *                      that a second crash does not forget it
 *
 * An input with no end is the one running when the session ended (killed,
 * crashed): a restore shows it but does not run it (it may be what hung
 * or crashed).  Journals written before the ends were told apart have no
 * CRC and one mark, \x1f \n, after every input that ran: read as finished.
 *
 * A damaged record (a torn write, a brief full disk, changed bytes: a bad
 * header, length, CRC or end) is skipped and the reader goes on at the next
 * whole record (resynchronising on its \x1e; once a record with a CRC was
 * seen, only records with a good CRC count).  A failed append is cut off
 * again (ftruncate) so that the file stays whole.
 *
 * A session that ends normally (quit, end of input) appends \x1d \n, or
 * removes its journal if nothing was typed.  "The last session" for a
 * restore is the newest journal without that end (killed, crashed: the
 * work at risk), else the newest that has inputs: opening nnpad and
 * quitting after a crash does not hide the crashed session.  One restore
 * at a time: a restore holds an exclusive flock on the journals' folder
 * while it chooses and replays (a second one says so and does nothing).
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
    int open;          /* records appended whose end is not written yet (a
                          lesson command's code is journaled inside it) */
    unsigned long long ok;   /* bit k: the append at depth k was written */
    double synced;     /* CLOCK_MONOTONIC seconds of the last fdatasync */
    bool dirty;        /* records written since then */
} repl_journal_t;

/* How an input ended (the record's end above). */
typedef enum {
    JOURNAL_RUNNING,       /* no end: running when the session ended */
    JOURNAL_FINISHED,
    JOURNAL_FAILED,
    JOURNAL_INTERRUPTED,
    JOURNAL_NOT_RUN,
} journal_end_t;

/* Whether this process should keep a journal (the environment rules). */
bool repl_journal_wanted(void);
/* Start this session's journal; false (and fd -1) with a reason in err. */
bool repl_journal_open(repl_journal_t *j, char *err, size_t cap);
/* Append one record and fdatasync it; a failure is said once on errout
 * and the journal goes on trying (the input still runs). */
void repl_journal_append(repl_journal_t *j, const char *text, size_t len, FILE *errout);
/* How the input last appended ended (at: JOURNAL_INTERRUPTED's OFF); not
 * synced: a lost end only means the input is not run again by a restore.
 * Nothing when that append failed. */
void repl_journal_end(repl_journal_t *j, journal_end_t how, long at);
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
/* One restore at a time: the journals' folder locked (flock); returns the
 * descriptor to pass to repl_journal_unlock, or -1 with a reason in err
 * (another restore holds it: "another nnpad is restoring a session now"). */
int repl_journal_lock(char *err, size_t cap);
void repl_journal_unlock(int fd);
/* Call f(text, len, how, at, ctx) for each whole record of the journal at
 * path, in order, until f returns false; *damaged counts the damaged
 * stretches skipped.  Returns the count of records, or -1 with errno if
 * the file cannot be read. */
typedef bool (*journal_fn)(const char *text, size_t len, journal_end_t how, long at, void *ctx);
long repl_journal_read(const char *path, journal_fn f, void *ctx, long *damaged);

#endif
