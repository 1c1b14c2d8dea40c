/* plat.h — what the native build and the web build (wasm32-wasi, run by
 * Node or a browser page) do differently, behind one small interface;
 * plat.c has both, chosen by __wasi__.  Nothing here computes what a user
 * sees: the web build runs the same core with one thread, no processes,
 * no signals and no dlopen.
 *
 * The web build in short: SLEEF's portable C is linked in (util/
 * sleef_load.c, third_party/sleef); each library nnpad opens with dlopen
 * (MPFR, OpenBLAS, CUDA, the drawing and terminal modules) fails to open
 * there, with dlerror() saying "not available in the web build (yet)", so
 * the facility that needs it raises its usual error at the user's line;
 * signal handlers, timers and child processes do not exist (interrupts
 * will come from the page); the stack is the one the link gave. */
#ifndef NN_PLAT_H
#define NN_PLAT_H
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#ifndef __wasi__
#include <signal.h>
typedef struct sigaction plat_sig_t;
#else
typedef int plat_sig_t;
#endif

/* Is this the process's main thread?  (The web build has no other.) */
bool plat_main_thread(void);
/* This process's id (names of journals and temporary files).  Web: WASI
 * has no process ids: a random positive number, the same for the run, so
 * that two runs sharing a folder do not take each other's names. */
long plat_pid(void);
/* Might process pid still be running?  (Web: no other processes: false.) */
bool plat_pid_alive(long pid);
/* The home folder of user (NULL: this user's: $HOME, else the password
 * database's), NULL if none; valid until the next call.  (Web: $HOME.) */
const char *plat_home(const char *user);
/* Bytes the main thread's stack may hold (the rlimit natively, capped at
 * 256 MiB; 8 MiB when unlimited or unknown; web: the linked stack). */
size_t plat_stack_limit(void);
/* sz bytes of fresh zero-filled memory for large blocks, 2 MiB aligned
 * (and advised huge pages) from 2 MiB natively; NULL if none.  Freed with
 * plat_pages_free(p, sz) with the same sz. */
void *plat_pages(size_t sz);
void plat_pages_free(void *p, size_t sz);
/* mkstemp(3): a new file named from tmpl (ending XXXXXX), opened O_RDWR;
 * -1 with errno. */
int plat_mkstemp(char *tmpl);
/* flock(2) (LOCK_SH, LOCK_EX, LOCK_NB from <sys/file.h>).  Web: 0, as
 * the only process there is holds every lock. */
int plat_flock(int fd, int op);
/* popen(cmd, "r") and pclose; web: NULL with errno ENOSYS. */
FILE *plat_popen_read(const char *cmd);
int plat_pclose(FILE *p);
/* Call h on signal sig (no SA_RESTART: a blocking call returns EINTR),
 * keeping the old disposition in *old if old; restore it.  Web: nothing
 * (no signals are delivered). */
void plat_sig_catch(int sig, void (*h)(int), plat_sig_t *old);
void plat_sig_restore(int sig, const plat_sig_t *old);
/* SIGALRM after secs of real time (0: cancel).  Web: no alarm. */
void plat_alarm(double secs);
#endif
