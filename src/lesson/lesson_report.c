/* lesson_report.c — what the student did in each step (attempts, hints,
 * skips, time, the accepted answer), kept in $XDG_STATE_HOME/nnpad/lesson-steps;
 * the student's report (an HTML page, lesson_report_write) and the
 * teacher's table of a folder of reports (lesson_report_summary).
 *
 * lesson-steps sits beside the progress file (lessons), which it leaves as
 * it is: a progress file from before it loads as always.  Its lines:
 *   L NAME NSTEPS TITLE_EN TITLE_KO
 *   S NAME STEP DONE ATTEMPTS HINTS SKIPS MSEC ANSWER
 * words %-escaped (%20 a blank; "-" an empty word); rewritten atomically
 * (util/afile) at every record.  A malformed line is skipped. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1
#endif
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lesson/lesson_int.h"
#include "util/i18n.h"
#include "util/afile.h"

#define REC_MAX_LESSONS 256
#define REC_MAX_STEPS 8192
#define REC_WORD 1024

typedef struct rec_lesson { char name[256]; int nsteps; char title[2][REC_WORD]; } rec_lesson_t;
typedef struct rec_step {
    char name[256];
    int step, done, attempts, hints, skips;
    long long msec;
    char answer[REC_WORD];
} rec_step_t;
typedef struct rec {
    rec_lesson_t *l; int nl;
    rec_step_t *s; int ns;
} rec_t;

/* ---- the report's words (Korean in po/ko.po, as lesson_msg.c's) ---- */
typedef enum { R_TITLE, R_NOTICE, R_LESSON, R_STEP, R_DONE, R_ATTEMPTS, R_HINTS, R_SKIPS, R_TIME, R_ANSWER,
               R_YES, R_NO, R_SKIPPED, R_NONE, R_STEPS_DONE, R_WRITTEN, R_NO_DETAIL, R_TOTAL, R_SAVED, R_SUM_STUDENT, R_SUM_KEY, R_COUNT } rmsg_t;
static const char *const rmsgs[R_COUNT] = {
    [R_TITLE] = N_("nnpad lessons: student's report"),
    [R_NOTICE] = N_("This is a self-report: nnpad wrote it from the progress kept on the student's own computer. "
                   "It can be edited like any file and proves nothing by itself; ask the student to show the work."),
    [R_LESSON] = N_("Lesson"),
    [R_STEP] = N_("Step"),
    [R_DONE] = N_("Done"),
    [R_ATTEMPTS] = N_("Attempts"),
    [R_HINTS] = N_("Hints"),
    [R_SKIPS] = N_("Skips"),
    [R_TIME] = N_("Time"),
    [R_ANSWER] = N_("Final answer"),
    [R_YES] = N_("yes"),
    [R_NO] = N_("no"),
    [R_SKIPPED] = N_("skipped"),
    [R_NONE] = N_("No lesson has been started yet."),
    [R_STEPS_DONE] = N_("steps done"),
    [R_WRITTEN] = N_("Written by nnpad %s on %s."),
    [R_NO_DETAIL] = N_("(played before nnpad recorded steps: no details)"),
    [R_TOTAL] = N_("Total"),
    [R_SUM_STUDENT] = N_("student"),
    [R_SUM_KEY] = N_("(per lesson: steps done/total, aN attempts, time m:ss; self-reported by each student's nnpad)"),
    [R_SAVED] = N_("report written: %s (a self-report, to hand in)"),
};
static const char *RM(int lang, rmsg_t m) { return lang == LESSON_KO ? _(rmsgs[m]) : rmsgs[m]; }

/* ---- the record file ---- */

static void esc_word(FILE *f, const char *s)
{
    if (!s || !*s) { fputc('-', f); return; }
    if (!strcmp(s, "-")) { fputs("%2D", f); return; }
    for (const unsigned char *p = (const unsigned char *)s; *p; p++)
        if (*p <= ' ' || *p == '%' || *p == 0x7f) fprintf(f, "%%%02X", *p);
        else fputc(*p, f);
}

static void unesc_word(char *out, size_t cap, const char *w)
{
    size_t n = 0;
    if (!strcmp(w, "-")) w = "";
    for (const char *p = w; *p && n + 1 < cap; p++) {
        if (*p == '%' && isxdigit((unsigned char)p[1]) && isxdigit((unsigned char)p[2])) {
            char h[3] = { p[1], p[2], 0 };
            out[n++] = (char)strtol(h, NULL, 16);
            p += 2;
        } else {
            out[n++] = *p;
        }
    }
    out[n] = 0;
}

static bool rec_path(char *dir, size_t dcap, char *path, size_t pcap)
{
    if (!afile_state_dir(dir, dcap)) return false;
    return snprintf(path, pcap, "%s/lesson-steps", dir) < (int)pcap;
}

static void rec_free(rec_t *r) { free(r->l); free(r->s); r->l = NULL; r->s = NULL; r->nl = r->ns = 0; }

static bool rec_read(rec_t *r)
{
    memset(r, 0, sizeof *r);
    r->l = calloc(REC_MAX_LESSONS, sizeof *r->l);
    r->s = calloc(REC_MAX_STEPS, sizeof *r->s);
    if (!r->l || !r->s) { rec_free(r); return false; }
    char dir[PATH_MAX], path[PATH_MAX + 32];
    if (!rec_path(dir, sizeof dir, path, sizeof path)) return true;
    FILE *f = fopen(path, "r");
    if (!f) return true;
    char line[4 * REC_WORD];
    static char w[9][4 * REC_WORD];
    while (fgets(line, sizeof line, f)) {
        int n = 0;
        for (char *tok = strtok(line, " \n"); tok && n < 9; tok = strtok(NULL, " \n")) snprintf(w[n++], sizeof w[0], "%s", tok);
        if (n == 5 && !strcmp(w[0], "L") && r->nl < REC_MAX_LESSONS) {
            rec_lesson_t *l = &r->l[r->nl];
            unesc_word(l->name, sizeof l->name, w[1]);
            l->nsteps = (int)strtol(w[2], NULL, 10);
            if (strlen(w[2]) > 6) l->nsteps = 0;
            unesc_word(l->title[0], sizeof l->title[0], w[3]);
            unesc_word(l->title[1], sizeof l->title[1], w[4]);
            if (l->nsteps > 0 && l->nsteps < 100000 && l->name[0]) r->nl++;
        } else if (n == 9 && !strcmp(w[0], "S") && r->ns < REC_MAX_STEPS) {
            rec_step_t *s = &r->s[r->ns];
            unesc_word(s->name, sizeof s->name, w[1]);
            /* each count within 0..1e6, the time within a year: an edited
             * or damaged line is skipped, not summed into an overflow */
            long long v[6];
            bool ok = s->name[0] != 0;
            for (int k = 0; k < 6; k++) {
                char *end;
                errno = 0;
                v[k] = strtoll(w[2 + k], &end, 10);
                ok = ok && !errno && !*end && v[k] >= 0 && v[k] <= (k == 5 ? 366LL * 86400 * 1000 : 1000000);
            }
            if (!ok) continue;
            s->step = (int)v[0];
            s->done = v[1] != 0;
            s->attempts = (int)v[2];
            s->hints = (int)v[3];
            s->skips = (int)v[4];
            s->msec = v[5];
            unesc_word(s->answer, sizeof s->answer, w[8]);
            r->ns++;
        }
    }
    fclose(f);
    return true;
}

static int rec_write(const rec_t *r, char *why, size_t cap)
{
    char dir[PATH_MAX], path[PATH_MAX + 32];
    if (!rec_path(dir, sizeof dir, path, sizeof path)) { snprintf(why, cap, "neither XDG_STATE_HOME nor HOME is set"); return 1; }
    if (afile_mkdirs(dir) != 0) { snprintf(why, cap, "cannot make %s: %s", dir, strerror(errno)); return 1; }
    afile_t a;
    if (!afile_open(&a, path, why, cap)) return 1;
    afile_printf(&a, "# nnpad lesson steps: L NAME NSTEPS TITLE_EN TITLE_KO / S NAME STEP DONE ATTEMPTS HINTS SKIPS MSEC ANSWER\n");
    for (int i = 0; i < r->nl; i++) {
        fputs("L ", a.f); esc_word(a.f, r->l[i].name);
        fprintf(a.f, " %d ", r->l[i].nsteps);
        esc_word(a.f, r->l[i].title[0]); fputc(' ', a.f); esc_word(a.f, r->l[i].title[1]); fputc('\n', a.f);
    }
    for (int i = 0; i < r->ns; i++) {
        const rec_step_t *s = &r->s[i];
        fputs("S ", a.f); esc_word(a.f, s->name);
        fprintf(a.f, " %d %d %d %d %d %lld ", s->step, s->done, s->attempts, s->hints, s->skips, s->msec);
        esc_word(a.f, s->answer); fputc('\n', a.f);
    }
    return afile_commit(&a, why, cap) != 0;
}

int lesson_record(const lesson_t *l, int step, lesson_rec_ev_t ev, const char *answer, double secs, char *why, size_t cap)
{
    if (!l || step < 0 || step >= l->nsteps) return 0;
    if (ev == REC_TIME && secs <= 0) return 0;
    rec_t r;
    if (!rec_read(&r)) { snprintf(why, cap, "out of memory"); return 1; }
    char key[256];
    snprintf(key, sizeof key, "%s", l->name);
    for (char *p = key; *p; p++) if (isspace((unsigned char)*p)) *p = '_';
    int li = -1, si = -1;
    for (int i = 0; i < r.nl; i++) if (!strcmp(r.l[i].name, key)) li = i;
    if (li < 0 && r.nl < REC_MAX_LESSONS) li = r.nl++;
    if (li >= 0) {
        snprintf(r.l[li].name, sizeof r.l[li].name, "%s", key);
        r.l[li].nsteps = l->nsteps;
        for (int k = 0; k < 2; k++) snprintf(r.l[li].title[k], sizeof r.l[li].title[k], "%s", l->title[k] ? l->title[k] : "");
    }
    for (int i = 0; i < r.ns; i++) if (r.s[i].step == step && !strcmp(r.s[i].name, key)) si = i;
    if (si < 0 && r.ns < REC_MAX_STEPS) { si = r.ns++; memset(&r.s[si], 0, sizeof r.s[si]); }
    if (si >= 0) {
        rec_step_t *s = &r.s[si];
        snprintf(s->name, sizeof s->name, "%s", key);
        s->step = step;
        /* one interval counts at most half an hour: a student who left the
         * computer is not still working */
        if (secs > 0) s->msec += (long long)((secs > 1800 ? 1800 : secs) * 1000.0);
        switch (ev) {
        case REC_ATTEMPT: s->attempts++; break;
        case REC_CORRECT:
            s->attempts++;
            s->done = 1;
            snprintf(s->answer, sizeof s->answer, "%.300s", answer ? answer : "");
            /* cut at a character's start, not inside a UTF-8 sequence */
            for (size_t k = strlen(s->answer); k > 0 && k == 300 && ((unsigned char)s->answer[k - 1] & 0xC0) == 0x80;) s->answer[--k] = 0;
            break;
        case REC_HINT: s->hints++; break;
        case REC_SKIP: s->skips++; break;
        case REC_SEEN: s->done = 1; break;
        case REC_TIME: break;
        }
    }
    int rc = rec_write(&r, why, cap);
    rec_free(&r);
    return rc;
}

/* ---- the page ---- */

static void html(FILE *f, const char *s)
{
    for (; s && *s; s++)
        switch (*s) {
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '&': fputs("&amp;", f); break;
        case '"': fputs("&quot;", f); break;
        case '\'': fputs("&#39;", f); break;
        default: fputc(*s, f);
        }
}

/* a JSON string; '<' as \u003c so that no "</script>" ends the block */
static void json_str(FILE *f, const char *s)
{
    fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
        if (*p == '"' || *p == '\\') fprintf(f, "\\%c", *p);
        else if (*p < 0x20 || *p == '<' || *p == '>' || *p == '&') fprintf(f, "\\u%04x", *p);
        else fputc(*p, f);
    }
    fputc('"', f);
}

static void fmt_time(char *out, size_t cap, long long msec)
{
    long long s = (msec + 500) / 1000;
    if (s >= 3600) snprintf(out, cap, "%lld:%02lld:%02lld", s / 3600, s / 60 % 60, s % 60);
    else snprintf(out, cap, "%lld:%02lld", s / 60, s % 60);
}

typedef struct sum { int done, attempts, hints, skips; long long msec; } sum_t;

static sum_t lesson_sum(const rec_t *r, const rec_lesson_t *l)
{
    sum_t t = { 0 };
    for (int i = 0; i < r->ns; i++)
        if (!strcmp(r->s[i].name, l->name) && r->s[i].step < l->nsteps) {
            t.done += r->s[i].done;
            t.attempts += r->s[i].attempts;
            t.hints += r->s[i].hints;
            t.skips += r->s[i].skips;
            t.msec += r->s[i].msec;
        }
    return t;
}

static const rec_step_t *find_step(const rec_t *r, const char *name, int step)
{
    for (int i = 0; i < r->ns; i++)
        if (r->s[i].step == step && !strcmp(r->s[i].name, name)) return &r->s[i];
    return NULL;
}

static const char CSS[] =
    "body{font-family:system-ui,'Noto Sans KR','Malgun Gothic',sans-serif;max-width:60em;margin:2em auto;padding:0 1em;color:#222}"
    "h1{font-size:1.5em}h2{font-size:1.15em;margin-top:1.6em}"
    ".notice{border:1px solid #c90;background:#fff8e0;padding:.6em 1em}"
    "table{border-collapse:collapse;width:100%}th,td{border:1px solid #bbb;padding:.25em .5em;text-align:left;vertical-align:top}"
    "th{background:#eee}.n{text-align:right}code{font-family:ui-monospace,monospace;white-space:pre-wrap}"
    ".yes{color:#070}.no{color:#a00}.meta{color:#666;font-size:.9em}";

int lesson_report_write(int lang, const char *path, FILE *out, char *why, size_t cap)
{
    lang = lang == LESSON_KO ? LESSON_KO : LESSON_EN;
    rec_t r;
    if (!rec_read(&r)) { snprintf(why, cap, "out of memory"); return 1; }
    prog_t *old = calloc(REC_MAX_LESSONS, sizeof *old);
    if (!old) { rec_free(&r); snprintf(why, cap, "out of memory"); return 1; }
    int nold = lesson_prog_read(old, REC_MAX_LESSONS);   /* lessons with no step records */
    /* lessons in the progress file with no step records: their progress only */
    for (int i = 0; i < nold && r.nl < REC_MAX_LESSONS; i++) {
        bool have = false;
        for (int k = 0; k < r.nl; k++) have |= !strcmp(r.l[k].name, old[i].name);
        if (have) continue;
        rec_lesson_t *l = &r.l[r.nl++];
        memset(l, 0, sizeof *l);
        snprintf(l->name, sizeof l->name, "%s", old[i].name);
        l->nsteps = -old[i].total;     /* < 0: no step records */
    }
    char when[64] = "";
    time_t now = time(NULL);
    struct tm tm;
    if (gmtime_r(&now, &tm)) strftime(when, sizeof when, "%Y-%m-%d %H:%M UTC", &tm);

    afile_t a;
    if (!afile_open(&a, path, why, cap)) { rec_free(&r); free(old); return 1; }
    FILE *f = a.f;
    fprintf(f, "<!DOCTYPE html>\n<html lang=\"%s\">\n<head>\n<meta charset=\"utf-8\">\n<title>", lang == LESSON_KO ? "ko" : "en");
    html(f, RM(lang, R_TITLE));
    fprintf(f, "</title>\n<style>%s</style>\n</head>\n<body>\n<h1>", CSS);
    html(f, RM(lang, R_TITLE));
    fputs("</h1>\n<p class=\"notice\">", f);
    html(f, RM(lang, R_NOTICE));
    fputs("</p>\n<p class=\"meta\">", f);
    fprintf(f, RM(lang, R_WRITTEN), PACKAGE_VERSION, when);
    fputs("</p>\n", f);
    if (r.nl == 0) { fputs("<p>", f); html(f, RM(lang, R_NONE)); fputs("</p>\n", f); }
    for (int i = 0; i < r.nl; i++) {
        const rec_lesson_t *l = &r.l[i];
        const char *title = l->title[lang][0] ? l->title[lang] : l->title[0];
        fputs("<h2>", f); html(f, RM(lang, R_LESSON)); fputs(": ", f); html(f, l->name);
        if (*title) { fputs(" — ", f); html(f, title); }
        fputs("</h2>\n", f);
        if (l->nsteps < 0) {
            int k = 0;
            while (k < nold && strcmp(old[k].name, l->name)) k++;
            fprintf(f, "<p>%d / %d ", old[k].done ? old[k].total : old[k].step, old[k].total);
            html(f, RM(lang, R_STEPS_DONE)); fputs(" ", f); html(f, RM(lang, R_NO_DETAIL)); fputs("</p>\n", f);
            continue;
        }
        sum_t t = lesson_sum(&r, l);
        char tb[32];
        fprintf(f, "<p>%d / %d ", t.done, l->nsteps);
        html(f, RM(lang, R_STEPS_DONE));
        fputs("</p>\n<table>\n<tr>", f);
        static const rmsg_t cols[] = { R_STEP, R_DONE, R_ATTEMPTS, R_HINTS, R_SKIPS, R_TIME, R_ANSWER };
        for (size_t c = 0; c < sizeof cols / sizeof *cols; c++) { fputs("<th>", f); html(f, RM(lang, cols[c])); fputs("</th>", f); }
        fputs("</tr>\n", f);
        for (int s = 0; s < l->nsteps; s++) {
            const rec_step_t *st = find_step(&r, l->name, s);
            rec_step_t zero = { .step = s };
            if (!st) st = &zero;
            fmt_time(tb, sizeof tb, st->msec);
            fprintf(f, "<tr><td class=\"n\">%d</td><td class=\"%s\">", s + 1, st->done ? "yes" : "no");
            html(f, RM(lang, st->done ? R_YES : st->skips ? R_SKIPPED : R_NO));
            fprintf(f, "</td><td class=\"n\">%d</td><td class=\"n\">%d</td><td class=\"n\">%d</td><td class=\"n\">%s</td><td><code>",
                    st->attempts, st->hints, st->skips, tb);
            html(f, st->answer);
            fputs("</code></td></tr>\n", f);
        }
        fmt_time(tb, sizeof tb, t.msec);
        fputs("<tr><th>", f); html(f, RM(lang, R_TOTAL));
        fprintf(f, "</th><th>%d / %d</th><th class=\"n\">%d</th><th class=\"n\">%d</th><th class=\"n\">%d</th><th class=\"n\">%s</th><th></th></tr>\n</table>\n",
                t.done, l->nsteps, t.attempts, t.hints, t.skips, tb);
    }
    /* the same data for tools (nnpad --report-summary): no HTML to scrape */
    fputs("<script type=\"application/json\" id=\"nnpad-report\">\n{\"format\":1,\"lang\":", f);
    json_str(f, lang == LESSON_KO ? "ko" : "en");
    fputs(",\"written\":", f); json_str(f, when);
    fputs(",\"lessons\":[", f);
    for (int i = 0; i < r.nl; i++) {
        const rec_lesson_t *l = &r.l[i];
        fputs(i ? ",\n{\"name\":" : "\n{\"name\":", f); json_str(f, l->name);
        fputs(",\"title\":", f); json_str(f, l->title[lang][0] ? l->title[lang] : l->title[0]);
        if (l->nsteps < 0) {
            int k = 0;
            while (k < nold && strcmp(old[k].name, l->name)) k++;
            fprintf(f, ",\"steps\":%d,\"done\":%d,\"attempts\":null,\"hints\":null,\"skips\":null,\"seconds\":null,\"step_list\":[]}",
                    old[k].total, old[k].done ? old[k].total : old[k].step);
            continue;
        }
        sum_t t = lesson_sum(&r, l);
        fprintf(f, ",\"steps\":%d,\"done\":%d,\"attempts\":%d,\"hints\":%d,\"skips\":%d,\"seconds\":%.1f,\"step_list\":[",
                l->nsteps, t.done, t.attempts, t.hints, t.skips, (double)t.msec / 1000.0);
        for (int s = 0; s < l->nsteps; s++) {
            const rec_step_t *st = find_step(&r, l->name, s);
            rec_step_t zero = { .step = s };
            if (!st) st = &zero;
            fprintf(f, "%s{\"step\":%d,\"done\":%s,\"attempts\":%d,\"hints\":%d,\"skips\":%d,\"seconds\":%.1f,\"answer\":",
                    s ? "," : "", s + 1, st->done ? "true" : "false", st->attempts, st->hints, st->skips, (double)st->msec / 1000.0);
            json_str(f, st->answer);
            fputc('}', f);
        }
        fputs("]}", f);
    }
    fputs("]}\n</script>\n</body>\n</html>\n", f);
    rec_free(&r);
    free(old);
    if (afile_commit(&a, why, cap) != 0) return 1;
    if (out) { fprintf(out, RM(lang, R_SAVED), path); fputc('\n', out); }
    return 0;
}

/* ---- the teacher's table: a small JSON reader for the block above ---- */

typedef struct jp { const char *p, *end; bool bad; } jp_t;

static void jws(jp_t *j) { while (j->p < j->end && isspace((unsigned char)*j->p)) j->p++; }
static bool jlit(jp_t *j, char c) { jws(j); if (j->p < j->end && *j->p == c) { j->p++; return true; } return false; }

/* a string into out (truncated to cap; \u escapes below 0x80 kept, others as '?') */
static bool jstring(jp_t *j, char *out, size_t cap)
{
    size_t n = 0;
    if (!jlit(j, '"')) return false;
    while (j->p < j->end && *j->p != '"') {
        char c = *j->p++;
        if (c == '\\' && j->p < j->end) {
            char e = *j->p++;
            if (e == 'u') {
                if (j->end - j->p < 4) return false;
                char h[5] = { j->p[0], j->p[1], j->p[2], j->p[3], 0 };
                long v = strtol(h, NULL, 16);
                c = v > 0 && v < 0x80 ? (char)v : '?';
                j->p += 4;
            } else {
                c = e == 'n' ? '\n' : e == 't' ? '\t' : e;
            }
        }
        if (out && n + 1 < cap) out[n++] = c;
    }
    if (out && cap) out[n] = 0;
    return jlit(j, '"');
}

static bool jskip(jp_t *j, int depth);

static bool jskip_seq(jp_t *j, char close, bool keys, int depth)
{
    if (jlit(j, close)) return true;
    do {
        if (keys && (!jstring(j, NULL, 0) || !jlit(j, ':'))) return false;
        if (!jskip(j, depth + 1)) return false;
    } while (jlit(j, ','));
    return jlit(j, close);
}

/* skip one value (bounded nesting) */
static bool jskip(jp_t *j, int depth)
{
    jws(j);
    if (depth > 32 || j->p >= j->end) return false;
    if (*j->p == '"') return jstring(j, NULL, 0);
    if (*j->p == '{') { j->p++; return jskip_seq(j, '}', true, depth); }
    if (*j->p == '[') { j->p++; return jskip_seq(j, ']', false, depth); }
    const char *s = j->p;
    while (j->p < j->end && (isalnum((unsigned char)*j->p) || strchr("+-.", *j->p))) j->p++;
    return j->p > s;
}

/* a number within 0..1e9, or -1 (null, or out of that range: an edited
 * page must not overflow the table's arithmetic) */
static double jnum(jp_t *j)
{
    jws(j);
    const char *s = j->p;
    if (!jskip(j, 0)) { j->bad = true; return -1; }
    if (!strncmp(s, "null", 4)) return -1;
    double v = strtod(s, NULL);
    return v >= 0 && v <= 1e9 ? v : -1;
}

typedef struct srow_lesson { char name[256]; int steps, done, attempts; double seconds; } srow_lesson_t;
typedef struct srow { char file[256]; srow_lesson_t *ls; int nls; } srow_t;

/* one lesson object {"name":..,"steps":..,...} */
static bool jlesson(jp_t *j, srow_lesson_t *o)
{
    memset(o, 0, sizeof *o);
    o->attempts = -1; o->seconds = -1;
    if (!jlit(j, '{')) return false;
    if (jlit(j, '}')) return true;
    do {
        char key[64];
        if (!jstring(j, key, sizeof key) || !jlit(j, ':')) return false;
        if (!strcmp(key, "name")) { if (!jstring(j, o->name, sizeof o->name)) return false; }
        else if (!strcmp(key, "steps")) o->steps = (int)jnum(j);
        else if (!strcmp(key, "done")) o->done = (int)jnum(j);
        else if (!strcmp(key, "attempts")) o->attempts = (int)jnum(j);
        else if (!strcmp(key, "seconds")) o->seconds = jnum(j);
        else if (!jskip(j, 1)) return false;
    } while (!j->bad && jlit(j, ','));
    return !j->bad && jlit(j, '}');
}

/* the report's block: {"format":1,...,"lessons":[...]} */
static bool jreport(jp_t *j, srow_t *row)
{
    if (!jlit(j, '{')) return false;
    do {
        char key[64];
        if (!jstring(j, key, sizeof key) || !jlit(j, ':')) return false;
        if (!strcmp(key, "lessons")) {
            if (!jlit(j, '[')) return false;
            if (jlit(j, ']')) continue;
            do {
                if (row->nls >= REC_MAX_LESSONS) return false;
                if (!jlesson(j, &row->ls[row->nls])) return false;
                row->nls++;
            } while (jlit(j, ','));
            if (!jlit(j, ']')) return false;
        } else if (!jskip(j, 1)) {
            return false;
        }
    } while (jlit(j, ','));
    return jlit(j, '}');
}

static const char MARK[] = "<script type=\"application/json\" id=\"nnpad-report\">";

/* control characters (C0, DEL, and C1 as UTF-8) as '?': a name from a
 * student's file or page reaches the teacher's terminal, where ESC and BEL
 * would recolour it or set its title */
static void printable(char *s)
{
    for (unsigned char *p = (unsigned char *)s; *p; p++) {
        if (*p < 0x20 || *p == 0x7F) *p = '?';
        else if (*p == 0xC2 && p[1] >= 0x80 && p[1] <= 0x9F) { p[0] = '?'; p[1] = '?'; p++; }
    }
}

static bool read_report(const char *path, srow_t *row, char *why, size_t cap)
{
    /* a regular file only: a FIFO would block the summary for ever */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    struct stat sb;
    if (fd < 0) { snprintf(why, cap, "%s", strerror(errno)); return false; }
    if (fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode)) {
        close(fd);
        snprintf(why, cap, "not a regular file");
        return false;
    }
    FILE *f = fdopen(fd, "rb");
    if (!f) { close(fd); snprintf(why, cap, "%s", strerror(errno)); return false; }
    size_t n = 0, c = 0;
    char *buf = NULL;
    for (;;) {
        if (n + 4096 + 1 > c) {
            if (c > (size_t)16 << 20) { free(buf); fclose(f); snprintf(why, cap, "larger than 16 MiB"); return false; }
            c = c ? 2 * c : 65536;
            char *b = realloc(buf, c);
            if (!b) { free(buf); fclose(f); snprintf(why, cap, "out of memory"); return false; }
            buf = b;
        }
        size_t got = fread(buf + n, 1, 4096, f);
        n += got;
        if (got == 0) break;
    }
    fclose(f);
    buf[n] = 0;
    char *s = strstr(buf, MARK);
    char *e = s ? strstr(s, "</script>") : NULL;
    bool ok = false;
    if (!s || !e) snprintf(why, cap, "no nnpad report data in it (not written by nnpad --report?)");
    else {
        jp_t j = { s + strlen(MARK), e, false };
        ok = jreport(&j, row);
        for (int k = 0; ok && k < row->nls; k++) {
            const srow_lesson_t *l = &row->ls[k];
            ok = l->steps >= 0 && l->done >= 0 && l->done <= l->steps;
        }
        for (int k = 0; ok && k < row->nls; k++) printable(row->ls[k].name);
        if (!ok) snprintf(why, cap, "its report data is malformed or out of range");
    }
    free(buf);
    return ok;
}

/* the columns a UTF-8 string takes on a terminal: Hangul and the other
 * wide East Asian letters two, the rest one (for the table's padding) */
static int cols_of(const char *s)
{
    int w = 0;
    for (const unsigned char *p = (const unsigned char *)s; *p;) {
        unsigned c = *p;
        int n = c < 0x80 ? 1 : c >> 5 == 6 ? 2 : c >> 4 == 14 ? 3 : c >> 3 == 30 ? 4 : 1;
        for (int k = 1; k < n; k++) {
            if ((p[k] & 0xC0) != 0x80) { n = 1; break; }
            c = (k == 1 ? c & (0x7Fu >> n) : c) << 6 | (p[k] & 0x3F);
        }
        bool wide = n > 1 && ((c >= 0x1100 && c <= 0x115F) || (c >= 0x2E80 && c <= 0xA4CF) || (c >= 0xAC00 && c <= 0xD7A3)
                              || (c >= 0xF900 && c <= 0xFAFF) || (c >= 0xFF00 && c <= 0xFF60) || (c >= 0xFFE0 && c <= 0xFFE6));
        w += wide ? 2 : 1;
        p += n;
    }
    return w;
}

/* s, then blanks up to width columns */
static void pad(FILE *out, const char *s, int width)
{
    fputs(s, out);
    for (int w = cols_of(s); w < width; w++) fputc(' ', out);
}

int lesson_report_summary(int lang, const char *dirpath, FILE *out, FILE *err)
{
    char **files;
    int nf = afile_list(dirpath, ".html", &files), rc = 0;
    if (nf < 0) { fprintf(err, "nnpad: %s: %s\n", dirpath, strerror(errno)); return 1; }
    srow_t *rows = calloc((size_t)nf + 1, sizeof *rows);
    char (*cols)[256] = calloc(REC_MAX_LESSONS, sizeof *cols);
    int nrows = 0, ncols = 0;
    for (int i = 0; rows && cols && i < nf; i++) {
        char path[PATH_MAX + 300], why[300];
        snprintf(path, sizeof path, "%s/%s", dirpath, files[i]);
        srow_t *row = &rows[nrows];
        snprintf(row->file, sizeof row->file, "%s", files[i]);
        printable(row->file);
        row->ls = calloc(REC_MAX_LESSONS, sizeof *row->ls);
        if (!row->ls || !read_report(path, row, why, sizeof why)) {
            fprintf(err, "nnpad: %s/%s: skipped: %s\n", dirpath, row->file, row->ls ? why : "out of memory");
            free(row->ls);
            row->ls = NULL;
            rc = 1;
            continue;
        }
        nrows++;
        for (int k = 0; k < row->nls; k++) {
            int c = 0;
            while (c < ncols && strcmp(cols[c], row->ls[k].name)) c++;
            if (c == ncols && ncols < REC_MAX_LESSONS) snprintf(cols[ncols++], sizeof cols[0], "%s", row->ls[k].name);
        }
    }
    if (ncols > 1) qsort(cols, (size_t)ncols, sizeof *cols, (int (*)(const void *, const void *))strcmp);
    if (nf == 0) fprintf(err, "nnpad: no .html files in %s\n", dirpath);
    if (rows && cols && nrows) {
        /* one row per student file; each lesson: steps done/total, attempts, time (m:ss) */
        int w0 = cols_of(RM(lang, R_SUM_STUDENT)), wc = 20;
        for (int i = 0; i < nrows; i++) { int L = cols_of(rows[i].file); if (L > w0) w0 = L; }
        for (int c = 0; c < ncols; c++) { int L = cols_of(cols[c]); if (L > wc) wc = L; }
        pad(out, RM(lang, R_SUM_STUDENT), w0);
        for (int c = 0; c < ncols; c++) { fputs("  ", out); pad(out, cols[c], c + 1 < ncols ? wc : 0); }
        fputc('\n', out);
        for (int i = 0; i < nrows; i++) {
            pad(out, rows[i].file, w0);
            for (int c = 0; c < ncols; c++) {
                char cell[96] = "-";
                for (int k = 0; k < rows[i].nls; k++) {
                    const srow_lesson_t *l = &rows[i].ls[k];
                    if (strcmp(l->name, cols[c])) continue;
                    char a[24] = "?", t[32] = "?";
                    if (l->attempts >= 0) snprintf(a, sizeof a, "%d", l->attempts);
                    if (l->seconds >= 0) fmt_time(t, sizeof t, (long long)(l->seconds * 1000.0));
                    snprintf(cell, sizeof cell, "%d/%d a%s %s", l->done, l->steps, a, t);
                }
                fputs("  ", out);
                pad(out, cell, c + 1 < ncols ? wc : 0);
            }
            fputc('\n', out);
        }
        fprintf(out, "%s\n", RM(lang, R_SUM_KEY));
    }
    for (int i = 0; rows && i < nrows; i++) free(rows[i].ls);
    afile_list_free(files, nf);
    free(rows);
    free(cols);
    return rc || !nrows;
}
