/* main.c — options, start-up, and hand-over to the REPL, a script, or -e.
 *
 *   nnpad                 interactive REPL if stdin is a terminal; otherwise
 *                         read stdin as typed input (no prompts), keep going
 *                         after errors, exit 1 if any occurred
 *   nnpad FILE.nn         run a script; the first error stops it (exit 1)
 *   nnpad -e EXPR ...     run each EXPR in order (may repeat); stops at the
 *                         first error (exit 1)
 *   --headless            figures to files, never a window (remembered)
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
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lang/session.h"
#include "repl/repl.h"
#include "view/view.h"

static void usage(FILE *f)
{
    fputs("usage: nnpad [OPTIONS] [FILE.nn]\n"
          "\n"
          "With no FILE: the interactive REPL when standard input is a terminal,\n"
          "otherwise standard input is read as typed input (no prompts).\n"
          "\n"
          "  FILE.nn           run a script (\"-\" for standard input); the first\n"
          "                    error stops it with exit status 1\n"
          "  -e, --eval EXPR   evaluate EXPR and print its value; may be repeated,\n"
          "                    each runs in order in the same session\n"
          "      --headless    write figures to PNG/SVG files instead of a window\n"
          "  -h, --help        show this help\n"
          "  -V, --version     show the version\n"
          "\n"
          "Exit status: 0 success, 1 an error in the input, 2 bad usage.\n"
          "In the REPL, :help lists commands and builtins.\n", f);
}

int main(int argc, char **argv)
{
    enum { OPT_HEADLESS = 256 };
    static const struct option longopts[] = {
        { "eval", required_argument, NULL, 'e' },
        { "headless", no_argument, NULL, OPT_HEADLESS },
        { "help", no_argument, NULL, 'h' },
        { "version", no_argument, NULL, 'V' },
        { NULL, 0, NULL, 0 },
    };
    repl_options_t opt = { .headless = false };
    /* -e texts point into argv: no copies to free. */
    const char **evals = calloc((size_t)argc + 1, sizeof *evals);
    int n_evals = 0;
    if (!evals) {
        fputs("nnpad: out of memory\n", stderr);
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
        case 'h':
            usage(stdout);
            free(evals);
            return 0;
        case 'V':
            printf("nnpad %s\n", NNPAD_VERSION);
            free(evals);
            return 0;
        default:
            if (optopt == 'e')
                fputs("nnpad: -e needs an expression\n", stderr);
            else if (optopt)
                fprintf(stderr, "nnpad: unknown option '-%c'\n", optopt);
            else
                fprintf(stderr, "nnpad: unknown option '%s'\n", argv[optind - 1]);
            fputs("Try 'nnpad --help'.\n", stderr);
            free(evals);
            return 2;
        }
    }
    const char *file = optind < argc ? argv[optind] : NULL;
    if (argc - optind > 1 || (file && n_evals)) {
        fprintf(stderr, "nnpad: %s\nTry 'nnpad --help'.\n",
                n_evals ? "-e and a FILE cannot be combined" : "only one FILE may be given");
        free(evals);
        return 2;
    }

    session_t *s = session_new();
    repl_t *r = s ? repl_new(s, &opt) : NULL;
    if (!r) {
        fputs("nnpad: out of memory\n", stderr);
        if (s)
            session_free(s);
        free(evals);
        return 1;
    }
    repl_install_signals(r);
    if (opt.headless)
        view_set_headless(true);

    int status = 0;
    if (n_evals || file) {
        /* Output and errors go to different streams here: line buffering
         * keeps them in order when both are captured together (2>&1). */
        setvbuf(stdout, NULL, _IOLBF, 0);
        if (n_evals) {
            for (int i = 0; i < n_evals && status == 0 && !repl_quit_requested(r); i++)
                status = repl_run_text(r, "<-e>", evals[i], strlen(evals[i]), stdout, stderr);
        } else {
            status = repl_run_file(r, file, stdout, stderr);
        }
    } else if (isatty(STDIN_FILENO)) {
        status = repl_interactive(r);
    } else {
        /* A pipe behaves like a typed session: errors beside their input on
         * stdout, and the session keeps going after them. */
        status = repl_run_stream(r, stdin, "<stdin>", false, stdout, stdout);
    }

    fflush(stdout);
    view_window_close();
    repl_free(r);
    session_free(s);
    free(evals);
    return status;
}
