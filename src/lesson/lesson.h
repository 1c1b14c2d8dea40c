/* lesson.h — guided lessons (issue 15): the lesson file, its checks, and the
 * runner that walks a student through one inside the REPL.
 *
 * A lesson is one file, lessons/NN-name.md, holding both languages (so the
 * steps align by construction); lessons/README.md documents the format for
 * teachers.  lesson_load reads and validates it; every problem is an error
 * "FILE:LINE: error: ..." and nothing in a file can crash the reader.
 *
 * The runner holds one active lesson and its current step.  Its states:
 *
 *   idle ──:lesson──▶ step ──(correct answer / :next / :skip)──▶ next step ... ──▶ idle (done)
 *                      │ ▲
 *               :play  ▼ │ :next
 *                      play           (inputs run but are not checked)
 *
 * In a step the student's input runs as typed input (the REPL's own path:
 * lesson_before_input, then the REPL runs it, then lesson_after_input checks
 * it).  A wrong answer shows the hint, a second one the expected input.
 * Code the runner runs itself (demonstrations, :skip's answer) goes through
 * the host's run function, so figures and errors appear as usual.
 *
 * Progress is one file, $XDG_STATE_HOME/nnpad/lessons (default
 * ~/.local/state/nnpad/lessons), rewritten atomically at every step.
 *
 * Ownership: lesson_runner_new's result is the caller's (lesson_runner_free);
 * the session is borrowed.  Nothing here calls exit().
 */
#ifndef NN_LESSON_H
#define NN_LESSON_H
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include "lang/session.h"

enum { LESSON_EN = 0, LESSON_KO = 1 };

/* The language from the locale: LC_ALL, LC_MESSAGES, then LANG starting
 * with "ko" gives Korean, anything else English. */
int lesson_lang_default(void);
/* "en"/"ko" (also "english", "korean", "한국어") -> LESSON_EN/KO; -1 if unknown. */
int lesson_lang_from_name(const char *name);

typedef struct lesson_runner lesson_runner_t;

/* Runs text as typed input through the REPL's path (cells, figures, errors
 * printed as usual), stopping at the first error; returns 0 or 1. */
typedef int (*lesson_run_fn)(void *ctx, const char *text, size_t len, FILE *out);

lesson_runner_t *lesson_runner_new(session_t *s, lesson_run_fn run, void *ctx);
void lesson_runner_free(lesson_runner_t *lr);

void lesson_set_lang(lesson_runner_t *lr, int lang);
int lesson_lang(const lesson_runner_t *lr);
bool lesson_active(const lesson_runner_t *lr);
/* Running a lesson's own code or answer: the lesson commands wait (a
 * lesson whose code or @answer said :skip or :lesson freed the step it ran). */
bool lesson_busy(const lesson_runner_t *lr);
/* Is text one of the lesson commands (:lesson, :next, :skip, ...)?  They
 * steer the lessons, not the computation: a replay (:save x.nn, a restore)
 * leaves them out, and a lesson's own code cannot use them. */
bool lesson_is_command(const char *text, size_t len);
/* "lesson 1 · 3/9" for a prompt, or "" when idle (play adds " · play"). */
const char *lesson_status(lesson_runner_t *lr, char *buf, size_t cap);

/* The commands.  Each prints to out; a user error (an unknown lesson, :next
 * with no lesson) is written to err (in the runner's language) and the
 * function returns 1, leaving everything as it was. */
int lesson_list(lesson_runner_t *lr, FILE *out, char *err, size_t cap);                     /* :lessons */
int lesson_start(lesson_runner_t *lr, const char *which, FILE *out, char *err, size_t cap);  /* :lesson NAME|N|FILE */
int lesson_next(lesson_runner_t *lr, FILE *out, char *err, size_t cap);
int lesson_back(lesson_runner_t *lr, FILE *out, char *err, size_t cap);
int lesson_hint(lesson_runner_t *lr, FILE *out, char *err, size_t cap);
int lesson_skip(lesson_runner_t *lr, FILE *out, char *err, size_t cap);
int lesson_play(lesson_runner_t *lr, FILE *out, char *err, size_t cap);
int lesson_quit(lesson_runner_t *lr, FILE *out, char *err, size_t cap);                     /* :quit-lesson */
int lesson_lang_cmd(lesson_runner_t *lr, const char *arg, FILE *out, char *err, size_t cap); /* :lang [en|ko] */

/* The hooks around each typed input (the REPL calls them).  take_input
 * returns true when the runner answered the input itself (a letter for a
 * multiple-choice step), which then is not run.  They do nothing while the
 * runner runs its own code, in play, or when idle. */
bool lesson_take_input(lesson_runner_t *lr, const char *text, size_t len, FILE *out);
void lesson_before_input(lesson_runner_t *lr);
void lesson_after_input(lesson_runner_t *lr, const char *text, size_t len, int status, FILE *out);

/* nnpad --lesson NAME|N|FILE|all --auto: play lessons through, typing each
 * step's @answer; prints each step's text and what it types.  Progress is
 * not saved.  Returns 0 if every check passed, every demonstration ran and
 * every figure step made its figure; else 1 (each failure said on err as
 * FILE:LINE: ...). */
int lesson_auto(lesson_runner_t *lr, const char *which, FILE *out, FILE *err);

/* nnpad --check-lesson FILE: validate the file (syntax, both languages,
 * every check's expression parses, @answer on every check step), then play
 * it with lesson_auto in a fresh temporary folder (removed after).  Errors
 * go to err as FILE:LINE: error: ...  Returns 0 or 1. */
int lesson_check_file(lesson_runner_t *lr, const char *path, FILE *out, FILE *err);

/* nnpad --report FILE / :report FILE: the student's report, a self-contained
 * HTML page (lessons, steps, attempts, hints, skips, time, final answers, in
 * lang; the data also as JSON in <script id="nnpad-report">), written
 * atomically; says so on out (when not NULL).  0, or 1 with why. */
int lesson_report_write(int lang, const char *path, FILE *out, char *why, size_t cap);
/* nnpad --report-summary DIR: a table of every .html report in DIR on out (one
 * row per file, per lesson done/total, attempts, time; labels in lang); files that are not
 * reports are named on err.  Returns 0, or 1 if any file was skipped or none read. */
int lesson_report_summary(int lang, const char *dir, FILE *out, FILE *err);

#endif
