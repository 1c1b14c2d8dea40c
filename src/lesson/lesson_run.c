/* lesson_run.c — the lesson runner: finding lessons, showing steps, checking
 * the student's inputs, progress on disk, --auto and --check-lesson
 * (lesson.h has the states and the hooks). */
#ifdef HAVE_CONFIG_H
#include "config.h"
#include "util/i18n.h"
#endif
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1
#endif
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <poll.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <time.h>
#ifndef __wasi__
#include <sys/wait.h>   /* --check-lesson's child processes (none in the web build) */
#endif
#include <unistd.h>

#include "lesson/lesson_int.h"
#include "backend/backend.h"
#include "backend/cpu/kernels.h"
#include "ops/state.h"
#include "util/text.h"
#include "lang/print.h"
#include "value/value.h"
#include "view/view.h"
#include "util/afile.h"
#include "util/error.h"
#include "util/plat.h"

#define NBOUND_MAX LESSON_MAX_BINDS
#define EQUIV_ROUNDS 5

struct lesson_runner {
    session_t *s;                  /* borrowed */
    lesson_run_fn run;
    void *ctx;
    int lang;
    lesson_t *cur;                 /* the active lesson, or NULL (idle) */
    int step;                      /* current step, 0-based */
    int tries;                     /* wrong answers at this step */
    int reached;                   /* the furthest step reached: the ones before it are answered */
    bool play_bound;               /* :play holds an equiv step's names */
    bool shape_differs;            /* the last check's value had another shape than the one asked for */
    session_settings_t *at;        /* each step's settings when it was first shown (:back restores them) */
    bool *at_rec;                  /* ... recorded yet */
    int nat;
    bool play;                     /* :play: inputs not checked */
    bool busy;                     /* running its own code: the hooks stand aside */
    bool auto_mode;                /* --auto: no progress written */
    bool check_rejects;            /* --check-lesson: each @reject must fail the check */
    char *shown; size_t nshown;    /* --check-lesson: what the step's code printed (for quoted numbers) */
    char *seen; size_t nseen;      /* ... and everything the lesson's code and answers printed so far */
    int cells_before;              /* view_cell_count() before the input being checked */
    bool bound;                    /* an equiv step's names are bound for the input */
    bool had[NBOUND_MAX];          /* ... and whether each had a value before */
    bool save_warned;
    FILE *devnull;
    double step_since;             /* when the time in this step last counted (0: not yet) */
    /* each step's snapshot: a level of the undo log (value.h) opened when
     * the step is entered, before its code runs, and kept open while the
     * lesson goes on (the statements' levels commit into it); :back rolls
     * back the levels of the steps it leaves and of the one it returns to,
     * so that step starts again from the session it first started from */
    char *worked;                  /* the plain assignments typed at this step (y = sigmoid(9)), for
                                    * @forbid/@require: the answer that uses y was written with them */
    undo_level_t *snap;
    int *snap_step;
    int nsnap, capsnap;
};

static const char *L(lesson_runner_t *lr, lesson_msg_t m) { return lesson_msg(lr->lang, m); }
static void record_step(lesson_runner_t *lr, lesson_rec_ev_t ev, const char *answer, FILE *out);
static void snaps_keep(lesson_runner_t *lr);

static char *xstrdup(const char *s)
{
    char *d = strdup(s);
    if (!d) abort();
    return d;
}

/* ---- language ---- */

int lesson_lang_from_name(const char *name)
{
    if (!strcmp(name, "en") || !strcmp(name, "english") || !strcmp(name, "English")) return LESSON_EN;
    if (!strcmp(name, "ko") || !strcmp(name, "korean") || !strcmp(name, "Korean") || !strcmp(name, "한국어")) return LESSON_KO;
    return -1;
}

int lesson_lang_default(void)
{
    /* POSIX's precedence: LC_ALL, then LC_MESSAGES, then LANG */
    const char *v[] = { getenv("LC_ALL"), getenv("LC_MESSAGES"), getenv("LANG") };
    for (int i = 0; i < 3; i++)
        if (v[i] && *v[i]) return !strncmp(v[i], "ko", 2) ? LESSON_KO : LESSON_EN;
    return LESSON_EN;
}

/* ---- the runner ---- */

lesson_runner_t *lesson_runner_new(session_t *s, lesson_run_fn run, void *ctx)
{
    lesson_runner_t *lr = calloc(1, sizeof *lr);
    if (!lr) return NULL;
    lr->s = s;
    lr->run = run;
    lr->ctx = ctx;
    lr->lang = lesson_lang_default();
    return lr;
}

void lesson_runner_free(lesson_runner_t *lr)
{
    if (!lr) return;
    record_step(lr, REC_TIME, NULL, NULL);   /* the time in the step the session ends in */
    snaps_keep(lr);
    free(lr->snap);
    free(lr->snap_step);
    free(lr->worked);
    lesson_free(lr->cur);
    if (lr->devnull) fclose(lr->devnull);
    free(lr->shown);
    free(lr->seen);
    free(lr->at);
    free(lr->at_rec);
    free(lr);
}

/* The one setter of the language: the runner's and the messages' (i18n.h). */
void lesson_set_lang(lesson_runner_t *lr, int lang)
{
    lr->lang = lang == LESSON_KO ? LESSON_KO : LESSON_EN;
    i18n_set_lang(lr->lang == LESSON_KO ? "ko" : "en");
}
int lesson_lang(const lesson_runner_t *lr) { return lr->lang; }
bool lesson_active(const lesson_runner_t *lr) { return lr && lr->cur; }
bool lesson_busy(const lesson_runner_t *lr) { return lr && lr->busy; }

bool lesson_is_command(const char *text, size_t len)
{
    static const char *const cmds[] = { "lesson", "lessons", "next", "back", "hint", "skip", "play", "quit-lesson", "lang", "report" };
    return text_command_of(text, len, cmds, (int)(sizeof cmds / sizeof *cmds)) >= 0;
}

const char *lesson_status(lesson_runner_t *lr, char *buf, size_t cap)
{
    if (!lr->cur) { if (cap) buf[0] = 0; return buf; }
    snprintf(buf, cap, "%s \u00b7 %d/%d%s", lr->cur->name, lr->step + 1, lr->cur->nsteps, lr->play ? " \u00b7 play" : "");
    return buf;
}

static void seen_add(lesson_runner_t *lr, const char *p, size_t n)
{
    char *b = realloc(lr->seen, lr->nseen + n + 1);
    if (!b) abort();
    memcpy(b + lr->nseen, p, n);
    lr->nseen += n;
    b[lr->nseen] = 0;
    lr->seen = b;
}

static void seen_str(lesson_runner_t *lr, const char *t)
{
    if (!t) return;
    seen_add(lr, t, strlen(t));
    seen_add(lr, "\n", 1);
}

/* A figure's words count as printed: a plot's marks say where it breaks
 * (saturation's "x = 8.3203") */
static void seen_figure(lesson_runner_t *lr, const view_figure_t *f)
{
    seen_str(lr, f->title);
    seen_str(lr, f->note);
    for (int i = 0; i < f->nbands; i++) seen_str(lr, f->bands[i].label);
    for (int i = 0; i < f->nvlines; i++) { seen_str(lr, f->vlines[i].label); seen_str(lr, f->vlines[i].tag); }
    for (int i = 0; i < f->nhlines; i++) seen_str(lr, f->hlines[i].label);
    for (int i = 0; i < f->ntexts; i++) seen_str(lr, f->texts[i].text);
    for (int i = 0; i < f->nseries; i++) seen_str(lr, f->series[i].label);
}

static FILE *null_stream(lesson_runner_t *lr)
{
    if (!lr->devnull) lr->devnull = fopen("/dev/null", "w");
    return lr->devnull;
}

/* The lesson's code, answer or check as it runs and shows in the
 * runner's language: in Korean its strings given by @tr lines are the
 * Korean ones (*owned: the copy to free, or NULL when text is as written). */
static const char *in_lang(lesson_runner_t *lr, const char *text, char **owned)
{
    *owned = lr->lang == LESSON_KO && lr->cur ? lesson_tr_apply(lr->cur, text) : NULL;
    return *owned ? *owned : text;
}

/* Run text (the lesson's own code or answer) through the host (the REPL's
 * path), with the hooks aside. */
static int run_text(lesson_runner_t *lr, const char *text, FILE *out)
{
    bool was = lr->busy;
    lr->busy = true;
    char *owned;
    text = in_lang(lr, text, &owned);
    /* a lesson's own code names files inside the working folder only */
    bool conf = afile_confine_code(true);
    int st = lr->run(lr->ctx, text, strlen(text), out);
    afile_confine_code(conf);
    free(owned);
    lr->busy = was;
    return st;
}

/* ---- where lessons are ---- */

static bool is_dir(const char *p)
{
    struct stat sb;
    return stat(p, &sb) == 0 && S_ISDIR(sb.st_mode);
}

/* The folder of lessons: $NNPAD_LESSONS, then lessons/ beside the
 * executable, the source tree's lessons/ (a build not installed), then the
 * installed $(pkgdatadir)/lessons.  Writes the places tried into tried. */
static bool lessons_dir(char *out, size_t cap, char *tried, size_t tcap)
{
    char cand[4][PATH_MAX];
    int n = 0;
    const char *env = getenv("NNPAD_LESSONS");
    if (env && *env) {
        snprintf(out, cap, "%s", env);
        snprintf(tried, tcap, "%s ($NNPAD_LESSONS)", env);
        return is_dir(env);
    }
    char exe[PATH_MAX - 16];
    if (afile_exe_dir(exe, sizeof exe)) snprintf(cand[n++], PATH_MAX, "%s/lessons", exe);
#ifdef NN_LESSONS_SRCDIR
    snprintf(cand[n++], PATH_MAX, "%s", NN_LESSONS_SRCDIR);
#endif
#ifdef NN_PKGDATADIR
    snprintf(cand[n++], PATH_MAX, "%s/lessons", NN_PKGDATADIR);
#endif
    size_t used = 0;
    if (tcap) tried[0] = 0;
    for (int i = 0; i < n; i++) {
        size_t len = strlen(cand[i]);
        if (is_dir(cand[i]) && len < cap) { memcpy(out, cand[i], len + 1); return true; }
        if (used < tcap) used += (size_t)snprintf(tried + used, tcap - used, "%s%s", i ? ", " : "", cand[i]);
    }
    return false;
}

/* The lesson files of dir (*.md but README.md), sorted; caller frees
 * (afile_list_free). */
static int list_files(const char *dir, char ***names)
{
    int n = afile_list(dir, ".md", names), k = 0;
    for (int i = 0; i < n; i++) {
        if (!strcmp((*names)[i], "README.md")) free((*names)[i]);
        else (*names)[k++] = (*names)[i];
    }
    return n < 0 ? 0 : k;
}

/* NAME|N|FILE to a path (malloc'd), or NULL. */
static char *resolve(const char *which)
{
    size_t wl = strlen(which);
    struct stat sb;
    if ((strchr(which, '/') || (wl > 3 && !strcmp(which + wl - 3, ".md"))) && stat(which, &sb) == 0 && S_ISREG(sb.st_mode))
        return xstrdup(which);
    char dir[PATH_MAX], tried[1024];
    if (!lessons_dir(dir, sizeof dir, tried, sizeof tried)) return NULL;
    char **names;
    int n = list_files(dir, &names);
    char *found = NULL;
    bool digits = wl > 0 && wl < 6;
    for (size_t i = 0; i < wl; i++) if (!isdigit((unsigned char)which[i])) digits = false;
    for (int i = 0; i < n && !found; i++) {
        char stem[NAME_MAX + 1];
        snprintf(stem, sizeof stem, "%.*s", (int)(strlen(names[i]) - 3), names[i]);
        const char *bare = stem;
        while (isdigit((unsigned char)*bare)) bare++;
        if (*bare == '-' && bare != stem) bare++; else bare = stem;
        /* N is the file's number (07-saturation.md is 7), else its place in the list */
        int num = isdigit((unsigned char)names[i][0]) ? atoi(names[i]) : i + 1;
        /* a unique start of the name after the number (sigmoid for 06-sigmoid-softmax) */
        bool start = !digits && wl >= 3 && !strncmp(which, bare, wl) && bare[wl] == '-';
        if ((digits && atoi(which) == num) || !strcmp(which, stem) || !strcmp(which, bare) || !strcmp(which, names[i]) || start) {
            size_t need = strlen(dir) + strlen(names[i]) + 2;
            found = malloc(need);
            if (!found) abort();
            snprintf(found, need, "%s/%s", dir, names[i]);
        }
    }
    afile_list_free(names, n);
    return found;
}

/* ---- progress: $XDG_STATE_HOME/nnpad/lessons (afile_state_dir), lines "NAME STEP TOTAL [done]" ---- */

/* Read every entry (at most cap); a malformed line is skipped. */
int lesson_prog_read(prog_t *p, int cap)
{
    char dir[PATH_MAX], path[PATH_MAX + 16];
    if (!afile_state_dir(dir, sizeof dir)) return 0;
    snprintf(path, sizeof path, "%s/lessons", dir);
    FILE *f = fopen(path, "r");
    if (!f) return 0;
    char line[512];
    int n = 0;
    while (n < cap && fgets(line, sizeof line, f)) {
        char done[16] = "";
        if (line[0] == '#') continue;
        if (sscanf(line, "%255s %d %d %15s", p[n].name, &p[n].step, &p[n].total, done) >= 3 && p[n].step >= 0 && p[n].total > 0) {
            p[n].done = !strcmp(done, "done");
            n++;
        }
    }
    fclose(f);
    return n;
}

#define PROG_MAX 256

static bool prog_find(const char *name, prog_t *out)
{
    prog_t *p = malloc(PROG_MAX * sizeof *p);
    if (!p) return false;
    int n = lesson_prog_read(p, PROG_MAX);
    bool found = false;
    for (int i = 0; i < n; i++)
        if (!strcmp(p[i].name, name)) { *out = p[i]; found = true; }
    free(p);
    return found;
}

/* Write the whole file again with this lesson's entry changed, through
 * util/afile.h: a temp file in the same folder, fsync'd and renamed over
 * the old one (a crash or a full disk leaves the old file or the new one,
 * never half of one). */
static int prog_save(const char *name, int step, int total, bool done, char *why, size_t cap)
{
    char dir[PATH_MAX], path[PATH_MAX + 16];
    if (!afile_state_dir(dir, sizeof dir)) { snprintf(why, cap, "%s", _("neither XDG_STATE_HOME nor HOME is set")); return 1; }
    if (afile_mkdirs(dir) != 0) { snprintf(why, cap, _("cannot make %s: %s"), dir, strerror(errno)); return 1; }
    snprintf(path, sizeof path, "%s/lessons", dir);
    prog_t *p = malloc(PROG_MAX * sizeof *p);
    if (!p) { snprintf(why, cap, "%s", _("out of memory")); return 1; }
    int n = lesson_prog_read(p, PROG_MAX), k = -1;
    for (int i = 0; i < n; i++) if (!strcmp(p[i].name, name)) k = i;
    if (k < 0 && n < PROG_MAX) k = n++;
    if (k >= 0) {
        snprintf(p[k].name, sizeof p[k].name, "%s", name);
        p[k].step = step;
        p[k].total = total;
        p[k].done = done;
    }
    afile_t a;
    if (!afile_open(&a, path, why, cap)) { free(p); return 1; }
    afile_printf(&a, "# nnpad lesson progress: NAME STEP TOTAL [done] (written by nnpad; safe to delete)\n");
    for (int i = 0; i < n; i++)
        afile_printf(&a, "%s %d %d%s\n", p[i].name, p[i].step, p[i].total, p[i].done ? " done" : "");
    free(p);
    return afile_commit(&a, why, cap) != 0;
}

/* The progress key: the file's stem without blanks. */
static void key_of(const lesson_t *l, char *out, size_t cap)
{
    snprintf(out, cap, "%s", l->name);
    for (char *p = out; *p; p++) if (isspace((unsigned char)*p)) *p = '_';
}

static void save_now(lesson_runner_t *lr, FILE *out, bool done)
{
    if (lr->auto_mode || !lr->cur) return;
    char key[256], why[PATH_MAX + 400];
    key_of(lr->cur, key, sizeof key);
    if (prog_save(key, done ? lr->cur->nsteps : lr->step, lr->cur->nsteps, done, why, sizeof why) != 0 && !lr->save_warned) {
        fprintf(out, L(lr, M_SAVE_FAILED), why);
        fputc('\n', out);
        lr->save_warned = true;
    }
}

/* ---- the per-step record for the student's report (lesson_report.c) ---- */

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Record ev at the current step with the time since the last record
 * (nothing under --auto, as progress). */
static void record_step(lesson_runner_t *lr, lesson_rec_ev_t ev, const char *answer, FILE *out)
{
    if (lr->auto_mode || !lr->cur || lr->step >= lr->cur->nsteps) return;
    double now = now_seconds(), secs = lr->step_since > 0 ? now - lr->step_since : 0;
    lr->step_since = now;
    char why[PATH_MAX + 400];
    if (lesson_record(lr->cur, lr->step, ev, answer, secs, why, sizeof why) != 0 && !lr->save_warned && out) {
        fprintf(out, L(lr, M_SAVE_FAILED), why);
        fputc('\n', out);
        lr->save_warned = true;
    }
}

/* ---- showing a step ---- */

static void print_indented(FILE *out, const char *text, const char *pre)
{
    const char *p = text;
    while (*p) {
        const char *e = strchr(p, '\n');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        fprintf(out, "%s%.*s\n", pre, (int)n, p);
        p += n;
        if (*p) p++;
    }
}

/* A step's text as the student reads it: its inline markdown shown, not
 * printed.  *emphasis* and **strong** become bold, `code` a code colour on
 * a terminal (not under NO_COLOR, TERM=dumb or NNPAD_TEST); elsewhere (a
 * pipe, a transcript) the marks are dropped and the words stay.  A '*'
 * opens emphasis only before a non-blank with a closing '*' after a
 * non-blank on the same line, so "x * 2" stays as it is.  Returns a
 * malloc'd string (hints and texts are short). */
static char *md_render(const char *text, FILE *out)
{
    const char *tm = getenv("TERM");
    bool ansi = isatty(fileno(out)) && !getenv("NO_COLOR") && !getenv("NNPAD_TEST") && !(tm && !strcmp(tm, "dumb"));
    char *buf = NULL;
    size_t n = 0;
    FILE *m = open_memstream(&buf, &n);
    if (!m) return xstrdup(text);
    for (const char *p = text; *p;) {
        if (*p == '`') {
            const char *e = strchr(p + 1, '`'), *nl = strchr(p + 1, '\n');
            if (e && (!nl || e < nl) && e > p + 1) {
                fprintf(m, ansi ? "\033[36m%.*s\033[39m" : "%.*s", (int)(e - p - 1), p + 1);
                p = e + 1;
                continue;
            }
        } else if (*p == '*') {
            int k = p[1] == '*' ? 2 : 1;
            const char *w = p + k;
            if (*w && *w != ' ' && *w != '*' && *w != '\n') {
                const char *e = w + 1;
                while (*e && *e != '\n' && !(e[0] == '*' && e[-1] != ' ' && (k == 1 || e[1] == '*'))) e++;
                if (*e == '*') {
                    fprintf(m, ansi ? "\033[1m%.*s\033[22m" : "%.*s", (int)(e - w), w);
                    p = e + k;
                    continue;
                }
            }
        }
        fputc(*p++, m);
    }
    fclose(m);
    return buf ? buf : xstrdup("");
}

static void print_text(FILE *out, const char *text)
{
    char *r = md_render(text, out);
    fputs(r, out);
    if (*r && r[strlen(r) - 1] != '\n') fputc('\n', out);
    free(r);
}

static bool gpu_missing(char *why, size_t cap)
{
    const char *w = NULL;
    if (backend_cuda_load(&w)) return false;
    snprintf(why, cap, "%s", w ? w : "no GPU");
    return true;
}

/* Show the current step: header, text, choices; run its code when
 * run_code (a demonstration, or the set-up of an asking step).  Returns
 * the code's status (0 without code); *figs: figures it made. */
static int show_step(lesson_runner_t *lr, FILE *out, bool run_code, int *figs)
{
    lesson_t *l = lr->cur;
    lesson_step_t *st = &l->steps[lr->step];
    int rc = 0;
    if (figs) *figs = 0;
    fputc('\n', out);
    fprintf(out, L(lr, M_STEP), l->title[lr->lang], lr->step + 1, l->nsteps);
    fputc('\n', out);
    print_text(out, st->text[lr->lang]);
    if (st->needs_gpu) {
        char why[300];
        if (gpu_missing(why, sizeof why)) {
            fprintf(out, L(lr, M_NEEDS_GPU), why);
            fputc('\n', out);
        }
    }
    if (st->code && *st->code) {
        fputc('\n', out);
        char *owned;
        print_indented(out, in_lang(lr, st->code, &owned), "    ");
        free(owned);
        if (run_code) {
            fflush(out);
            int before = view_cell_count();
            if (lr->check_rejects) {
                /* kept, to find the numbers the step's text quotes */
                free(lr->shown);
                lr->shown = NULL;
                FILE *m = open_memstream(&lr->shown, &lr->nshown);
                rc = run_text(lr, st->code, m ? m : out);
                if (m) { fclose(m); fwrite(lr->shown, 1, lr->nshown, out); seen_add(lr, lr->shown, lr->nshown); }
            } else {
                rc = run_text(lr, st->code, out);
            }
            for (int i = before; i < view_cell_count(); i++)
                if (view_cell_at(i) && view_cell_at(i)->fig) {
                    if (figs) (*figs)++;
                    if (lr->check_rejects) seen_figure(lr, view_cell_at(i)->fig);
                }
        }
    }
    if (st->check == CK_CHOICE) {
        const char *c = st->choices[lr->lang];
        while (*c) {
            while (*c == ' ' || *c == '|') c++;
            const char *e = strchr(c, '|');
            size_t n = e ? (size_t)(e - c) : strlen(c);
            while (n && c[n - 1] == ' ') n--;
            if (n) fprintf(out, "    %.*s\n", (int)n, c);
            c = e ? e + 1 : c + strlen(c);
        }
    }
    fputs(L(lr, st->check == CK_CHOICE ? M_ASK_CHOICE : st->check ? M_ASK : st->code ? M_DEMO_NEXT : M_TEXT_NEXT), out);
    fputc('\n', out);
    fflush(out);
    return rc;
}

/* ---- checks ---- */

/* why an answer is not the value asked for: its shape when that differs
 * (both shapes), else the message m (with arg) */
static void shape_or(lesson_runner_t *lr, const value_t *got, const value_t *want, lesson_msg_t m, const char *arg,
                     char *why, size_t cap)
{
    if (got && want && got->kind == V_TENSOR && want->kind == V_TENSOR) {
        if (!tensor_same_shape(got, want)) {
            lr->shape_differs = true;
            char a[96], b[96];
            tensor_shape_str(a, sizeof a, got->u.t.ndim, got->u.t.shape);
            tensor_shape_str(b, sizeof b, want->u.t.ndim, want->u.t.shape);
            snprintf(why, cap, L(lr, M_WHY_SHAPE), a, b);
            return;
        }
    }
    if (arg) snprintf(why, cap, L(lr, m), arg);
    else snprintf(why, cap, "%s", L(lr, m));
}

/* Elements of a and b equal within the rounding of the less precise of
 * their dtypes: after rounding both to it, |a - b| at most 8 of its ulps
 * relative to the larger of |a|, |b| and the largest |b| in the tensor
 * (two orders of the same sum, sigmoid(a - b) against a 2-class softmax,
 * differ by an ulp or two); int64 exactly; NaN equals NaN, an infinity
 * only itself.  Same shape required. */
static bool same_values(const value_t *a, const value_t *b, dtype_t prec)
{
    const tensor_t *x = &a->u.t, *y = &b->u.t;
    if (!tensor_same_shape(a, b)) return false;
    dtype_t dt = (dtype_t)x->dtype;
    const dtype_traits_t *tx = &dtype_traits[x->dtype], *ty = &dtype_traits[y->dtype];
    if (tx->is_float && ty->is_float && ty->man_bits < tx->man_bits) dt = (dtype_t)y->dtype;
    if (!tx->is_float && ty->is_float) dt = (dtype_t)y->dtype;
    bool fl = dtype_traits[dt].is_float;
    double scale = 0, tol = fl ? 8 * ldexp(1.0, -dtype_traits[dt].man_bits) : 0;
    for (int64_t i = 0; fl && i < y->size; i++) {
        double q = fabs(tensor_get_f64(b, i));
        if (isfinite(q) && q > scale) scale = q;
    }
    for (int64_t i = 0; i < x->size; i++) {
        double p = tensor_get_f64(a, i), q = tensor_get_f64(b, i);
        if (fl) { p = dtype_round_f64(dt, p); q = dtype_round_f64(dt, q); }
        /* an infinity (or NaN) is what a step about overflow asks for:
         * a finite number that only rounds to it does not pass, nor the
         * other way round (each as it is shown: a literal such as
         * 100000.0 in the session's precision, 100000 as an integer) */
        double pa = tensor_get_f64(a, i), qb = tensor_get_f64(b, i);
        if (tx->is_float) pa = dtype_round_f64(x->weak ? prec : (dtype_t)x->dtype, pa);
        if (ty->is_float) qb = dtype_round_f64(y->weak ? prec : (dtype_t)y->dtype, qb);
        if (isfinite(pa) != isfinite(qb)) return false;
        if (isnan(p) && isnan(q)) continue;
        if (p == q) continue;
        if (!fl || !isfinite(p) || !isfinite(q)) return false;
        if (fabs(p - q) > tol * fmax(fmax(fabs(p), fabs(q)), scale)) return false;
    }
    return true;
}

/* @check exact: the same dtype, shape and bits in every element (a step
 * about where the rounding happens: fp16(X @ W) is not fp16(X) @ fp16(W),
 * though the two are within an ulp); NaN equals NaN. */
static bool same_bits(const value_t *a, const value_t *b)
{
    if (a->kind != V_TENSOR || b->kind != V_TENSOR || a->u.t.sym || b->u.t.sym) return false;
    if (a->u.t.dtype != b->u.t.dtype || !tensor_same_shape(a, b)) return false;
    for (int64_t i = 0; i < a->u.t.size; i++) {
        double p = tensor_get_f64(a, i), q = tensor_get_f64(b, i);
        if (isnan(p) && isnan(q)) continue;
        if (p != q || signbit(p) != signbit(q)) return false;
    }
    return true;
}

static char *printed(lesson_runner_t *lr, const value_t *v)
{
    char *buf = NULL;
    size_t n = 0;
    FILE *m = open_memstream(&buf, &n);
    if (!m) return NULL;
    print_value(m, v, session_settings(lr->s), true);
    fclose(m);
    return buf;
}

static bool values_match(lesson_runner_t *lr, const value_t *got, const value_t *want)
{
    if (got->kind == V_TENSOR && want->kind == V_TENSOR) {
        if (got->u.t.sym || want->u.t.sym) return false;
        return same_values(got, want, session_settings(lr->s)->precision);
    }
    if (got->kind != want->kind) return false;
    char *p = printed(lr, got), *q = printed(lr, want);
    bool same = p && q && !strcmp(p, q);
    free(p);
    free(q);
    return same;
}

static bool truthy(const value_t *v)
{
    if (v->kind != V_TENSOR || v->u.t.sym || v->u.t.size == 0) return false;
    for (int64_t i = 0; i < v->u.t.size; i++) if (tensor_get_f64(v, i) == 0) return false;
    return true;
}

/* Evaluate text with session_eval and park the result under the hidden
 * name (so that a later error's sweep cannot free it); NULL on error. */
static value_t *eval_parked(lesson_runner_t *lr, const char *name, const char *text, FILE *errout)
{
    /* the check's own expression in the runner's language (the student's
     * input as typed) */
    char *owned = NULL;
    if (!strcmp(name, "__lesson_want__")) text = in_lang(lr, text, &owned);
    bool conf = afile_confine_code(true);
    value_t *v = session_eval(lr->s, text, errout);
    afile_confine_code(conf);
    free(owned);
    if (!v) { session_set_var(lr->s, name, NULL); return NULL; }
    session_set_var(lr->s, name, v);
    session_release(v);
    return session_var(lr->s, name);
}

static void unpark(lesson_runner_t *lr)
{
    session_set_var(lr->s, "__lesson_got__", NULL);
    session_set_var(lr->s, "__lesson_want__", NULL);
}

/* An equiv step's names: save what the student had (under hidden names),
 * then bind each to a fresh draw of its expression. */
static bool bind_draw(lesson_runner_t *lr, const lesson_step_t *st, FILE *errout)
{
    for (int i = 0; i < st->nbind; i++) {
        char *owned;
        const char *e = in_lang(lr, st->bind_expr[i], &owned);
        bool conf = afile_confine_code(true);
        value_t *v = session_eval(lr->s, e, errout);
        afile_confine_code(conf);
        free(owned);
        if (!v) return false;
        session_set_var(lr->s, st->bind_name[i], v);
        session_release(v);
    }
    return true;
}

/* The step's draw, made once while the step is open (kept under
 * __lesson_draw_NAME): the student sees the same W1 at every input. */
static void bind_fixed(lesson_runner_t *lr, const lesson_step_t *st, FILE *errout)
{
    char hidden[300];
    bool have = st->nbind > 0;
    for (int i = 0; i < st->nbind; i++) {
        snprintf(hidden, sizeof hidden, "__lesson_draw_%s", st->bind_name[i]);
        if (!session_var(lr->s, hidden)) have = false;
    }
    if (!have) {
        /* drawn from a stream of the step's own (seeded by the lesson's
         * name and the step), the student's stream left where it was: the
         * same values when the step is shown again (:back, a resume) */
        nn_state_t *ns = nn_state();
        uint64_t keep[4];
        bool ready = ns ? ns->rng_ready : false;
        if (ns) memcpy(keep, ns->rng, sizeof keep);
        uint64_t h = 1469598103934665603u;
        for (const char *c = lr->cur ? lr->cur->name : ""; *c; c++) h = (h ^ (unsigned char)*c) * 1099511628211u;
        h ^= (uint64_t)(st - (lr->cur ? lr->cur->steps : st)) * 0x9e3779b97f4a7c15u;
        char seed[64];
        snprintf(seed, sizeof seed, "seed(%lld)", (long long)(h >> 2));
        value_t *sv = session_eval(lr->s, seed, errout);
        if (sv) session_release(sv);
        bool drawn = bind_draw(lr, st, errout);
        if (ns) { memcpy(ns->rng, keep, sizeof keep); ns->rng_ready = ready; }
        if (!drawn) return;
    }
    for (int i = 0; i < st->nbind; i++) {
        snprintf(hidden, sizeof hidden, "__lesson_draw_%s", st->bind_name[i]);
        if (have) session_set_var(lr->s, st->bind_name[i], session_var(lr->s, hidden));
        else session_set_var(lr->s, hidden, session_var(lr->s, st->bind_name[i]));
    }
}

/* Forget the step's draw (the step is left). */
static void draws_drop(lesson_runner_t *lr, const lesson_step_t *st)
{
    char hidden[300];
    for (int i = 0; i < st->nbind; i++) {
        snprintf(hidden, sizeof hidden, "__lesson_draw_%s", st->bind_name[i]);
        session_set_var(lr->s, hidden, NULL);
    }
}

static void bind_begin(lesson_runner_t *lr, const lesson_step_t *st, FILE *errout)
{
    char hidden[300];
    for (int i = 0; i < st->nbind; i++) {
        value_t *old = session_var(lr->s, st->bind_name[i]);
        lr->had[i] = old != NULL;
        snprintf(hidden, sizeof hidden, "__lesson_saved_%s", st->bind_name[i]);
        session_set_var(lr->s, hidden, old);
    }
    lr->bound = true;
    bind_fixed(lr, st, errout);
}

static void bind_end(lesson_runner_t *lr, const lesson_step_t *st)
{
    if (!lr->bound) return;
    char hidden[300];
    for (int i = 0; i < st->nbind; i++) {
        snprintf(hidden, sizeof hidden, "__lesson_saved_%s", st->bind_name[i]);
        session_set_var(lr->s, st->bind_name[i], lr->had[i] ? session_var(lr->s, hidden) : NULL);
        session_set_var(lr->s, hidden, NULL);
    }
    lr->bound = false;
}

/* Did the input (text, its status) answer the step?  If not, why says so
 * in the runner's language. */
static bool check_input(lesson_runner_t *lr, const lesson_step_t *st, const char *text, int status,
                        char *why, size_t cap)
{
    FILE *quiet = null_stream(lr);
    FILE *errout = quiet ? quiet : stderr;
    bool ok = false;
    char a[128], b[128];
    if (status != 0) {
        snprintf(why, cap, "%s", L(lr, M_WHY_ERROR));
        return false;
    }
    value_t *got = session_last_value(lr->s);
    /* @forbid / @require: how the answer is written */
    if (text && (st->forbid || st->require)) {
        char *all = NULL;
        if (lr->worked && asprintf(&all, "%s\n%s", lr->worked, text) < 0) all = NULL;
        const char *t = all ? all : text;
        const char *bad = lesson_names_check(t, st->forbid, st->require);
        bool fb = bad && st->forbid && lesson_uses_name(t, bad);
        if (bad) snprintf(why, cap, L(lr, fb ? M_WHY_FORBID : M_WHY_REQUIRE), bad);
        free(all);
        if (bad) return false;
    }
    switch (st->check) {
    case CK_VALUE: {
        if (!got) { snprintf(why, cap, "%s", L(lr, M_WHY_NOVALUE)); break; }
        session_set_var(lr->s, "__lesson_got__", got);
        got = session_var(lr->s, "__lesson_got__");
        value_t *want = eval_parked(lr, "__lesson_want__", st->expr, stderr);
        /* a float the step computes in a named type (fp16(X) @ ...) is
         * asked for in that type: the same numbers in fp32 are another
         * answer (a literal such as 0.5 takes any) */
        if (want && got->kind == V_TENSOR && want->kind == V_TENSOR && !got->u.t.weak && !want->u.t.weak &&
            dtype_traits[got->u.t.dtype].is_float && dtype_traits[want->u.t.dtype].is_float &&
            got->u.t.dtype != want->u.t.dtype && tensor_same_shape(got, want)) {
            snprintf(why, cap, L(lr, M_WHY_DTYPE), dtype_traits[got->u.t.dtype].name, dtype_traits[want->u.t.dtype].name);
            break;
        }
        ok = want && (st->exact ? same_bits(got, want) : values_match(lr, got, want));
        if (!ok) shape_or(lr, got, want, M_WHY_VALUE, NULL, why, cap);
        break;
    }
    case CK_SHAPE:
        if (!got || got->kind != V_TENSOR) { snprintf(why, cap, "%s", L(lr, M_WHY_NOVALUE)); break; }
        ok = got->u.t.ndim == st->ndim;
        for (int d = 0; ok && d < st->ndim; d++) ok = got->u.t.shape[d] == st->shape[d];
        if (!ok) {
            tensor_shape_str(a, sizeof a, got->u.t.ndim, got->u.t.shape);
            tensor_shape_str(b, sizeof b, st->ndim, st->shape);
            snprintf(why, cap, L(lr, M_WHY_SHAPE), a, b);
        }
        break;
    case CK_DTYPE:
        if (got && got->kind == V_STR) {   /* (a @ b).dtype answers "what dtype is it?" too */
            const char *nm = got->u.str.s;
            bool known = false;
            for (int d = 0; d < DT_COUNT && !known; d++)
                known = strlen(dtype_traits[d].name) == got->u.str.len && !memcmp(dtype_traits[d].name, nm, got->u.str.len);
            if (known) {
                ok = strlen(st->name) == got->u.str.len && !memcmp(st->name, nm, got->u.str.len);
                char nmb[32];
                snprintf(nmb, sizeof nmb, "%.*s", (int)got->u.str.len, nm);
                if (!ok) snprintf(why, cap, L(lr, M_WHY_DTYPE), nmb, st->name);
                break;
            }
        }
        if (!got || got->kind != V_TENSOR) { snprintf(why, cap, "%s", L(lr, M_WHY_NOVALUE)); break; }
        ok = !strcmp(dtype_traits[got->u.t.dtype].name, st->name);
        if (!ok) snprintf(why, cap, L(lr, M_WHY_DTYPE), dtype_traits[got->u.t.dtype].name, st->name);
        break;
    case CK_VAR:
        if (!session_var(lr->s, st->name)) { snprintf(why, cap, L(lr, M_WHY_NOVAR), st->name); break; }
        if (!st->expr) { ok = true; break; }
        {
            value_t *v = eval_parked(lr, "__lesson_want__", st->expr, errout);
            ok = v && truthy(v);
        }
        if (!ok) snprintf(why, cap, L(lr, M_WHY_VARFALSE), st->name);
        break;
    case CK_EQUIV: {
        ok = true;
        value_t *g = NULL, *w = NULL;
        for (int r = 0; r < EQUIV_ROUNDS && ok; r++) {
            if (r > 0 && !bind_draw(lr, st, stderr)) { ok = false; break; }
            g = eval_parked(lr, "__lesson_got__", text, errout);
            w = eval_parked(lr, "__lesson_want__", st->expr, stderr);
            ok = g && w && values_match(lr, g, w);
        }
        if (!ok) {
            size_t used = 0;
            a[0] = 0;
            for (int i = 0; i < st->nbind && used < sizeof a; i++)
                used += (size_t)snprintf(a + used, sizeof a - used, "%s%s", i ? ", " : "", st->bind_name[i]);
            shape_or(lr, g, w, M_WHY_EQUIV, a, why, cap);
        }
        break;
    }
    case CK_FIGURE:
        for (int i = lr->cells_before; i < view_cell_count() && !ok; i++) {
            const view_cell_t *c = view_cell_at(i);
            if (!c || !c->fig || !c->fig->name) continue;
            size_t n = strlen(st->name);
            ok = !strcmp(c->fig->name, st->name) || (!strncmp(c->fig->name, st->name, n) && c->fig->name[n] == '-');
        }
        if (!ok) snprintf(why, cap, L(lr, M_WHY_FIGURE), st->name);
        break;
    case CK_CHOICE:
        ok = text && !strcmp(text, st->name);
        if (!ok) snprintf(why, cap, "%s", L(lr, M_WHY_CHOICE));
        break;
    case CK_NONE:
        ok = true;
        break;
    }
    unpark(lr);
    return ok;
}

/* ---- moving between steps ---- */

/* Leaving the current step (or :play): the names :play held go back to
 * the student's, and the step's draw is forgotten. */
static void leave_play(lesson_runner_t *lr)
{
    if (lr->play_bound) bind_end(lr, &lr->cur->steps[lr->step]);
    lr->play_bound = false;
    lr->play = false;
}

static void leave_step(lesson_runner_t *lr)
{
    free(lr->worked);
    lr->worked = NULL;
    if (!lr->cur || lr->step < 0 || lr->step >= lr->cur->nsteps) return;
    leave_play(lr);
    draws_drop(lr, &lr->cur->steps[lr->step]);
}

static void finish(lesson_runner_t *lr, FILE *out)
{
    lr->step = lr->cur->nsteps;
    save_now(lr, out, true);
    fputc('\n', out);
    fprintf(out, L(lr, M_DONE), lr->cur->title[lr->lang]);
    fputc('\n', out);
    snaps_keep(lr);
    lesson_free(lr->cur);
    lr->cur = NULL;
    lr->play = false;
    session_keep_last(lr->s, false);
}

/* ---- step snapshots (the struct's snap) ---- */

static void snaps_push(lesson_runner_t *lr, int step)
{
    if (lr->nsnap == lr->capsnap) {
        int c = lr->capsnap ? 2 * lr->capsnap : 16;
        undo_level_t *a = realloc(lr->snap, (size_t)c * sizeof *a);
        if (!a) abort();
        lr->snap = a;
        int *b = realloc(lr->snap_step, (size_t)c * sizeof *b);
        if (!b) abort();
        lr->snap_step = b;
        lr->capsnap = c;
    }
    undo_begin(&lr->snap[lr->nsnap]);
    lr->snap_step[lr->nsnap++] = step;
}

/* Put the session back as it was when step was entered: the levels of it
 * and of every later step, newest first.  The limit is lifted meanwhile
 * (a rollback may allocate and must not fail), as the statements' own
 * restore does (session.c). */
static void snaps_back_to(lesson_runner_t *lr, int step)
{
    if (!lr->nsnap || lr->snap_step[lr->nsnap - 1] < step) return;
    size_t lim = mem_limit();
    mem_set_limit((size_t)-1 / 2);
    err_frame_t f;
    if (err_try(&f) == 0) {
        while (lr->nsnap > 0 && lr->snap_step[lr->nsnap - 1] >= step) undo_rollback(&lr->snap[--lr->nsnap]);
        err_pop(&f);
    } else {
        nn_abort(__FILE__, __LINE__, "cannot restore the step's variables");
    }
    mem_set_limit(lim);
}

/* The lesson ends (done, paused, another started): its changes stay. */
static void snaps_keep(lesson_runner_t *lr)
{
    while (lr->nsnap > 0) undo_commit(&lr->snap[--lr->nsnap]);
}

/* The settings a step is shown in: recorded the first time, put back
 * when it is shown again (:back into a step that ran in fp16 runs in fp16
 * again, whatever later steps set; the rounding mode and :ftz too).
 * The device stays as it is. */
static void step_settings(lesson_runner_t *lr, int step)
{
    if (step < 0 || step >= lr->nat) return;
    session_settings_t *cur = session_settings(lr->s);
    if (!lr->at_rec[step]) { lr->at[step] = *cur; lr->at_rec[step] = true; return; }
    const session_settings_t *was = &lr->at[step];
    cur->precision = was->precision;
    cur->accumulate_same = was->accumulate_same;
    cur->tf32 = was->tf32;
    cur->digits = was->digits;
    cur->numerics_check = was->numerics_check;
    cur->policy = was->policy;
    cur->rounding = was->rounding;
    cur->ftz = was->ftz;
}

static void settings_reset(lesson_runner_t *lr, int nsteps)
{
    lr->nat = 0;
    session_settings_t *a = realloc(lr->at, (size_t)(nsteps > 0 ? nsteps : 1) * sizeof *a);
    if (!a) return;
    lr->at = a;
    bool *r = realloc(lr->at_rec, (size_t)(nsteps > 0 ? nsteps : 1) * sizeof *r);
    if (!r) return;
    lr->at_rec = r;
    memset(r, 0, (size_t)(nsteps > 0 ? nsteps : 1) * sizeof *r);
    lr->nat = nsteps;
}

static void go_to(lesson_runner_t *lr, int step, FILE *out, bool run_code)
{
    record_step(lr, REC_TIME, NULL, out);
    leave_step(lr);
    lr->step = step;
    if (step > lr->reached) lr->reached = step;
    lr->tries = 0;
    lr->play = false;
    if (step >= lr->cur->nsteps) { finish(lr, out); return; }
    save_now(lr, out, false);
    if (run_code) {
        snaps_back_to(lr, step);   /* :back: the session as this step first found it */
        snaps_push(lr, step);
        step_settings(lr, step);
    }
    show_step(lr, out, run_code, NULL);
    lr->step_since = now_seconds();
    if (step < lr->reached && lr->cur->steps[step].check != CK_NONE) {
        fprintf(out, "%s\n", L(lr, M_BACK_DONE));
        fflush(out);
    }
}

static void respond(lesson_runner_t *lr, bool ok, const char *why, const char *answer, FILE *out)
{
    const lesson_step_t *st = &lr->cur->steps[lr->step];
    record_step(lr, ok ? REC_CORRECT : REC_ATTEMPT, answer, out);
    if (ok) {
        fprintf(out, "%s\n", L(lr, M_CORRECT));
        go_to(lr, lr->step + 1, out, true);
        return;
    }
    lr->tries++;
    if (lr->tries == 1 && st->hint[lr->lang]) {
        char *h = md_render(st->hint[lr->lang], out);
        fprintf(out, L(lr, M_WRONG_HINT), why, h);
        free(h);
    } else if (lr->tries == 1) {
        fprintf(out, L(lr, M_WRONG_NOHINT), why);
    } else {
        char *owned;
        fprintf(out, L(lr, M_OFFER), why, in_lang(lr, st->answer, &owned));
        free(owned);
    }
    fputc('\n', out);
    fflush(out);
}

static bool checking(const lesson_runner_t *lr)
{
    return lr && lr->cur && !lr->busy && !lr->play && lr->cur->steps[lr->step].check != CK_NONE;
}

/* one statement "name = expression" (not ==, no ';', one line) */
static bool plain_assignment(const char *t)
{
    while (isspace((unsigned char)*t)) t++;
    if (!(isalpha((unsigned char)*t) || *t == '_')) return false;
    while (isalnum((unsigned char)*t) || *t == '_') t++;
    while (*t == ' ' || *t == '\t') t++;
    if (t[0] != '=' || t[1] == '=') return false;
    return !strchr(t, ';') && !strchr(t, '\n');
}

/* x.shape() (a habit from other languages): true, and *w the length of
 * the part before ".shape" */
static bool shape_called(const char *t, size_t *w)
{
    t += strspn(t, " \t");
    const char *d = strstr(t, ".shape");
    if (!d) return false;
    const char *q = d + 6;
    while (*q == ' ') q++;
    if (*q != '(') return false;
    q++;
    while (*q == ' ') q++;
    if (*q != ')') return false;
    *w = (size_t)(d - t);
    return true;
}

/* Looking at something: a name, or names joined by dots (W1, W1.shape,
 * l.W), perhaps with ';' and spaces around */
static bool looking(const char *t)
{
    t += strspn(t, " \t");
    if (!(isalpha((unsigned char)*t) || *t == '_')) return false;
    for (;;) {
        while (isalnum((unsigned char)*t) || *t == '_') t++;
        if (*t != '.') break;
        t++;
        if (!(isalpha((unsigned char)*t) || *t == '_')) return false;
    }
    t += strspn(t, " \t;\n");
    return *t == 0;
}

/* Does the input define name (name = ..., def name(, @trace def name(,
 * anywhere among its statements)? */
static bool defines(const char *t, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = strstr(t, name); p; p = strstr(p + 1, name)) {
        if (p > t && (isalnum((unsigned char)p[-1]) || p[-1] == '_' || p[-1] == '.')) continue;
        const char *q = p + n;
        if (isalnum((unsigned char)*q) || *q == '_') continue;
        while (*q == ' ' || *q == '\t') q++;
        if (*q == '=' && q[1] != '=') return true;
        const char *b = p;
        while (b > t && (b[-1] == ' ' || b[-1] == '\t')) b--;
        if (b - t >= 3 && !strncmp(b - 3, "def", 3)) return true;
    }
    return false;
}

/* the letters a choice step offers, "a, b, c" */
static void offered(const lesson_runner_t *lr, const lesson_step_t *st, char *offer, size_t cap)
{
    size_t used = 0;
    offer[0] = 0;
    const char *c = st->choices[lr->lang];
    for (const char *p = c; p && *p && used + 4 < cap; p++)
        if (isalpha((unsigned char)*p) && p[1] == ')' && (p == c || p[-1] == ' ' || p[-1] == '|'))
            used += (size_t)snprintf(offer + used, cap - used, "%s%c", used ? ", " : "", *p);
}

bool lesson_take_input(lesson_runner_t *lr, const char *text, size_t len, FILE *out)
{
    if (!checking(lr) || lr->cur->steps[lr->step].check != CK_CHOICE) return false;
    while (len && isspace((unsigned char)*text)) { text++; len--; }
    while (len && isspace((unsigned char)text[len - 1])) len--;
    if (len == 2 && text[1] == ')') len = 1;
    if (len != 1 || !isalpha((unsigned char)text[0])) return false;
    const lesson_step_t *st = &lr->cur->steps[lr->step];
    char letter[2] = { (char)tolower((unsigned char)text[0]), 0 };
    char offer[64];
    offered(lr, st, offer, sizeof offer);
    if (!strchr(offer, letter[0]))
        return false;          /* not on offer: a name (x, y, ...) runs as usual */
    char why[300];
    bool ok = check_input(lr, st, letter, 0, why, sizeof why);
    respond(lr, ok, why, letter, out);
    return true;
}

void lesson_before_input(lesson_runner_t *lr)
{
    if (!checking(lr)) return;
    const lesson_step_t *st = &lr->cur->steps[lr->step];
    lr->cells_before = view_cell_count();
    if (st->check == CK_EQUIV) bind_begin(lr, st, stderr);
}

void lesson_after_input(lesson_runner_t *lr, const char *text, size_t len, int status, FILE *out)
{
    if (!checking(lr)) return;
    const lesson_step_t *st = &lr->cur->steps[lr->step];
    if (st->check == CK_CHOICE) {
        /* any input but a letter on offer (lesson_take_input) ran as usual:
         * not an answer, so not a wrong one */
        char offer[64];
        offered(lr, st, offer, sizeof offer);
        fprintf(out, L(lr, M_NOT_A_CHOICE), offer);
        fputc('\n', out);
        fflush(out);
        return;
    }
    char *t = strndup(text, len);
    if (!t) return;
    char why[400];
    if (status != 0) {
        /* a failed input is not an answer: free, and nothing is revealed */
        if (st->check == CK_EQUIV) bind_end(lr, st);
        size_t w = 0;
        if (shape_called(t, &w)) {
            fprintf(out, L(lr, M_HINT_SHAPE_CALL), (int)w, t + strspn(t, " \t"));
            fputc('\n', out);
        }
        fprintf(out, "%s\n", L(lr, M_FREE_ERROR));
        fflush(out);
        free(t);
        return;
    }
    bool figure_new = false;
    for (int i = lr->cells_before; i < view_cell_count() && !figure_new; i++)
        figure_new = view_cell_at(i) && view_cell_at(i)->fig;
    lr->shape_differs = false;
    bool ok = check_input(lr, st, t, status, why, sizeof why);
    if (st->check == CK_EQUIV) bind_end(lr, st);
    /* an input is an attempt only when it makes the kind of thing the
     * step asks for; looking around (a name, x.shape, a value of another
     * shape) is free and reveals nothing */
    if (!ok) {
        const char *free_msg = NULL;
        char arg[400] = "";
        if (looking(t)) free_msg = "";
        else if (st->check == CK_VAR && !defines(t, st->name)) { free_msg = L(lr, M_FREE_VAR); snprintf(arg, sizeof arg, "%s", st->name); }
        else if (st->check == CK_FIGURE && !figure_new) { free_msg = L(lr, M_FREE_FIGURE); snprintf(arg, sizeof arg, "%s", st->name); }
        else if ((st->check == CK_VALUE || st->check == CK_EQUIV) && lr->shape_differs && !plain_assignment(t)) {
            free_msg = L(lr, M_FREE_SHAPE);
            snprintf(arg, sizeof arg, "%s", why);
        }
        if (free_msg) {
            if (*free_msg) {
                fprintf(out, free_msg, arg);
                fputc('\n', out);
                fflush(out);
            }
            free(t);
            return;
        }
    }
    /* a plain assignment (y = sigmoid(9)) that does not pass a value,
     * shape or dtype check is a student working towards the answer, not a
     * wrong answer: said, not counted */
    if (!ok && status == 0 && (st->check == CK_VALUE || st->check == CK_SHAPE || st->check == CK_DTYPE) && plain_assignment(t)) {
        const char *q = t;
        while (isspace((unsigned char)*q)) q++;
        size_t w = 0;
        while (isalnum((unsigned char)q[w]) || q[w] == '_') w++;
        fprintf(out, L(lr, M_ASSIGNED), (int)w, q);
        fputc('\n', out);
        fflush(out);
        char *more = NULL;
        if (asprintf(&more, "%s%s%s", lr->worked ? lr->worked : "", lr->worked ? "\n" : "", t) >= 0) {
            free(lr->worked);
            lr->worked = more;
        }
        free(t);
        return;
    }
    respond(lr, ok, why, t, out);
    free(t);
}

/* ---- the commands ---- */

static int fail(lesson_runner_t *lr, char *err, size_t cap, lesson_msg_t m, ...)
{
    va_list ap;
    va_start(ap, m);
    vsnprintf(err, cap, L(lr, m), ap);
    va_end(ap);
    return 1;
}

#define NEED_LESSON() do { if (!lr->cur) return fail(lr, err, cap, M_NO_LESSON); } while (0)

int lesson_list(lesson_runner_t *lr, FILE *out, char *err, size_t cap)
{
    char dir[PATH_MAX], tried[1024];
    char **names = NULL;
    int n = 0;
    if (lessons_dir(dir, sizeof dir, tried, sizeof tried)) n = list_files(dir, &names);
    else snprintf(dir, sizeof dir, "%s", tried);
    if (n == 0) {
        afile_list_free(names, n);
        return fail(lr, err, cap, M_LIST_NONE, dir);
    }
    fprintf(out, L(lr, M_LIST_HEAD), dir);
    fputc('\n', out);
    FILE *quiet = null_stream(lr);
    for (int i = 0; i < n; i++) {
        char path[PATH_MAX + NAME_MAX + 2];
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        lesson_t *l = quiet ? lesson_load(path, quiet) : NULL;
        char prog[64];
        prog_t p;
        char key[256];
        if (l) key_of(l, key, sizeof key);
        if (!l) snprintf(prog, sizeof prog, "(nnpad --check-lesson %s)", names[i]);
        /* a step this lesson does not have (a damaged file, or the lesson
         * shortened since): new, as :lesson starts it (it resumes only
         * within its steps) */
        else if (!prog_find(key, &p) || (!p.done && p.step >= l->nsteps)) snprintf(prog, sizeof prog, "%s", L(lr, M_LIST_NEW));
        else if (p.done) snprintf(prog, sizeof prog, "%s", L(lr, M_LIST_DONE));
        else snprintf(prog, sizeof prog, L(lr, M_LIST_AT), p.step + 1, l->nsteps);
        fprintf(out, "  %2d. %s  [%s]%s%s\n", isdigit((unsigned char)names[i][0]) ? atoi(names[i]) : i + 1, l ? l->title[lr->lang] : names[i], prog,
                lr->cur && l && !strcmp(lr->cur->name, l->name) ? "  \u25c0" : "", "");
        lesson_free(l);
    }
    afile_list_free(names, n);
    fprintf(out, "%s\n", L(lr, M_LIST_HOW));
    return 0;
}

/* Load a lesson for the runner: errors into err (the first lines). */
static lesson_t *load_into(const char *path, char *err, size_t cap)
{
    char *buf = NULL;
    size_t n = 0;
    FILE *m = open_memstream(&buf, &n);
    if (!m) { snprintf(err, cap, "%s", _("out of memory")); return NULL; }
    lesson_t *l = lesson_load(path, m);
    fclose(m);
    if (!l) {
        while (n && buf[n - 1] == '\n') buf[--n] = 0;
        /* lesson_load's lines say "PATH:LINE: error: ..."; the REPL adds "error: " itself */
        snprintf(err, cap, _("the lesson file has errors:\n%s"), buf ? buf : "");
    }
    free(buf);
    return l;
}

int lesson_start(lesson_runner_t *lr, const char *which, FILE *out, char *err, size_t cap)
{
    if (!*which) {
        if (lr->cur) { show_step(lr, out, false, NULL); return 0; }
        return lesson_list(lr, out, err, cap);
    }
    char *path = resolve(which);
    if (!path) return fail(lr, err, cap, M_UNKNOWN, which);
    lesson_t *l = load_into(path, err, cap);
    free(path);
    if (!l) return 1;
    if (lr->cur) { record_step(lr, REC_TIME, NULL, out); save_now(lr, out, false); leave_step(lr); lesson_free(lr->cur); }
    snaps_keep(lr);
    lr->step_since = 0;
    lr->cur = l;
    lr->step = 0;
    lr->reached = 0;
    lr->tries = 0;
    settings_reset(lr, l->nsteps);
    lr->play = false;
    session_keep_last(lr->s, true);
    char key[256];
    key_of(l, key, sizeof key);
    prog_t p;
    int from = 0;
    if (prog_find(key, &p) && !lr->auto_mode) {
        if (p.done) {
            fprintf(out, "%s\n", L(lr, M_RESTART));
        } else if (p.step > 0 && p.step < l->nsteps) {
            /* the earlier steps' code again, quietly, so that the names
             * they made exist in this session */
            FILE *quiet = null_stream(lr);
            /* a figure already in the figures folder is not written again */
            view_set_replaying(true);
            for (int i = 0; i < p.step && quiet; i++) {
                const lesson_step_t *st = &l->steps[i];
                snaps_push(lr, i);
                step_settings(lr, i);
                if (st->code && *st->code) run_text(lr, st->code, quiet);
                if (st->check == CK_EQUIV && st->answer) {
                    bind_begin(lr, st, quiet);
                    run_text(lr, st->answer, quiet);
                    bind_end(lr, st);
                    draws_drop(lr, st);
                } else if (st->check != CK_NONE && st->check != CK_CHOICE && st->answer) {
                    run_text(lr, st->answer, quiet);
                }
            }
            view_set_replaying(false);
            from = p.step;
            lr->reached = from;
        }
    }
    if (from) {
        fprintf(out, L(lr, M_RESUME), from + 1);
        fputc('\n', out);
    }
    go_to(lr, from, out, true);
    return 0;
}

int lesson_next(lesson_runner_t *lr, FILE *out, char *err, size_t cap)
{
    NEED_LESSON();
    if (lr->play) {
        leave_play(lr);
        fprintf(out, "%s\n", L(lr, M_PLAY_BACK));
        show_step(lr, out, false, NULL);
        return 0;
    }
    /* a step answered before (reached again with :back) goes on */
    if (lr->cur->steps[lr->step].check != CK_NONE && lr->step >= lr->reached) return fail(lr, err, cap, M_ANSWER_FIRST);
    record_step(lr, REC_SEEN, NULL, out);
    go_to(lr, lr->step + 1, out, true);
    return 0;
}

int lesson_back(lesson_runner_t *lr, FILE *out, char *err, size_t cap)
{
    NEED_LESSON();
    if (lr->play) {
        /* :back from :play returns to the lesson, as :next does */
        leave_play(lr);
        fprintf(out, "%s\n", L(lr, M_PLAY_BACK));
        show_step(lr, out, false, NULL);
        return 0;
    }
    if (lr->step == 0) return fail(lr, err, cap, M_FIRST_STEP);
    go_to(lr, lr->step - 1, out, true);
    return 0;
}

int lesson_hint(lesson_runner_t *lr, FILE *out, char *err, size_t cap)
{
    NEED_LESSON();
    const lesson_step_t *st = &lr->cur->steps[lr->step];
    if (!st->hint[lr->lang]) return fail(lr, err, cap, M_NO_HINT);
    record_step(lr, REC_HINT, NULL, out);
    print_text(out, st->hint[lr->lang]);
    return 0;
}

int lesson_skip(lesson_runner_t *lr, FILE *out, char *err, size_t cap)
{
    NEED_LESSON();
    leave_play(lr);            /* the names :play held are the student's again first */
    const lesson_step_t *st = &lr->cur->steps[lr->step];
    record_step(lr, REC_SKIP, NULL, out);
    if (st->check == CK_CHOICE) {
        fprintf(out, L(lr, M_SKIP_CHOICE), st->answer);
        fputc('\n', out);
    } else if (st->check != CK_NONE) {
        /* the answer runs, so that later steps find what it makes */
        char *owned;
        fprintf(out, "%s\n    %s\n", L(lr, M_SKIPPED), in_lang(lr, st->answer, &owned));
        free(owned);
        fflush(out);
        if (st->check == CK_EQUIV) bind_begin(lr, st, stderr);
        run_text(lr, st->answer, out);
        if (st->check == CK_EQUIV) bind_end(lr, st);
    }
    (void)err; (void)cap;
    go_to(lr, lr->step + 1, out, true);
    return 0;
}

int lesson_play(lesson_runner_t *lr, FILE *out, char *err, size_t cap)
{
    NEED_LESSON();
    const lesson_step_t *st = &lr->cur->steps[lr->step];
    /* the step's names (its draw) are there to play with */
    if (!lr->play && st->check == CK_EQUIV) {
        bind_begin(lr, st, stderr);
        lr->play_bound = true;
    }
    lr->play = true;
    fprintf(out, "%s\n", L(lr, M_PLAY));
    return 0;
}

int lesson_quit(lesson_runner_t *lr, FILE *out, char *err, size_t cap)
{
    NEED_LESSON();
    record_step(lr, REC_TIME, NULL, out);
    save_now(lr, out, false);
    char key[256];
    key_of(lr->cur, key, sizeof key);
    /* the command that finds it again: its name when that names this
     * file, else the file's full path (a lesson from a file elsewhere) */
    char *named = resolve(key);
    char *mine = realpath(lr->cur->path, NULL), *theirs = named ? realpath(named, NULL) : NULL;
    const char *how = key;
    if (mine && (!theirs || strcmp(mine, theirs))) how = mine;
    fprintf(out, L(lr, M_QUIT), lr->step + 1, lr->cur->nsteps, how);
    free(named);
    free(mine);
    free(theirs);
    fputc('\n', out);
    leave_step(lr);
    snaps_keep(lr);
    lesson_free(lr->cur);
    lr->cur = NULL;
    lr->play = false;
    session_keep_last(lr->s, false);
    return 0;
}

int lesson_lang_cmd(lesson_runner_t *lr, const char *arg, FILE *out, char *err, size_t cap)
{
    if (*arg) {
        int k = lesson_lang_from_name(arg);
        if (k < 0) return fail(lr, err, cap, M_BAD_LANG, arg);
        lesson_set_lang(lr, k);
    }
    fprintf(out, "%s\n", L(lr, M_LANG));
    return 0;
}

/* ---- --auto and --check-lesson ---- */

/* Each step's code and @answer together get NNPAD_LESSON_STEP_SECONDS
 * (default 60; 0: no limit): past it they are interrupted as Ctrl-C would
 * (SIGALRM sets the interrupt flag) and the step fails saying so. */
#define STEP_SECONDS_DEFAULT 60.0
static volatile sig_atomic_t step_over;
static int progress_fd = -1;   /* --check-lesson's child: the step starting, to the parent */

static void on_step_alarm(int sig)
{
    (void)sig;
    step_over = 1;
    err_interrupt_flag = 1;
}

static double step_seconds(void)
{
    const char *e = getenv("NNPAD_LESSON_STEP_SECONDS");
    char *end;
    double v = e && *e ? strtod(e, &end) : STEP_SECONDS_DEFAULT;
    if (e && *e && (*end || !(v >= 0) || v > 1e6)) v = STEP_SECONDS_DEFAULT;
    return v;
}

static void step_timer(double secs) { plat_alarm(secs); }

/* ---- numbers a step's text quotes ---- */

/* The number at p (digits, an optional fraction, an optional exponent),
 * not part of a word: its length (0: none); *frac: it looks printed by
 * nnpad (an exponent, or a fraction and 4 significant digits or more);
 * *unit: half a step of its last digit. */
static size_t number_at(const char *p, const char *start, double *v, bool *frac, double *unit)
{
    if (!isdigit((unsigned char)*p) || (p > start && (isalnum((unsigned char)p[-1]) || p[-1] == '_' || p[-1] == '.' ||
                                                      p[-1] == '^')))
        return 0;
    const char *q = p;
    int after = 0;
    while (isdigit((unsigned char)*q)) q++;
    *frac = false;
    if (*q == '.' && isdigit((unsigned char)q[1])) {
        q++;
        while (isdigit((unsigned char)*q)) { q++; after++; }
        *frac = true;
    }
    int sig = 0;
    bool lead = true;
    for (const char *d = p; d < q; d++) {
        if (!isdigit((unsigned char)*d)) continue;
        if (*d != '0') lead = false;
        if (!lead) sig++;
    }
    int ex = 0;
    if ((*q == 'e' || *q == 'E') && (isdigit((unsigned char)q[1]) || ((q[1] == '-' || q[1] == '+') && isdigit((unsigned char)q[2])))) {
        ex = atoi(q + 1);
        q += 2;
        while (isdigit((unsigned char)*q)) q++;
        sig = 99;
    }
    if (sig < 4) *frac = false;     /* 0.25, 1.25: prose, not a printout */
    if (isalpha((unsigned char)*q) || *q == '_') return 0;   /* 2x, 1st, fp16 */
    *v = strtod(p, NULL);
    *unit = 0.5 * pow(10.0, ex - after);
    return (size_t)(q - p);
}

/* The first number in text that looks printed (outside `code`, and not
 * written in the step's code) that nothing in shown rounds to; NULL when
 * every one is there.  Writes it into bad, its line within text into
 * *line. */
static const char *quoted_missing(const char *text, const char *code, const char *shown, char *bad, size_t cap, int *line)
{
    bool tick = false;
    *line = 1;
    for (const char *p = text; *p; p++) {
        if (*p == '\n') (*line)++;
        if (*p == '`') { tick = !tick; continue; }
        double t, u;
        bool frac;
        size_t n = tick ? 0 : number_at(p, text, &t, &frac, &u);
        if (!n) continue;
        snprintf(bad, cap, "%.*s", (int)n, p);
        p += n - 1;
        if (!frac || (code && strstr(code, bad))) continue;
        bool found = false;
        for (const char *o = shown; *o && !found; o++) {
            double w, uo;
            bool fo;
            size_t k = number_at(o, shown, &w, &fo, &uo);
            if (!k) continue;
            found = fabs(fabs(w) - fabs(t)) <= u * (1 + 1e-9);
            o += k - 1;
        }
        if (!found) return bad;
    }
    return NULL;
}

/* Does the wrong answer rj pass st's check?  It runs in a child process
 * (one thread), quietly, so that what it defines or changes (a variable, a
 * trace count, a setting) is gone afterwards.  1: it passes (the lesson's
 * mistake), 0: refused, -1: the child ended otherwise (the step's time ran
 * out: it is killed). */
static int reject_passes(lesson_runner_t *lr, const lesson_step_t *st, const char *rj)
{
#ifdef __wasi__
    (void)lr, (void)st, (void)rj;
    return -1;   /* no processes in the web build (lesson_check_file says so first) */
#else
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) return -1;
    if (pid == 0) {
        kern_set_threads(1);
        FILE *quiet = null_stream(lr);
        char why[400];
        bool ok;
        if (!quiet) _exit(2);
        if (st->check == CK_CHOICE) {
            ok = check_input(lr, st, rj, 0, why, sizeof why);
        } else {
            lr->cells_before = view_cell_count();
            if (st->check == CK_EQUIV) bind_begin(lr, st, quiet);
            int status = run_text(lr, rj, quiet);
            ok = check_input(lr, st, rj, status, why, sizeof why);
        }
        _exit(ok ? 0 : 1);
    }
    int status = 0;
    while (waitpid(pid, &status, 0) < 0) {
        if (errno != EINTR) return -1;
        if (step_over) kill(pid, SIGKILL);
    }
    if (!WIFEXITED(status) || WEXITSTATUS(status) > 1) return -1;
    return WEXITSTATUS(status) == 0 ? 1 : 0;
#endif
}

/* Play one loaded lesson (taken) through; returns the failed steps. */
static int auto_one(lesson_runner_t *lr, lesson_t *l, FILE *out, FILE *err)
{
    int failed = 0;
    lr->cur = l;
    lr->play = false;
    session_keep_last(lr->s, true);
    fputc('\n', out);
    fprintf(out, "%s\n", l->title[lr->lang]);
    double limit = step_seconds();
    char over[160];
    snprintf(over, sizeof over, _("stopped after %g s: the code block did not finish "
             "(each step has NNPAD_LESSON_STEP_SECONDS, default %g)"), limit, STEP_SECONDS_DEFAULT);
    plat_sig_t old_sa;
    plat_sig_catch(SIGALRM, on_step_alarm, &old_sa);
    for (lr->step = 0; lr->step < l->nsteps; lr->step++) {
        lesson_step_t *st = &l->steps[lr->step];
        lr->tries = 0;
        int figs = 0;
        if (progress_fd >= 0) {
            int k = lr->step;
            if (write(progress_fd, &k, sizeof k) != (ssize_t)sizeof k) { /* the parent is gone: go on */ }
        }
        step_over = 0;
        step_timer(limit);
        int rc = show_step(lr, out, true, &figs);
        const char *why_demo = NULL;
        if (step_over) why_demo = over;
        else if (rc && !st->expect_error) why_demo = L(lr, M_DEMO_FAILED);
        else if (!rc && st->expect_error) why_demo = L(lr, M_DEMO_NO_ERROR);
        else if (st->code && st->check == CK_NONE && lesson_code_draws(st->code) && figs == 0) why_demo = L(lr, M_FIGURE_MISSING);
        if (why_demo) {
            step_timer(0);
            err_interrupt_flag = 0;
            fflush(out);
            fprintf(err, "%s:%d: step %d: %s\n", l->path, st->code_line, lr->step + 1, why_demo);
            fflush(err);
            failed++;
            continue;
        }
        if (lr->check_rejects && st->code && lr->seen) {
            char bad[64];
            for (int k = 0; k < 2; k++) {
                int at;
                const char *miss = quoted_missing(st->text[k], st->code, lr->seen, bad, sizeof bad, &at);
                if (!miss) continue;
                fflush(out);
                fprintf(err, _("%s:%d: step %d: the %s text quotes %s, which no code before it prints\n"), l->path,
                        st->text_line[k] + at, lr->step + 1, k ? "Korean" : "English", miss);
                fflush(err);
                failed++;
                break;
            }
        }
        if (st->check == CK_NONE) { step_timer(0); continue; }
        char why[400];
        bool ok;
        /* the wrong answers first, each in the state the student meets,
         * each in a process of its own (what one changes is gone after) */
        for (int r = 0; lr->check_rejects && r < st->nreject && !step_over; r++) {
            int passes = reject_passes(lr, st, st->reject[r]);
            if (passes != 0) {
                fflush(out);
                if (passes > 0)
                    fprintf(err, _("%s:%d: step %d: the @reject '%s' passes the @check: a wrong answer would be accepted\n"),
                            l->path, st->reject_line[r], lr->step + 1, st->reject[r]);
                else
                    fprintf(err, _("%s:%d: step %d: the @reject '%s' could not be tried (%s)\n"), l->path, st->reject_line[r],
                            lr->step + 1, st->reject[r], step_over ? _("the step's time ran out") : _("it ended abnormally"));
                fflush(err);
                failed++;
            }
        }
        {
            char *owned;
            fprintf(out, L(lr, M_AUTO_TYPES), in_lang(lr, st->answer, &owned));
            free(owned);
        }
        fputc('\n', out);
        fflush(out);
        if (st->check == CK_CHOICE) {
            ok = check_input(lr, st, st->answer, 0, why, sizeof why);
        } else {
            lr->cells_before = view_cell_count();
            if (st->check == CK_EQUIV) bind_begin(lr, st, err);
            int status;
            char *buf = NULL;
            size_t nb = 0;
            FILE *m = lr->check_rejects ? open_memstream(&buf, &nb) : NULL;
            status = run_text(lr, st->answer, m ? m : out);
            if (m) { fclose(m); fwrite(buf, 1, nb, out); seen_add(lr, buf, nb); }
            free(buf);
            ok = check_input(lr, st, st->answer, status, why, sizeof why);
            if (st->check == CK_EQUIV) { bind_end(lr, st); draws_drop(lr, st); }
        }
        step_timer(0);
        if (step_over) {
            ok = false;
            snprintf(why, sizeof why, _("stopped after %g s: the @answer did not finish "
                     "(each step has NNPAD_LESSON_STEP_SECONDS, default %g)"), limit, STEP_SECONDS_DEFAULT);
        }
        err_interrupt_flag = 0;
        fprintf(out, "%s\n", ok ? L(lr, M_CORRECT) : why);
        if (!ok) {
            fflush(out);
            fprintf(err, _("%s:%d: step %d: the @answer does not pass the @check: %s\n"), l->path, st->answer_line,
                    lr->step + 1, why);
            fflush(err);
            failed++;
        }
    }
    step_timer(0);
    plat_sig_restore(SIGALRM, &old_sa);
    char key[256];
    key_of(l, key, sizeof key);
    fputc('\n', out);
    if (failed) fprintf(out, L(lr, M_AUTO_FAIL), key, failed);
    else fprintf(out, L(lr, M_AUTO_OK), key);
    fputc('\n', out);
    fflush(out);
    snaps_keep(lr);
    lr->cur = NULL;
    lesson_free(l);
    session_keep_last(lr->s, false);
    return failed;
}

int lesson_auto(lesson_runner_t *lr, const char *which, FILE *out, FILE *err)
{
    char **paths = NULL;
    int n = 0;
    if (!strcmp(which, "all")) {
        char dir[PATH_MAX], tried[1024];
        if (!lessons_dir(dir, sizeof dir, tried, sizeof tried)) {
            fprintf(err, _("nnpad: no lessons found (looked in: %s)\n"), tried);
            return 1;
        }
        char **names;
        n = list_files(dir, &names);
        if (n == 0) {
            fprintf(err, _("nnpad: no lessons in %s\n"), dir);
            return 1;
        }
        paths = calloc((size_t)n, sizeof *paths);
        if (!paths) abort();
        for (int i = 0; i < n; i++) {
            size_t need = strlen(dir) + strlen(names[i]) + 2;
            paths[i] = malloc(need);
            if (!paths[i]) abort();
            snprintf(paths[i], need, "%s/%s", dir, names[i]);
        }
        afile_list_free(names, n);
    } else {
        char *p = resolve(which);
        if (!p) {
            fprintf(err, "nnpad: ");
            fprintf(err, L(lr, M_UNKNOWN), which);
            fputc('\n', err);
            return 1;
        }
        paths = calloc(1, sizeof *paths);
        if (!paths) abort();
        paths[n++] = p;
    }
    lr->auto_mode = true;
    int bad = 0;
    for (int i = 0; i < n; i++) {
        if (i > 0) session_reset(lr->s);
        lesson_t *l = lesson_load(paths[i], err);
        if (!l) { bad++; continue; }
        if (auto_one(lr, l, out, err)) bad++;
    }
    lr->auto_mode = false;
    afile_list_free(paths, n);
    return bad ? 1 : 0;
}

#ifndef __wasi__
static int rm_entry(const char *p, const struct stat *sb, int flag, struct FTW *ftw)
{
    (void)sb; (void)flag; (void)ftw;
    return remove(p) == 0 ? 0 : 0;
}

static volatile sig_atomic_t check_signal;
static void on_check_signal(int sig) { check_signal = sig; }
#endif

/* The lesson plays in a child process in the temporary folder, confined to
 * it (afile_confine); the parent waits, and removes the folder however the
 * child ends: a signal to the parent (SIGINT, SIGTERM, SIGHUP) ends the
 * child, removes the folder and then ends the parent by that signal; a
 * step the interrupt could not stop (no step start within the step's
 * limit and a grace) ends the child with a message. */
int lesson_check_file(lesson_runner_t *lr, const char *path, FILE *out, FILE *err)
{
    lesson_t *l = lesson_load(path, err);
    if (!l) return 1;
    /* the strings a student reads have their Korean (@tr) */
    if (lesson_tr_check(l, err)) {
        lesson_free(l);
        return 1;
    }
#ifdef __wasi__
    /* the check runs the lesson in a child process, confined to a
     * temporary folder: the web build has neither */
    (void)out;
    fprintf(err, _("%s: error: cannot start the check: %s\n"), path, _("not available in the web build (yet)"));
    lesson_free(l);
    return 1;
#else
    const char *tmpbase = getenv("TMPDIR");
    char tmp[PATH_MAX];
    snprintf(tmp, sizeof tmp, "%s/nnpad-lesson.XXXXXX", tmpbase && *tmpbase ? tmpbase : "/tmp");
    int pfd[2] = { -1, -1 };
    static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
    sigset_t block, old_mask;
    sigemptyset(&block);
    for (int i = 0; i < 3; i++) sigaddset(&block, sigs[i]);
    sigprocmask(SIG_BLOCK, &block, &old_mask);
    if (!mkdtemp(tmp)) {
        fprintf(err, _("%s: error: cannot make a temporary folder to run it in: %s\n"), path, strerror(errno));
        sigprocmask(SIG_SETMASK, &old_mask, NULL);
        lesson_free(l);
        return 1;
    }
    fflush(out);
    fflush(err);
    pid_t child = pipe2(pfd, O_CLOEXEC) == 0 ? fork() : -1;
    if (child < 0) {
        fprintf(err, _("%s: error: cannot start the check: %s\n"), path, strerror(errno));
        nftw(tmp, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
        sigprocmask(SIG_SETMASK, &old_mask, NULL);
        lesson_free(l);
        return 1;
    }
    if (child == 0) {
        sigprocmask(SIG_SETMASK, &old_mask, NULL);
        close(pfd[0]);
        int bad = 1;
        if (chdir(tmp) != 0) {
            fprintf(err, _("%s: error: cannot enter the temporary folder %s: %s\n"), path, tmp, strerror(errno));
        } else {
            afile_confine();
            view_set_figure_dir("figures");
            progress_fd = pfd[1];
            lr->auto_mode = true;
            lr->check_rejects = true;
            bad = auto_one(lr, l, out, err) ? 1 : 0;
        }
        fflush(NULL);
        _exit(bad);
    }
    close(pfd[1]);
    plat_sig_t old_sa[3];
    check_signal = 0;
    for (int i = 0; i < 3; i++) plat_sig_catch(sigs[i], on_check_signal, &old_sa[i]);
    sigprocmask(SIG_SETMASK, &old_mask, NULL);
    double limit = step_seconds();
    const double grace = 10;
    int step = -1, status = 0;
    bool stuck = false;
    for (;;) {
        struct pollfd p = { pfd[0], POLLIN, 0 };
        int n = poll(&p, 1, limit > 0 ? (int)((limit + grace) * 1000) : -1);
        if (check_signal) break;
        if (n < 0 && errno == EINTR) continue;
        if (n == 0) { stuck = true; break; }
        int k;
        ssize_t r = read(pfd[0], &k, sizeof k);
        if (r < 0 && errno == EINTR) continue;
        if (r != (ssize_t)sizeof k) break;   /* the child has finished */
        step = k;
    }
    if (check_signal || stuck) kill(child, SIGKILL);
    while (waitpid(child, &status, 0) < 0 && errno == EINTR) {}
    close(pfd[0]);
    nftw(tmp, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
    int rc = WIFEXITED(status) ? WEXITSTATUS(status) : 1;
    fflush(out);
    if (stuck && step >= 0 && step < l->nsteps) {
        fprintf(err, _("%s:%d: step %d: did not stop within %g s of being interrupted at its limit of %g s: the check is ended\n"),
                l->path, l->steps[step].code_line, step + 1, grace, limit);
        rc = 1;
    } else if (!check_signal && !WIFEXITED(status)) {
        fprintf(err, _("%s: the check ended by signal %d at step %d\n"), l->path, WIFSIGNALED(status) ? WTERMSIG(status) : 0,
                step + 1);
        rc = 1;
    }
    fflush(err);
    lesson_free(l);
    for (int i = 0; i < 3; i++) plat_sig_restore(sigs[i], &old_sa[i]);
    if (check_signal) {
        /* ended as the signal ends a process, the folder gone first */
        signal(check_signal, SIG_DFL);
        raise(check_signal);
    }
    return rc;
#endif
}
