/* view_notebook.c — the session as a notebook: one cell per input (its
 * text as caption, its printed output, its figure), shared by the window
 * (view_sdl.c draws the cells) and the exports (view_export.c writes them
 * as HTML or a replayable script); and the headless/window decision. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1
#endif
#include "view/view.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <dirent.h>
#include <unistd.h>
#include <fcntl.h>

#define CELL_TEXT_MAX (64 * 1024)   /* output kept per cell for the HTML page */

static struct {
    view_cell_t *cells;
    int n, cap;
    int cur;                 /* the cell of the running input, or -1 */
    int fignum;              /* figures made this session (headless numbering) */
    int first;               /* the first cell the window shows (:clear moves it) */
    int mode;                /* -1 undecided, 0 window, 1 headless */
    bool asked;              /* headless because it was asked for (--headless, :headless on, NNPAD_HEADLESS) */
    bool said_headless;
    char dir[1024];
    char scanned[1024];      /* the figure folder whose existing numbers were read */
    FILE *tee_out, *tee_err; /* the cookie streams handed to the session */
    FILE *real_out;
} nb = { .cur = -1, .mode = -1 };

static view_cell_t *cell_new(const char *caption, size_t len)
{
    if (nb.n == nb.cap) {
        int cap = nb.cap ? nb.cap * 2 : 64;
        view_cell_t *c = realloc(nb.cells, (size_t)cap * sizeof *c);
        if (!c) abort();
        nb.cells = c;
        nb.cap = cap;
    }
    view_cell_t *c = &nb.cells[nb.n++];
    memset(c, 0, sizeof *c);
    c->caption = malloc(len + 1);
    if (!c->caption) abort();
    memcpy(c->caption, caption, len);
    c->caption[len] = 0;
    return c;
}

static void cell_append(view_cell_t *c, const char *buf, size_t n)
{
    if (c->textlen + n > CELL_TEXT_MAX) n = c->textlen < CELL_TEXT_MAX ? CELL_TEXT_MAX - c->textlen : 0;
    if (!n) return;
    if (c->textlen + n + 1 > c->textcap) {
        size_t cap = c->textcap ? c->textcap : 256;
        while (cap < c->textlen + n + 1) cap *= 2;
        char *t = realloc(c->text, cap);
        if (!t) return;
        c->text = t;
        c->textcap = cap;
    }
    memcpy(c->text + c->textlen, buf, n);
    c->textlen += n;
    c->text[c->textlen] = 0;
}

/* The tee: writes go to the real stream and into the current cell. */
static ssize_t tee_write(void *cookie, const char *buf, size_t n)
{
    FILE **target = cookie;
    if (*target) fwrite(buf, 1, n, *target);
    if (nb.cur >= 0) cell_append(&nb.cells[nb.cur], buf, n);
    if (*target) fflush(*target);
    return (ssize_t)n;
}

/* Cells nest (:load runs a file's inputs inside the :load's own cell): the
 * enclosing cells' indices wait on a stack, and a nested cell's stream is
 * the tee itself, whose real stream stays the outermost one (set to itself,
 * the tee would write into itself forever). */
static int cur_stack[32], ncur;
/* ... and the real stream each cell found, put back when it ends: a nested
 * cell given another stream (a lesson replaying its steps into /dev/null)
 * must not leave the tee writing there. */
static FILE *real_stack[32];

FILE *view_cell_begin(const char *input, size_t len, FILE *out)
{
    while (len && (input[len - 1] == '\n' || input[len - 1] == ' ')) len--;
    if (ncur < 32) { cur_stack[ncur] = nb.cur; real_stack[ncur] = nb.real_out; }
    ncur++;
    cell_new(input, len);
    nb.cur = nb.n - 1;
    nb.cells[nb.cur].nested = ncur > 1;
    if (!nb.tee_out) {
        cookie_io_functions_t io = { .write = tee_write };
        nb.tee_out = fopencookie(&nb.real_out, "w", io);
        if (nb.tee_out) setvbuf(nb.tee_out, NULL, _IONBF, 0);
    }
    if (out != nb.tee_out) nb.real_out = out;
    return nb.tee_out ? nb.tee_out : out;
}

void view_cell_end(void)
{
    if (nb.tee_out) fflush(nb.tee_out);
    if (ncur > 0) ncur--;
    if (ncur < 32 && ncur > 0) nb.real_out = real_stack[ncur];
    nb.cur = ncur > 0 && ncur <= 32 ? cur_stack[ncur] : -1;
    if (nb.mode == 0) view_window_dirty();
}

int view_cell_count(void) { return nb.n; }
const view_cell_t *view_cell_at(int i) { return i >= 0 && i < nb.n ? &nb.cells[i] : NULL; }

const view_figure_t *view_last_figure(void)
{
    for (int i = nb.n - 1; i >= 0; i--) if (nb.cells[i].fig) return nb.cells[i].fig;
    return NULL;
}

/* :clear empties the window only: the cells stay for the record that
 * :save x.html and x.nn write (the whole session), and the window shows
 * the cells from the current one (the :clear itself) on. */
void view_clear(void)
{
    nb.first = nb.cur >= 0 ? nb.cur : nb.n;
    if (nb.mode == 0) view_window_dirty();
}

int view_cell_first(void) { return nb.first < nb.n ? nb.first : nb.n; }

/* ---- headless or window ---- */

void view_set_headless(bool on)
{
    nb.mode = on ? 1 : (view_window_available() ? -1 : 1);
    nb.asked = on;
    if (!on) nb.said_headless = false;
}

bool view_set_figure_dir(const char *dir)
{
    if (strlen(dir) >= sizeof nb.dir) return false;   /* never cut short: the figures would go elsewhere */
    snprintf(nb.dir, sizeof nb.dir, "%s", dir);
    return true;
}
size_t view_figure_dir_max(void) { return sizeof nb.dir - 1; }
const char *view_figure_dir(void)
{
    if (!nb.dir[0]) {
        const char *e = getenv("NNPAD_FIGURES");
        if (e && strlen(e) >= sizeof nb.dir) {
            /* never cut short (the figures would go to another folder): said once, then the default */
            fprintf(stderr, "warning: NNPAD_FIGURES is longer than %zu characters: figures are written to figures/\n",
                    sizeof nb.dir - 1);
            e = NULL;
        }
        snprintf(nb.dir, sizeof nb.dir, "%s", e && *e ? e : "figures");
    }
    return nb.dir;
}

static const char *headless_reason;
static char why_buf[256];

bool view_is_headless(void)
{
    if (nb.mode >= 0) return nb.mode == 1;
    const char *drv = getenv("SDL_VIDEODRIVER");
    if (!view_window_available()) headless_reason = "this nnpad was built without SDL (--without-sdl)";
    else if (getenv("NNPAD_HEADLESS") && *getenv("NNPAD_HEADLESS")) { headless_reason = "NNPAD_HEADLESS is set"; nb.asked = true; }
    else if (getenv("NNPAD_TEST") && !(drv && *drv)) headless_reason = "running under the test suite";
    else if (!(drv && *drv) && !getenv("DISPLAY") && !getenv("WAYLAND_DISPLAY")) headless_reason = "no display";
    else return false;   /* undecided until a figure tries the window */
    nb.mode = 1;
    return true;
}

static void say_headless(FILE *out, const char *reason)
{
    if (nb.said_headless) return;
    nb.said_headless = true;
    fprintf(out, "(headless%s%s: figures are written to %s/)\n", reason ? ", " : "", reason ? reason : "", view_figure_dir());
}

/* mkdir -p for the figure folder. */
static int make_dirs(const char *path)
{
    char tmp[1024];
    snprintf(tmp, sizeof tmp, "%s", path);
    for (char *p = tmp + 1; *p; p++) {
        if (*p != '/') continue;
        *p = 0;
        if (mkdir(tmp, 0777) != 0 && errno != EEXIST) return -1;
        *p = '/';
    }
    if (mkdir(tmp, 0777) != 0 && errno != EEXIST) return -1;
    return 0;
}

static view_cell_t *cell_for_figure(void)
{
    if (nb.cur >= 0) {
        view_cell_t *c = &nb.cells[nb.cur];
        if (!c->fig) return c;
        /* a second figure from one input: a cell of its own, same caption */
        bool nested = c->nested;
        view_cell_t *d = cell_new(c->caption, strlen(c->caption));   /* (c may have moved) */
        d->nested = nested;
        return d;
    }
    return cell_new("", 0);
}

static void show(view_figure_t *f, FILE *out, bool window_only)
{
    view_cell_t *c = cell_for_figure();
    int idx = (int)(c - nb.cells);
    c->fig = f;
    if (!view_is_headless()) {
        if (view_window_open(why_buf, sizeof why_buf)) {
            nb.mode = 0;
            c->fignum = ++nb.fignum;
            view_window_dirty();
            view_pump_events();
            return;
        }
        nb.mode = 1;
        headless_reason = why_buf;
    }
    /* a text-first figure (bits) is written when headless was asked for;
     * otherwise its text is the output, and it takes no file number (the
     * HTML export still shows it) */
    if (window_only && !nb.asked) return;
    const char *dir = view_figure_dir();
    /* continue after the highest number already in the folder, so that a
     * second session does not overwrite the first one's figures */
    if (strcmp(nb.scanned, dir)) {
        snprintf(nb.scanned, sizeof nb.scanned, "%s", dir);
        DIR *d = opendir(dir);
        struct dirent *e;
        while (d && (e = readdir(d))) {
            int k = 0, used = 0;
            if (sscanf(e->d_name, "%d-%n", &k, &used) == 1 && used >= 4 && strstr(e->d_name, ".png") && k > nb.fignum)
                nb.fignum = k;
        }
        if (d) closedir(d);
    }
    say_headless(out, headless_reason);
    char path[1200], err[1400];
    if (make_dirs(dir) != 0) {
        fprintf(out, "figure not written: cannot make the folder %s: %s\n", dir, strerror(errno));
        return;
    }
    /* the number is reserved by creating its file (O_EXCL): two sessions
     * writing into one folder at once take different numbers */
    bool reserved = false;
    for (int tries = 0; tries < 10000; tries++) {
        c->fignum = ++nb.fignum;
        snprintf(path, sizeof path, "%s/%03d-%s.png", dir, c->fignum, f->name);
        int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0644);
        if (fd >= 0) { close(fd); reserved = true; break; }
        if (errno != EEXIST) break;
    }
    if (!reserved) {
        fprintf(out, "figure not written: cannot write %s: %s\n", path, strerror(errno));
        return;
    }
    if (view_save_figure(f, path, VIEW_W, VIEW_H, err, sizeof err) != 0) {
        unlink(path);   /* the empty file that reserved the number */
        fprintf(out, "figure not written: %s\n", err);
        return;
    }
    nb.cells[idx].path = view_strdup(path);
    fprintf(out, "figure: %s\n", path);
    fflush(out);
}

void view_show(view_figure_t *f, FILE *out) { show(f, out, false); }

int view_show_live(int live, view_figure_t *f, bool last, FILE *out)
{
    if (view_is_headless()) {
        /* no window to update: only the last state becomes a file */
        if (last) show(f, out, false);
        else view_figure_free(f);
        return -1;
    }
    if (live >= 0 && live < nb.n && nb.cells[live].fig) {
        view_figure_free(nb.cells[live].fig);
        nb.cells[live].fig = f;   /* a new serial: the window draws it afresh */
        view_window_dirty();
        view_pump_events();
        return live;
    }
    show(f, out, false);
    for (int i = nb.n - 1; i >= 0; i--) if (nb.cells[i].fig == f) return i;
    return -1;
}
void view_show_window_only(view_figure_t *f, FILE *out) { show(f, out, true); }
