/* fuzz_common.h — what the libFuzzer targets (fuzz_nnpad.c, fuzz_lesson.c)
 * share: a scratch folder of their own, confinement, and the paths on the
 * command line made absolute.
 *
 * fuzz_setup(argc, argv), from LLVMFuzzerInitialize:
 *   - the scratch folder $TMPDIR/nnpad-fuzz-PID-XXXXXX is made and entered;
 *     it is removed at exit, and the ones of processes no longer running
 *     (a job killed by -fork's parent, a crash) are removed at start;
 *   - every relative path on the command line (corpus folders,
 *     -artifact_prefix=, -dict=, ...) is made absolute first: the target
 *     leaves the folder it was started in; the parent of -fork=N (-jobs,
 *     -workers) runs no input and stays there, so that its jobs start
 *     through a relative path too;
 *   - nnpad's state ($XDG_STATE_HOME, absolute, so that nnpad uses it) is
 *     the scratch folder's state/, files are confined to the scratch folder
 *     (afile_confine), figures headless, no journal, stdin /dev/null, the
 *     limit at most 256 MB.
 * fuzz_clean() empties the scratch folder after each input. */
#ifndef NN_FUZZ_COMMON_H
#define NN_FUZZ_COMMON_H

#include "util/afile.h"
#include "util/mem.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char fuzz_scratch[PATH_MAX];
static char fuzz_tmp[PATH_MAX];

static int fuzz_remove_one(const char *p, const struct stat *sb, int flag, struct FTW *f)
{
    (void)sb; (void)flag; (void)f;
    remove(p);
    return 0;
}

static int fuzz_remove_inside(const char *p, const struct stat *sb, int flag, struct FTW *f)
{
    (void)sb; (void)flag;
    if (f->level > 0) remove(p);
    return 0;
}

static void fuzz_remove_scratch(void)
{
    if (fuzz_scratch[0]) {
        if (chdir(fuzz_tmp) != 0) { /* removed by absolute path anyway */ }
        nftw(fuzz_scratch, fuzz_remove_one, 16, FTW_DEPTH | FTW_PHYS);
    }
}

/* scratch folders of processes that are gone */
static void fuzz_remove_stale(void)
{
    DIR *d = opendir(fuzz_tmp);
    struct dirent *e;
    while (d && (e = readdir(d))) {
        long pid;
        int used = 0;
        if (sscanf(e->d_name, "nnpad-fuzz-%ld-%n", &pid, &used) != 1 || used == 0 || pid <= 0) continue;
        if (pid <= INT_MAX && (kill((pid_t)pid, 0) == 0 || errno != ESRCH)) continue;
        char p[PATH_MAX + 300];
        snprintf(p, sizeof p, "%s/%s", fuzz_tmp, e->d_name);
        nftw(p, fuzz_remove_one, 16, FTW_DEPTH | FTW_PHYS);
    }
    if (d) closedir(d);
}

static char *fuzz_absolute(const char *cwd, const char *p)
{
    char *r = NULL;
    if (p[0] == '/' || !p[0]) return strdup(p);
    if (asprintf(&r, "%s/%s", cwd, p) < 0) return NULL;
    return r;
}

/* libFuzzer reads its flags after LLVMFuzzerInitialize: argv can change
 * (all but argv[0], which libFuzzer checks).  True for the parent of
 * -fork=N, -jobs=N or -workers=N, which runs no input itself and starts
 * its jobs with argv[0] as typed: it stays in the folder it started in. */
static bool fuzz_absolute_args(int *argc, char ***argv)
{
    bool parent = false;
    for (int i = 1; i < *argc; i++) {
        const char *a = (*argv)[i];
        if ((!strncmp(a, "-fork=", 6) || !strncmp(a, "-jobs=", 6) || !strncmp(a, "-workers=", 9)) && atoi(strchr(a, '=') + 1) > 0)
            parent = true;
    }
    static const char *const path_flags[] = { "-artifact_prefix=", "-exact_artifact_path=", "-dict=",
                                              "-merge_control_file=", "-features_dir=", "-mutation_graph_file=",
                                              "-data_flow_trace=", "-merge_inner=", NULL };
    char cwd[PATH_MAX];
    if (!getcwd(cwd, sizeof cwd)) return parent;
    char **v = calloc((size_t)*argc + 1, sizeof *v);
    if (!v) return parent;
    for (int i = 0; i < *argc; i++) {
        const char *a = (*argv)[i];
        v[i] = NULL;
        if (i > 0 && a[0] != '-') v[i] = fuzz_absolute(cwd, a);
        else if (i > 0)
            for (int k = 0; path_flags[k]; k++) {
                size_t n = strlen(path_flags[k]);
                if (strncmp(a, path_flags[k], n) || !strcmp(path_flags[k], "-merge_inner=")) continue;
                char *abs = fuzz_absolute(cwd, a + n);
                if (abs && asprintf(&v[i], "%.*s%s", (int)n, a, abs) < 0) v[i] = NULL;
                free(abs);
            }
        if (!v[i]) v[i] = (char *)a;
    }
    v[*argc] = NULL;
    static char **keep;   /* reachable for the process's life */
    keep = v;
    *argv = keep;
    return parent;
}

static void fuzz_setup(int *argc, char ***argv)
{
    if (argc && argv && fuzz_absolute_args(argc, argv)) return;
    const char *t = getenv("TMPDIR");
    snprintf(fuzz_tmp, sizeof fuzz_tmp, "%s", t && *t && strlen(t) < 200 ? t : "/tmp");
    fuzz_remove_stale();
    snprintf(fuzz_scratch, sizeof fuzz_scratch, "%s/nnpad-fuzz-%ld-XXXXXX", fuzz_tmp, (long)getpid());
    if (!mkdtemp(fuzz_scratch) || chdir(fuzz_scratch) != 0) { perror("nnpad fuzz: scratch folder"); exit(1); }
    atexit(fuzz_remove_scratch);
    int fd = open("/dev/null", O_RDONLY);
    if (fd >= 0) { dup2(fd, 0); close(fd); }
    char state[PATH_MAX + 16];
    snprintf(state, sizeof state, "%s/state", fuzz_scratch);
    setenv("NNPAD_TEST", "1", 1);        /* no journal, fixed seeds, no window */
    setenv("NNPAD_HEADLESS", "1", 1);
    setenv("XDG_STATE_HOME", state, 1);  /* absolute: a relative one is ignored */
    unsetenv("NNPAD_FIGURES");
    unsetenv("NNPAD_JOURNAL");
    afile_confine();
    mem_set_limit_max((size_t)256 << 20);
}

/* what the input wrote in the scratch folder goes */
static void fuzz_clean(void)
{
    if (chdir(fuzz_scratch) != 0) return;
    nftw(".", fuzz_remove_inside, 16, FTW_DEPTH | FTW_PHYS);
}

#endif
