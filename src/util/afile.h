/* afile.h — the one way nnpad rewrites a file (:save, figures, history,
 * lesson progress) without losing the old one: write a temporary file in
 * the same folder, flush, fsync, rename it over the old name.  A failed
 * write leaves the old file as it was, removes the temporary file and
 * says why ("cannot write PATH: No space left on device").
 *
 *     afile_t a;
 *     if (!afile_open(&a, path, err, cap)) return -1;
 *     afile_printf(&a, "...");             (or fwrite into a.f, afile_write)
 *     return afile_commit(&a, err, cap);   (0, or -1 with err; a.f is gone)
 *
 * A writer that does not go through a.f's error flag (Cairo's stream
 * callback) records its failure with afile_fail; afile_abort gives up
 * without a message. */
#ifndef NN_UTIL_AFILE_H
#define NN_UTIL_AFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

typedef struct afile {
    FILE *f;        /* the temporary file, open for writing */
    int fd;         /* its descriptor (f may be a stream without one) */
    int err;        /* the first errno a write failed with; 0 if none */
    char *name;     /* the name asked for, as messages say it */
    char *path;     /* the file replaced (a symlink's target) */
    char *tmp;      /* the temporary file beside it */
} afile_t;

/* Create the temporary file beside path (mode: the old file's, else
 * 0666 less the umask).  The FILE, or NULL with err set. */
FILE *afile_open(afile_t *a, const char *path, char *err, size_t cap);
/* Write n bytes; -1 (recorded) on failure. */
int afile_write(afile_t *a, const void *p, size_t n);
int afile_printf(afile_t *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Record a failure seen outside a->f (errno e; 0 means EIO). */
void afile_fail(afile_t *a, int e);
/* Flush, fsync, close and rename over the old file: 0; or -1 with
 * "cannot write PATH: REASON" in err, the old file untouched and the
 * temporary file removed. */
int afile_commit(afile_t *a, char *err, size_t cap);
/* Close and remove the temporary file; the old file stays. */
void afile_abort(afile_t *a);

/* All n bytes to the descriptor fd (an append-only file: the history, a
 * session journal), write() retried after EINTR and short writes: 0, or
 * the errno of the failure. */
int afile_write_all(int fd, const void *p, size_t n);

/* nnpad's folder for state that outlives a session (history, lesson
 * progress, session journals): $XDG_STATE_HOME/nnpad, else
 * ~/.local/state/nnpad (the XDG Base Directory spec: a relative
 * $XDG_STATE_HOME is ignored; HOME, else the password entry).  false when
 * there is no home.  afile_mkdirs makes a folder and its parents: 0, or -1
 * with errno. */
bool afile_state_dir(char *out, size_t cap);
/* The folder of the running program (/proc/self/exe up to its last '/'):
 * where the build tree keeps its modules, catalogue and lessons beside it;
 * false (out "") when it cannot be read or does not fit. */
bool afile_exe_dir(char *out, size_t cap);
/* One of nnpad's modules (nnpad-draw.so, nnpad-tty.so), opened with
 * dlopen (RTLD_NOW | RTLD_LOCAL) on first use so that a start that does not
 * need it loads none of its libraries: at $env when that is set and not
 * empty, else beside the executable (the build tree), else in the
 * installed pkglibexecdir.  The handle, or NULL with *why one of
 * AFILE_MOD_NOENV ($env names no file; err: that name), AFILE_MOD_NONE
 * (found nowhere; err: the pkglibexecdir), AFILE_MOD_OPEN (it would not
 * open; err: dlerror's reason, such as a library it needs missing). */
enum { AFILE_MOD_NOENV = 1, AFILE_MOD_NONE, AFILE_MOD_OPEN };
void *afile_module_open(const char *file, const char *env, int *why, char *err, size_t cap);
int afile_mkdirs(const char *path);
/* path with a leading ~ or ~user (followed by '/' or the end) replaced by
 * that home folder ($HOME, else the password entry), as a shell and
 * readline's tilde_expand do; anything else unchanged.  malloc'd; NULL
 * when out of memory. */
char *afile_tilde(const char *path);

/* Confinement.  Strict (afile_confine(): the fuzzer, --check-lesson):
 * every file nnpad opens by a name the input gives (:load, :save,
 * :figures, load_csv, :lesson FILE) and every file afile_open or
 * afile_mkdirs writes must be inside the working folder of the moment it
 * was called: a relative path without a ".." part, or an absolute one
 * below that folder.  For code (afile_confine_code(true) around a lesson's
 * own code, returning the previous setting): the names that code gives
 * must be relative without "..", nnpad's own files are still written
 * (afile_code_confined: whether that is on).
 * afile_allowed says so, or false with "PATH: outside the folder this
 * session is confined to" in err (errno EACCES). */
void afile_confine(void);
bool afile_confine_code(bool on);
bool afile_code_confined(void);
bool afile_allowed(const char *path, char *err, size_t cap);

/* The names in folder dir that end in suffix and do not start with '.'
 * (at least one character before the suffix), sorted by strcmp, into a
 * new array *names (each name malloc'd; afile_list_free frees them).
 * Returns how many, or -1 with errno when dir cannot be read; a failed
 * allocation ends the list early. */
int afile_list(const char *dir, const char *suffix, char ***names);
void afile_list_free(char **names, int n);

#endif
