/* afile.c — rewriting a file atomically (afile.h). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1
#endif
#include "util/afile.h"
#include "util/i18n.h"
#include "util/plat.h"
#include <dlfcn.h>
#include <dirent.h>
#include <signal.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void afile_free(afile_t *a)
{
    free(a->name);
    free(a->path);
    free(a->tmp);
    a->name = a->path = a->tmp = NULL;
    a->f = NULL;
    a->fd = -1;
}

/* strict: every path nnpad opens for writing (the fuzzer, --check-lesson);
 * code: names the running code gives (a lesson's own code); root: the
 * working folder when strict confinement began (an absolute path below it
 * is inside) */
static bool confined;
static int code_confined;
static char confine_root[4096];
void afile_confine(void)
{
    confined = true;
    if (!getcwd(confine_root, sizeof confine_root)) confine_root[0] = 0;
}
bool afile_confine_code(bool on)
{
    bool was = code_confined > 0;
    code_confined = on;
    return was;
}
bool afile_code_confined(void) { return code_confined > 0; }

static bool inside(const char *path)
{
    bool up = false;
    for (const char *p = path; *p; p++)
        if ((p == path || p[-1] == '/') && p[0] == '.' && p[1] == '.' && (p[2] == '/' || !p[2])) up = true;
    if (up || !path[0]) return false;
    if (path[0] != '/') return true;
    size_t n = strlen(confine_root);
    return confined && n > 1 && !strncmp(path, confine_root, n) && path[n] == '/';
}

static bool refuse(const char *path, char *err, size_t cap)
{
    if (err && cap) snprintf(err, cap, _("%s: outside the folder this session is confined to"), path);
    errno = EACCES;
    return false;
}

bool afile_allowed(const char *path, char *err, size_t cap)
{
    if (!confined && !code_confined) return true;
    return inside(path) || refuse(path, err, cap);
}

/* what afile_open and afile_mkdirs check themselves: strict confinement
 * only (under a lesson's code, nnpad's own files, such as an absolute
 * :figures folder the student chose, are still written) */
static bool strict_allowed(const char *path, char *err, size_t cap)
{
    return !confined || inside(path) || refuse(path, err, cap);
}

/* The file a chain of symbolic links ends at, as an editor writes through
 * them: a link to a missing file names the file to create (malloc'd); NULL
 * with errno (ELOOP for a loop). */
static char *follow_links(const char *path)
{
    char *cur = strdup(path);
    for (int hops = 0; cur; hops++) {
        struct stat st;
        if (lstat(cur, &st) != 0 || !S_ISLNK(st.st_mode)) return cur;
        char buf[PATH_MAX];
        ssize_t n = hops < 40 ? readlink(cur, buf, sizeof buf - 1) : -1;
        if (n < 0) {
            int e = hops < 40 ? errno : ELOOP;
            free(cur);
            errno = e;
            return NULL;
        }
        buf[n] = 0;
        const char *sl = strrchr(cur, '/');
        char *next = NULL;
        if (asprintf(&next, "%.*s%s", buf[0] == '/' || !sl ? 0 : (int)(sl - cur + 1), cur, buf) < 0) next = NULL;
        free(cur);
        cur = next;
    }
    errno = ENOMEM;
    return NULL;
}

/* A temporary file a killed writer left: DIR/.BASE.PID-K.tmp whose PID is
 * no longer running (kill -9 between creating it and the rename).  Removed
 * when the same file is written again; a live writer's is left alone. */
static void remove_stale(const char *dir, const char *base)
{
    DIR *d = opendir(*dir ? dir : ".");
    if (!d) return;
    size_t bl = strlen(base);
    struct dirent *e;
    while ((e = readdir(d))) {
        const char *n = e->d_name;
        if (n[0] != '.' || strncmp(n + 1, base, bl) || n[1 + bl] != '.') continue;
        char *end;
        errno = 0;
        long pid = strtol(n + 2 + bl, &end, 10);
        if (errno || pid <= 0 || *end != '-' || end == n + 2 + bl) continue;
        unsigned long k = strtoul(end + 1, &end, 10);
        (void)k;
        if (strcmp(end, ".tmp") || pid == plat_pid() || plat_pid_alive(pid))
            continue;
        char p[PATH_MAX];
        if (snprintf(p, sizeof p, "%s%s", dir, n) < (int)sizeof p) unlink(p);
    }
    closedir(d);
}

FILE *afile_open(afile_t *a, const char *path, char *err, size_t cap)
{
    memset(a, 0, sizeof *a);
    a->fd = -1;
    if (!strict_allowed(path, err, cap)) return NULL;
    a->name = strdup(path);
    /* a symlink stays a link: the file it names is replaced (or made,
     * when the link points to a missing file, as editors do) */
    struct stat st;
    bool old = false, linked = lstat(path, &st) == 0 && S_ISLNK(st.st_mode);
    a->path = linked ? follow_links(path) : strdup(path);
    if (!a->name || !a->path) {
        int e = a->name ? errno : ENOMEM;
        if (e == ELOOP)
            snprintf(err, cap, _("cannot write %s: it is a symbolic link that loops (%s); nothing was written"), path,
                     strerror(e));
        else
            snprintf(err, cap, _("cannot write %s: %s"), path, strerror(e));
        afile_free(a);
        return NULL;
    }
    if (stat(a->path, &st) == 0) {
        if (S_ISDIR(st.st_mode)) {
            snprintf(err, cap, _("cannot write %s: %s"), path, strerror(EISDIR));
            afile_free(a);
            return NULL;
        }
        if (!S_ISREG(st.st_mode)) {
            /* a device or a FIFO: a rename would replace it, not write to it */
            snprintf(err, cap, _("cannot write %s: not a regular file"), path);
            afile_free(a);
            return NULL;
        }
        old = true;
    }
    /* DIR/.BASE.PID-K.tmp: hidden, beside the file (a rename never
     * crosses file systems), and never a name a figure takes */
    const char *slash = strrchr(a->path, '/');
    int dirlen = slash ? (int)(slash - a->path + 1) : 0;
    const char *base = a->path + dirlen;
    char *dir = strndup(a->path, (size_t)dirlen);
    if (dir) remove_stale(dir, base);
    free(dir);
    static unsigned counter;
    int e = 0;
    for (int tries = 0; tries < 100; tries++) {
        free(a->tmp);
        if (asprintf(&a->tmp, "%.*s.%s.%ld-%u.tmp", dirlen, a->path, base, plat_pid(), counter++) < 0) {
            a->tmp = NULL;
            e = ENOMEM;
            break;
        }
        a->fd = open(a->tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (a->fd >= 0 || errno != EEXIST) {
            e = errno;
            break;
        }
    }
    if (a->fd < 0) {
        if (linked && e == ENOENT)
            snprintf(err, cap, _("cannot write %s: it is a symbolic link to %s, whose folder does not exist"), path, a->path);
        else
            snprintf(err, cap, _("cannot write %s: %s"), path, strerror(e ? e : EEXIST));
        free(a->tmp);
        a->tmp = NULL;   /* nothing of ours to remove */
        afile_free(a);
        return NULL;
    }
    if (old)
        (void)fchmod(a->fd, st.st_mode & 07777);
    a->f = fdopen(a->fd, "w");
    if (!a->f) {
        e = errno;
        close(a->fd);
        unlink(a->tmp);
        snprintf(err, cap, _("cannot write %s: %s"), path, strerror(e));
        afile_free(a);
        return NULL;
    }
    return a->f;
}

void afile_fail(afile_t *a, int e)
{
    if (!a->err)
        a->err = e ? e : EIO;
}

int afile_write(afile_t *a, const void *p, size_t n)
{
    if (a->err)
        return -1;
    errno = 0;
    if (n && fwrite(p, 1, n, a->f) != n) {
        afile_fail(a, errno);
        return -1;
    }
    return 0;
}

int afile_printf(afile_t *a, const char *fmt, ...)
{
    if (a->err)
        return -1;
    va_list ap;
    va_start(ap, fmt);
    errno = 0;
    int rc = vfprintf(a->f, fmt, ap);
    va_end(ap);
    if (rc < 0) {
        afile_fail(a, errno);
        return -1;
    }
    return 0;
}

void afile_abort(afile_t *a)
{
    if (a->f)
        fclose(a->f);
    if (a->tmp)
        unlink(a->tmp);
    afile_free(a);
}

int afile_commit(afile_t *a, char *err, size_t cap)
{
    errno = 0;
    if (!a->err && (fflush(a->f) != 0 || ferror(a->f)))
        afile_fail(a, errno);
    if (!a->err && fsync(a->fd) != 0)
        afile_fail(a, errno);
    errno = 0;
    int rc = fclose(a->f);
    a->f = NULL;
    if (rc != 0)
        afile_fail(a, errno);
    if (!a->err && rename(a->tmp, a->path) != 0)
        afile_fail(a, errno);
    if (a->err) {
        unlink(a->tmp);
        snprintf(err, cap, _("cannot write %s: %s"), a->name, strerror(a->err));
        afile_free(a);
        return -1;
    }
    /* the rename itself reaches the disk */
    const char *slash = strrchr(a->path, '/');
    char *dir = slash ? strndup(a->path, slash == a->path ? 1 : (size_t)(slash - a->path)) : strdup(".");
    int dfd = dir ? open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC) : -1;
    if (dfd >= 0) {
        (void)fsync(dfd);
        close(dfd);
    }
    free(dir);
    afile_free(a);
    return 0;
}

bool afile_state_dir(char *out, size_t cap)
{
    const char *x = getenv("XDG_STATE_HOME");
    if (x && x[0] == '/') return snprintf(out, cap, "%s/nnpad", x) < (int)cap;
    const char *home = plat_home(NULL);
    if (!home) return false;
    /* a home that does not exist is not made (a typo in HOME, a user
     * without one): this session keeps no state, and says so once */
    struct stat st;
    int found = stat(home, &st) == 0 ? 0 : errno;
    if (found || !S_ISDIR(st.st_mode)) {
        static bool said;
        if (!said)
            fprintf(stderr, _("warning: the home folder %s %s: nnpad keeps no history, journal or lesson progress "
                      "this session (set HOME or XDG_STATE_HOME to a folder)\n"), home,
                    !found ? _("is not a folder") : found == ENOENT ? _("does not exist") : strerror(found));
        said = true;
        return false;
    }
    return snprintf(out, cap, "%s/.local/state/nnpad", home) < (int)cap;
}

void *afile_module_open(const char *file, const char *env, int *why, char *err, size_t cap)
{
    const char *e = env ? getenv(env) : NULL;
    char cand[2][PATH_MAX];
    int nc = 0;
    if (cap) err[0] = 0;
    if (e && *e) {
        snprintf(err, cap, "%s", e);
        if (access(e, F_OK) != 0) { *why = AFILE_MOD_NOENV; return NULL; }
        snprintf(cand[nc++], PATH_MAX, "%s", e);
    } else {
        char exe[PATH_MAX - 32];
        if (afile_exe_dir(exe, sizeof exe)) snprintf(cand[nc++], PATH_MAX, "%s/%s", exe, file);
#ifdef NN_PKGLIBEXECDIR
        snprintf(cand[nc++], PATH_MAX, "%s/%s", NN_PKGLIBEXECDIR, file);
#endif
    }
    for (int i = 0; i < nc; i++) {
        if (access(cand[i], F_OK) != 0) continue;
        /* RTLD_NOW: a module of another build that lacks a symbol fails
         * here with a message, not later in the middle of its work */
        i18n_ctype();   /* readline's and the drawing modules' locale */
        void *h = dlopen(cand[i], RTLD_NOW | RTLD_LOCAL);
        if (h) return h;
        snprintf(err, cap, "%s", dlerror());   /* e.g. libcairo.so.2: cannot open shared object file */
        *why = AFILE_MOD_OPEN;
        return NULL;
    }
#ifdef NN_PKGLIBEXECDIR
    snprintf(err, cap, "%s", NN_PKGLIBEXECDIR);
#else
    snprintf(err, cap, ".");
#endif
    *why = AFILE_MOD_NONE;
    return NULL;
}

char *afile_tilde(const char *path)
{
    if (path[0] != '~') return strdup(path);
    size_t u = strcspn(path + 1, "/");
    const char *home = NULL;
    if (u == 0) {
        home = plat_home(NULL);
    } else {
        char *user = strndup(path + 1, u);
        if (!user) return NULL;
        home = plat_home(user);
        free(user);
    }
    if (!home) return strdup(path);   /* no such user: the name as written */
    char *r = NULL;
    return asprintf(&r, "%s%s", home, path + 1 + u) < 0 ? NULL : r;
}

int afile_mkdirs(const char *path)
{
    if (!strict_allowed(path, NULL, 0)) return -1;
    char tmp[4096];
    if (snprintf(tmp, sizeof tmp, "%s", path) >= (int)sizeof tmp) { errno = ENAMETOOLONG; return -1; }
    for (char *p = tmp + 1; *p; p++) {
        if (*p != '/') continue;
        *p = 0;
        if (mkdir(tmp, 0777) != 0 && errno != EEXIST) return -1;
        *p = '/';
    }
    if (mkdir(tmp, 0777) != 0 && errno != EEXIST) return -1;
    return 0;
}

int afile_write_all(int fd, const void *p, size_t n)
{
    const char *q = p;
    while (n) {
        ssize_t w = write(fd, q, n);
        if (w < 0) {
            if (errno == EINTR) continue;
            return errno;
        }
        if (w == 0) return EIO;
        q += w;
        n -= (size_t)w;
    }
    return 0;
}

static int afile_cmp_names(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

int afile_list(const char *dir, const char *suffix, char ***names)
{
    *names = NULL;
    DIR *d = opendir(dir);
    if (!d) return -1;
    size_t sl = strlen(suffix);
    int n = 0, cap = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        size_t len = strlen(e->d_name);
        if (e->d_name[0] == '.' || len <= sl || strcmp(e->d_name + len - sl, suffix)) continue;
        if (n == cap) {
            cap = cap ? cap * 2 : 16;
            char **w = realloc(*names, (size_t)cap * sizeof *w);
            if (!w) break;
            *names = w;
        }
        (*names)[n] = strdup(e->d_name);
        if (!(*names)[n]) break;
        n++;
    }
    closedir(d);
    if (n) qsort(*names, (size_t)n, sizeof **names, afile_cmp_names);
    return n;
}

void afile_list_free(char **names, int n)
{
    for (int i = 0; i < n; i++) free(names[i]);
    free(names);
}

bool afile_exe_dir(char *out, size_t cap)
{
    if (cap) out[0] = 0;
    if (cap < 2) return false;
    ssize_t l = readlink("/proc/self/exe", out, cap - 1);
    if (l <= 0 || (size_t)l >= cap - 1) { out[0] = 0; return false; }
    out[l] = 0;
    char *slash = strrchr(out, '/');
    if (!slash) { out[0] = 0; return false; }
    *slash = 0;
    return true;
}
