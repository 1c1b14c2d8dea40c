/* lesson_int.h — what the lesson module's files share (not for others). */
#ifndef NN_LESSON_INT_H
#define NN_LESSON_INT_H
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "lesson/lesson.h"

#define LESSON_MAX_BINDS 8
#define LESSON_MAX_DIMS 8
#define LESSON_MAX_REJECTS 8

typedef enum lesson_check_kind {
    CK_NONE, CK_VALUE, CK_SHAPE, CK_DTYPE, CK_VAR, CK_EQUIV, CK_FIGURE, CK_CHOICE
} lesson_check_kind_t;

/* One step.  Strings are malloc'd and owned by the lesson; text[] and
 * hint[] are indexed by LESSON_EN / LESSON_KO.  *_line: the file's line
 * numbers (0: absent). */
typedef struct lesson_step {
    int line;                          /* its '--- step' line */
    char *text[2]; int text_line[2];
    char *code; int code_line;         /* the ```nn fence's first code line; NULL: none */
    lesson_check_kind_t check; int check_line;
    char *expr;                        /* value, var (may be NULL), equiv */
    bool exact;                        /* @check exact: value, bit for bit in the same dtype */
    char *name;                        /* var NAME, dtype NAME, figure KIND, choice letter */
    int ndim; int64_t shape[LESSON_MAX_DIMS];
    int nbind; char *bind_name[LESSON_MAX_BINDS]; char *bind_expr[LESSON_MAX_BINDS];
    char *answer; int answer_line;
    char *hint[2]; int hint_line[2];
    char *choices[2]; int choices_line[2];
    bool needs_gpu; int needs_line;
    bool expect_error; int expect_line; /* @expect error: the code is meant to fail (a shape error read aloud) */
    char *forbid; int forbid_line;     /* @forbid softmax exp: names the answer must not use */
    char *require; int require_line;   /* @require grad: names the answer must use */
    int nreject; char *reject[LESSON_MAX_REJECTS]; int reject_line[LESSON_MAX_REJECTS]; /* @reject: wrong answers the check must refuse */
} lesson_step_t;

bool lesson_uses_name(const char *text, const char *name);
const char *lesson_names_check(const char *text, const char *forbid, const char *require);

/* @tr "ENGLISH" = "KOREAN": in Korean, a string literal of the lesson's
 * code whose text is ENGLISH is replaced by the literal KOREAN. */
typedef struct lesson_tr {
    char *en;                          /* the English text, escapes decoded */
    char *ko;                          /* the Korean literal as written, quotes included */
    int line;
} lesson_tr_t;

typedef struct lesson {
    char *path;                        /* as given */
    char *name;                        /* the file's stem: "01-tensors" (the progress key) */
    char *title[2];
    int nsteps;
    lesson_step_t *steps;
    int ntr;
    lesson_tr_t *tr;
} lesson_t;

/* Read and validate the file at path.  Every problem is printed to err as
 * "PATH:LINE: error: ..." (in English: teachers' tools speak one language,
 * as compilers do); returns NULL if there was any. */
lesson_t *lesson_load(const char *path, FILE *err);
void lesson_free(lesson_t *l);
/* True if text parses as nnpad input; else false with the parser's message
 * (and the line within text, 1-based) filled in. */
bool lesson_parses(const char *text, char *msg, size_t cap, int *line);
/* Does the demonstration code call a builtin that draws a figure? */
bool lesson_code_draws(const char *code);

/* ---- the code's strings in Korean (lesson_tr.c) ---- */
/* The string literal at p (p[0] == '"'): its end (past the closing quote),
 * or NULL when it is not closed or has an unknown escape; *text (when not
 * NULL) gets its text, escapes decoded (malloc'd). */
const char *lesson_lit_scan(const char *p, char **text);
/* code with every string literal whose text is an @tr's English replaced by
 * its Korean (comments, command lines and the rest untouched); NULL when
 * nothing changes.  The result is malloc'd. */
char *lesson_tr_apply(const lesson_t *l, const char *code);
/* --check-lesson: a string of the code a student reads (a title, label,
 * legend, printed text) holding a word that is no name, with no @tr; an
 * @tr whose English no code has.  Each said on err as PATH:LINE: error:;
 * returns how many. */
int lesson_tr_check(const lesson_t *l, FILE *err);

/* ---- the runner's messages in both languages (lesson_msg.c) ---- */
typedef enum lesson_msg {
    M_STEP, M_DEMO_NEXT, M_TEXT_NEXT, M_ASK, M_ASK_CHOICE, M_CORRECT, M_WRONG_HINT, M_WRONG_NOHINT,
    M_OFFER, M_NO_HINT, M_NO_LESSON, M_SKIPPED, M_FIRST_STEP, M_PLAY, M_PLAY_BACK, M_NOT_PLAYING,
    M_DONE, M_QUIT, M_LIST_HEAD, M_LIST_NONE, M_LIST_NEW, M_LIST_DONE, M_LIST_AT, M_WHY_FORBID, M_WHY_REQUIRE, M_ASSIGNED, M_LIST_HOW, M_UNKNOWN,
    M_RESUME, M_RESTART, M_NEEDS_GPU, M_ANSWER_FIRST, M_NOT_A_CHOICE, M_LANG, M_BAD_LANG,
    M_SAVE_FAILED, M_NO_DIR, M_AUTO_TYPES, M_AUTO_OK, M_AUTO_FAIL, M_WHY_ERROR, M_WHY_VALUE,
    M_WHY_SHAPE, M_WHY_DTYPE, M_WHY_NOVAR, M_WHY_VARFALSE, M_WHY_EQUIV, M_WHY_FIGURE, M_WHY_CHOICE,
    M_WHY_NOVALUE, M_SKIP_CHOICE, M_REPLAY, M_LESSON_N, M_FIGURE_MISSING, M_DEMO_FAILED, M_DEMO_NO_ERROR,
    M_FREE_ERROR, M_FREE_SHAPE, M_FREE_VAR, M_FREE_FIGURE, M_HINT_SHAPE_CALL, M_BACK_DONE,
    M_COUNT
} lesson_msg_t;
const char *lesson_msg(int lang, lesson_msg_t m);

/* ---- what the student did in each step (lesson_report.c) ---- */
typedef enum lesson_rec_ev {
    REC_TIME,      /* only secs: time spent in the step */
    REC_ATTEMPT,   /* a wrong answer */
    REC_CORRECT,   /* the accepted answer (answer: its text) */
    REC_HINT,      /* :hint */
    REC_SKIP,      /* :skip */
    REC_SEEN,      /* a step without a check, passed with :next */
} lesson_rec_ev_t;
/* Add ev (and secs of time) to step's record in $XDG_STATE_HOME/nnpad/lesson-steps,
 * rewritten atomically; 0, or 1 with why. */
int lesson_record(const lesson_t *l, int step, lesson_rec_ev_t ev, const char *answer, double secs, char *why, size_t cap);
/* The progress file (lesson_run.c): one entry per lesson, "NAME STEP TOTAL
 * [done]"; lesson_prog_read reads at most cap of them (the report reads it
 * for lessons with no step records). */
typedef struct prog { char name[256]; int step, total; bool done; } prog_t;
int lesson_prog_read(prog_t *p, int cap);

#endif
