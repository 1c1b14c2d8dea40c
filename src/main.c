/* main.c — options, start-up, and hand-over to the REPL, a script, or -e.
 *
 *   nnpad                 interactive REPL if stdin is a terminal; otherwise
 *                         read stdin as typed input (no prompts), keep going
 *                         after errors, exit 1 if any occurred
 *   nnpad FILE.nn         run a script; the first error stops it (exit 1)
 *   nnpad -e EXPR ...     run each EXPR in order (may repeat); stops at the
 *                         first error (exit 1)
 *   --headless            figures to files, never a window (remembered)
 *   --lesson NAME|N|FILE  start in a guided lesson; with --auto play it
 *                         through (all: every lesson) and exit
 *   --check-lesson FILE   validate a lesson file and play it in a temporary folder
 *   --lang en|ko          the lessons' language (default from the locale)
 *   --report FILE.html    write the student's lesson report and exit
 *   --report-summary DIR  tabulate a folder of reports (a teacher's view)
 *   --version, --help
 *
 * Exit status: 0 success, 1 an error in the input, 2 bad usage.  This is
 * the only place the process's exit status is decided (no exit() below).
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1
#endif
#include <getopt.h>
#include <locale.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lang/session.h"
#include "repl/repl.h"
#include "view/view.h"
#include "lesson/lesson.h"
#include "util/i18n.h"

static void usage(FILE *f)
{
    fputs(_("usage: nnpad [OPTIONS] [FILE.nn]\n"
          "\n"
          "With no FILE: the interactive REPL when standard input is a terminal,\n"
          "otherwise standard input is read as typed input (no prompts).\n"
          "\n"
          "  FILE.nn           run a script (\"-\" for standard input); the first\n"
          "                    error stops it with exit status 1\n"
          "  -e, --eval EXPR   evaluate EXPR and print its value; may be repeated,\n"
          "                    each runs in order in the same session\n"
          "      --headless    write figures to PNG/SVG files instead of a window\n"
          "      --lesson NAME|N|FILE\n"
          "                    start in a guided lesson (:lessons lists them)\n"
          "      --restore     first replay the last session's inputs (after a crash)\n"
          "      --auto        with --lesson: play it through, typing each answer;\n"
          "                    exit 0 only if every check passed (--lesson all: every lesson)\n"
          "      --check-lesson FILE\n"
          "                    check a lesson file (FILE:LINE: errors) and play it\n"
          "                    through in a temporary folder\n"
          "      --lang en|ko  the lessons' language (default from LANG)\n"
          "      --report FILE.html\n"
          "                    write your lessons' report (a page to hand in) and exit\n"
          "      --report-summary DIR\n"
          "                    a table of the reports (*.html) in DIR, one row each\n"
          "  -h, --help        show this help\n"
          "  -V, --version     show the version\n"
          "\n"
          "Exit status: 0 success, 1 an error in the input, 2 bad usage.\n"
          "In the REPL, :help lists commands and builtins.\n"), f);
}

/* LC_CTYPE (i18n_ctype, i18n.h) and LC_NUMERIC "C": numbers print and
 * parse with a decimal point. */
static void locale_init(void)
{
    i18n_ctype_start();
    setlocale(LC_NUMERIC, "C");
    /* messages in the lessons' language (--lang moves it; i18n.h) */
    i18n_set_lang(lesson_lang_default() == LESSON_KO ? "ko" : "en");
}

int main(int argc, char **argv)
{
    locale_init();
    enum { OPT_HEADLESS = 256, OPT_LESSON, OPT_AUTO, OPT_CHECK_LESSON, OPT_LANG, OPT_RESTORE, OPT_REPORT, OPT_REPORT_SUMMARY };
    static const struct option longopts[] = {
        { "eval", required_argument, NULL, 'e' },
        { "headless", no_argument, NULL, OPT_HEADLESS },
        { "lesson", required_argument, NULL, OPT_LESSON },
        { "auto", no_argument, NULL, OPT_AUTO },
        { "check-lesson", required_argument, NULL, OPT_CHECK_LESSON },
        { "lang", required_argument, NULL, OPT_LANG },
        { "restore", no_argument, NULL, OPT_RESTORE },
        { "report", required_argument, NULL, OPT_REPORT },
        { "report-summary", required_argument, NULL, OPT_REPORT_SUMMARY },
        { "help", no_argument, NULL, 'h' },
        { "version", no_argument, NULL, 'V' },
        { NULL, 0, NULL, 0 },
    };
    repl_options_t opt = { .headless = false };
    const char *lesson = NULL, *check_lesson = NULL, *report = NULL, *report_summary = NULL;
    bool lesson_auto_run = false, restore = false;
    int lang = -1;
    bool want_help = false;
    /* -e texts point into argv: no copies to free. */
    const char **evals = calloc((size_t)argc + 1, sizeof *evals);
    int n_evals = 0;
    if (!evals) {
        fputs(_("nnpad: out of memory\n"), stderr);
        return 1;
    }

    int c;
    opterr = 0;   /* our own messages, in our words */
    while ((c = getopt_long(argc, argv, "e:hV", longopts, NULL)) != -1) {
        switch (c) {
        case 'e':
            evals[n_evals++] = optarg;
            break;
        case OPT_HEADLESS:
            opt.headless = true;
            break;
        case OPT_LESSON:
            lesson = optarg;
            break;
        case OPT_AUTO:
            lesson_auto_run = true;
            break;
        case OPT_RESTORE:
            restore = true;
            break;
        case OPT_CHECK_LESSON:
            check_lesson = optarg;
            break;
        case OPT_REPORT:
            report = optarg;
            break;
        case OPT_REPORT_SUMMARY:
            report_summary = optarg;
            break;
        case OPT_LANG:
            lang = lesson_lang_from_name(optarg);
            if (lang < 0) {
                fprintf(stderr, _("nnpad: --lang takes en or ko (got '%s')\nTry 'nnpad --help'.\n"), optarg);
                free(evals);
                return 2;
            }
            i18n_set_lang(lang == LESSON_KO ? "ko" : "en");
            break;
        case 'h':
            want_help = true;
            break;
        case 'V':
            printf("nnpad %s\n", NNPAD_VERSION);
            free(evals);
            return 0;
        default:
            if (optopt == 'e')
                fputs(_("nnpad: -e needs an expression\n"), stderr);
            else if (optopt == OPT_LESSON || optopt == OPT_CHECK_LESSON || optopt == OPT_LANG
                     || optopt == OPT_REPORT || optopt == OPT_REPORT_SUMMARY)
                fprintf(stderr, _("nnpad: %s needs an argument\n"), argv[optind - 1]);
            else if (optopt)
                fprintf(stderr, _("nnpad: unknown option '-%c'\n"), optopt);
            else
                fprintf(stderr, _("nnpad: unknown option '%s'\n"), argv[optind - 1]);
            fputs(_("Try 'nnpad --help'.\n"), stderr);
            free(evals);
            return 2;
        }
    }
    if (want_help) {
        usage(stdout);
        free(evals);
        return 0;
    }
    const char *file = optind < argc ? argv[optind] : NULL;
    const char *clash = (report || report_summary) && (lesson || check_lesson || restore || file || n_evals || (report && report_summary))
                            ? N_("--report and --report-summary go alone (with --lang)")
                        : lesson_auto_run && !lesson ? N_("--auto goes with --lesson NAME")
                        : (lesson || check_lesson) && (file || n_evals) ? N_("--lesson and --check-lesson take no FILE or -e")
                        : lesson && check_lesson ? N_("--lesson and --check-lesson cannot be combined")
                        : restore && (n_evals || check_lesson || lesson_auto_run) ? N_("--restore goes with the REPL, a pipe or a FILE")
                        : NULL;
    if (clash) {
        fprintf(stderr, "nnpad: %s\n%s", _(clash), _("Try 'nnpad --help'.\n"));
        free(evals);
        return 2;
    }
    if (argc - optind > 1 || (file && n_evals)) {
        fprintf(stderr, "nnpad: %s\n%s", n_evals ? _("-e and a FILE cannot be combined") : _("only one FILE may be given"),
                _("Try 'nnpad --help'.\n"));
        free(evals);
        return 2;
    }

    if (report_summary) {
        int st = lesson_report_summary(lang >= 0 ? lang : lesson_lang_default(), report_summary, stdout, stderr);
        free(evals);
        return st;
    }
    if (report) {
        char why[1200];
        int st = lesson_report_write(lang >= 0 ? lang : lesson_lang_default(), report, stdout, why, sizeof why);
        if (st) fprintf(stderr, _("nnpad: cannot write the report %s: %s\n"), report, why);
        free(evals);
        return st;
    }

    session_t *s = session_new();
    repl_t *r = s ? repl_new(s, &opt) : NULL;
    if (!r) {
        fputs(_("nnpad: out of memory\n"), stderr);
        if (s)
            session_free(s);
        free(evals);
        return 1;
    }
    repl_install_signals(r);
    if (opt.headless)
        view_set_headless(true);

    int status = 0;
    if (lang >= 0)
        lesson_set_lang(repl_lesson(r), lang);
    if (check_lesson || (lesson && lesson_auto_run)) {
        /* played through without a person: output and errors on their own
         * streams, line-buffered so that they interleave in order */
        setvbuf(stdout, NULL, _IOLBF, 0);
        status = check_lesson ? lesson_check_file(repl_lesson(r), check_lesson, stdout, stderr)
                              : lesson_auto(repl_lesson(r), lesson, stdout, stderr);
    } else if (lesson) {
        char err[4096];
        if (lesson_start(repl_lesson(r), lesson, stdout, err, sizeof err) != 0) {
            fprintf(stderr, "nnpad: %s\n", err);
            status = 1;
        } else if (isatty(STDIN_FILENO)) {
            status = repl_interactive(r);
        } else {
            status = repl_run_stream(r, stdin, "<stdin>", false, stdout, stdout);
        }
    } else if (n_evals) {
        /* Output and errors go to different streams here: line buffering
         * keeps them in order when both are captured together (2>&1). */
        setvbuf(stdout, NULL, _IOLBF, 0);
        for (int i = 0; i < n_evals && status == 0 && !repl_quit_requested(r); i++)
            status = repl_run_text(r, "<-e>", evals[i], strlen(evals[i]), stdout, stderr);
    } else if (file) {
        setvbuf(stdout, NULL, _IOLBF, 0);
        repl_journal_start(r, false);
        if (restore) status = repl_restore(r, stdout);
        if (!repl_quit_requested(r)) status |= repl_run_file(r, file, stdout, stderr);
    } else if (isatty(STDIN_FILENO)) {
        repl_journal_start(r, true);
        if (restore) repl_restore(r, stdout);
        status = repl_interactive(r);
    } else {
        /* A pipe behaves like a typed session: errors beside their input on
         * stdout, and the session keeps going after them. */
        repl_journal_start(r, false);
        if (restore) status = repl_restore(r, stdout);
        status |= repl_run_stream(r, stdin, "<stdin>", false, stdout, stdout);
    }

    fflush(stdout);
    view_window_close();
    repl_free(r);
    session_free(s);
    free(evals);
    return status;
}
