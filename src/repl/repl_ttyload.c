/* repl_ttyload.c — the program's side of the terminal module.  GNU
 * Readline (and its terminfo library) are not linked into nnpad: loading
 * them cost every start, also `nnpad -e 1+1` and every script or pipe,
 * which edit no line.  repl_tty.c is built into nnpad-tty.so, opened here
 * when the REPL is interactive on a terminal ($NNPAD_TTY_MODULE, beside
 * the executable, then pkglibexecdir: afile_module_open).  Without it the
 * session says why and goes on without line editing. */
#include "repl/repl_int.h"
#include "util/afile.h"
#include "util/i18n.h"
#include <dlfcn.h>
#include <stdio.h>

int repl_interactive(repl_t *r)
{
    char err[512];
    int why = 0;
    void *h = afile_module_open("nnpad-tty.so", "NNPAD_TTY_MODULE", &why, err, sizeof err);
    int (*(*entry)(int))(repl_t *) = h ? (int (*(*)(int))(repl_t *))dlsym(h, "nn_tty_entry") : NULL;
    int (*run)(repl_t *) = entry ? entry(NN_TTY_ABI) : NULL;
    if (run) return run(r);
    if (h) {
        fprintf(stderr, "%s\n", _("nnpad: warning: the terminal module nnpad-tty.so belongs to another build of nnpad; "
                                  "line editing and history are off"));
        dlclose(h);
    } else if (why == AFILE_MOD_OPEN) {
        fprintf(stderr, _("nnpad: warning: line editing and history are off: the terminal module could not be opened "
                          "(is GNU Readline installed? Debian: libreadline8): %s\n"), err);
    } else if (why == AFILE_MOD_NOENV) {
        fprintf(stderr, _("nnpad: warning: line editing and history are off: no terminal module at %s (NNPAD_TTY_MODULE)\n"),
                err);
    } else {
        fprintf(stderr, _("nnpad: warning: line editing and history are off: the terminal module nnpad-tty.so was not "
                          "found (beside nnpad or in %s)\n"), err);
    }
    /* typed lines still run, one by one, as from a pipe */
    repl_run_stream(r, stdin, "<stdin>", false, stdout, stdout);
    return 0;   /* as interactive: errors in the input do not count */
}
