/* view_notebook.c — the session as a notebook: one cell per input (its
 * text as caption, its printed output, its figure), shared by the window
 * (view_sdl.c draws the cells) and the exports (view_export.c writes them
 * as HTML or a replayable script); and the headless/window decision. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1
#endif
#include "view/view.h"
#include "util/plat.h"
#include "util/error.h"
#include "util/mem.h"
#include "util/afile.h"
#include "util/i18n.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <dirent.h>
#include <unistd.h>
#include <fcntl.h>
#include <ctype.h>

#define CELL_TEXT_MAX (64 * 1024)
#define FIG_DIGITS_MAX 8              /* figure numbers: 001 to 99999999 */
#define FIG_EXT VIEW_FIG_EXT         /* .png natively, .jsonl in the web build (view.h) */
#define FIG_NUMBER_MAX 99999999   /* output kept per cell for the HTML page */

static struct {
    view_cell_t *cells;      /* the cells kept in memory: cells[k] is cell base + k */
    int n, cap;              /* n: every cell of the session, spilled ones included */
    int base;                /* the cells spilled (to spill_fd), the first kept cell's index */
    size_t bytes;            /* what the kept cells hold, with the array (counted in :limit) */
    int spill_fd;            /* the spilled cells (an unlinked file), 0 before the first */
    off_t spill_end;
    bool spill_failed;       /* said once */
    view_figure_t *last_fig; /* the newest figure spilled, kept (:save x.png), with its bytes */
    size_t last_fig_bytes;
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

#define CELL(i) (&nb.cells[(i) - nb.base])

/* The notebook's bytes, counted against :limit (mem.h): never refused
 * here (a cell's text cannot fail half-way), the spill keeps them small. */
static void nb_grow(view_cell_t *c, long delta)
{
    if (c) c->bytes = (size_t)((long)c->bytes + delta);
    nb.bytes = (size_t)((long)nb.bytes + delta);
    if (delta > 0) mem_account((size_t)delta, true);
    else mem_unaccount((size_t)-delta);
}

static char empty_caption[1];

static void cell_free(view_cell_t *c)
{
    if (c->caption != empty_caption) free(c->caption);
    free(c->text);
    free(c->path);
    view_figure_free(c->fig);
    nb_grow(c, -(long)c->bytes);
    memset(c, 0, sizeof *c);
}

static int lesson_cells;   /* view_cells_lesson nesting */
void view_cells_lesson(bool on) { lesson_cells += on ? 1 : (lesson_cells > 0 ? -1 : 0); }

static view_cell_t *cell_new(const char *caption, size_t len)
{
    if (nb.n - nb.base == nb.cap) {
        int cap = nb.cap ? nb.cap * 2 : 64;
        view_cell_t *c = realloc(nb.cells, (size_t)cap * sizeof *c);
        if (!c) abort();   /* a few KB: the process is out of memory, not the session */
        nb_grow(NULL, (long)((size_t)(cap - nb.cap) * sizeof *c));
        nb.cells = c;
        nb.cap = cap;
    }
    view_cell_t *c = CELL(nb.n);
    nb.n++;
    memset(c, 0, sizeof *c);
    c->lesson = lesson_cells > 0;
    c->caption = malloc(len + 1);
    if (!c->caption) { c->caption = empty_caption; return c; }
    memcpy(c->caption, caption, len);
    c->caption[len] = 0;
    nb_grow(c, (long)(len + 1));
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
        nb_grow(c, (long)(cap - c->textcap));
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
    if (nb.cur >= nb.base) cell_append(CELL(nb.cur), buf, n);
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

/* ---- the spill: old cells to disk, in order ---- */

/* A spilled cell: this header, then the caption, the text, the path and
 * the figure's SVG, of the lengths it gives. */
typedef struct spill_rec {
    uint32_t magic, flags;   /* flags: 1 nested, 2 same, 4 failed, 8 lesson code, 16 no replay; the depth above bit 8 */
    uint64_t caplen, textlen, pathlen, svglen;
    int64_t fignum;
    uint64_t ran;
} spill_rec_t;
#define SPILL_MAGIC 0x314c4c43u   /* "CLL1" */

/* Records are appended (only writes move the descriptor's offset: the
 * exports read with pread); afile_write_all retries short writes. */
static bool spill_write(const void *p, size_t n)
{
    int e = afile_write_all(nb.spill_fd, p, n);
    if (e) { errno = e; return false; }
    nb.spill_end += (off_t)n;
    return true;
}

/* Spill kept cell k (cell nb.base + k; it has finished); false (nothing
 * changed) if the spill file cannot be made or written. */
static bool spill_one(int k)
{
    if (nb.spill_fd <= 0) {
        const char *t = getenv("TMPDIR");
        char path[1100];
        snprintf(path, sizeof path, "%s/nnpad-cells-XXXXXX", t && *t && strlen(t) < 1000 ? t : "/tmp");
        int fd = plat_mkstemp(path);
        if (fd < 0) return false;
        unlink(path);
        nb.spill_fd = fd;
        nb.spill_end = 0;
    }
    view_cell_t *c = &nb.cells[k];
    char why[256];
    char *svg = c->fig ? view_figure_svg(c->fig, nb.base + k + 1, why, sizeof why) : NULL;
    if (c->fig && !svg) return false;   /* its figure cannot be drawn: the cell stays */
    spill_rec_t h = { SPILL_MAGIC, (c->nested ? 1u : 0u) | (c->same ? 2u : 0u) | (c->failed ? 4u : 0u) | (c->lesson ? 8u : 0u) | (c->no_replay ? 16u : 0u) | ((uint32_t)c->depth << 8),
                      strlen(c->caption), c->textlen, c->path ? strlen(c->path) : 0, svg ? strlen(svg) : 0, c->fignum, c->ran };
    off_t at = nb.spill_end;
    bool ok = spill_write(&h, sizeof h) && spill_write(c->caption, h.caplen) &&
              (!h.textlen || spill_write(c->text, h.textlen)) && (!h.pathlen || spill_write(c->path, h.pathlen)) &&
              (!h.svglen || spill_write(svg, h.svglen));
    free(svg);
    if (!ok) {
        /* the next record starts where this one did */
        int e = errno;
        if (lseek(nb.spill_fd, at, SEEK_SET) == at && ftruncate(nb.spill_fd, at) != 0) { /* (overwritten next time) */ }
        nb.spill_end = at;
        errno = e;
        return false;
    }
    if (c->fig) {
        /* the newest figure spilled stays (:save x.png of the last figure
         * works), still counted in :limit but not in the notebook's share */
        if (nb.last_fig) { view_figure_free(nb.last_fig); mem_unaccount(nb.last_fig_bytes); }
        size_t fb = view_figure_bytes(c->fig);
        nb.last_fig = c->fig;
        nb.last_fig_bytes = fb;
        c->fig = NULL;
        nb_grow(c, -(long)fb);
        mem_account(fb, true);
    }
    cell_free(c);
    return true;
}

/* Without a spill file ($TMPDIR unusable), a finished cell gives up its
 * output and figure instead (its input stays: :save x.nn still writes the
 * session; the page says what was dropped). */
static const char dropped_text[] = N_("(output not kept: the notebook could not move it to disk under $TMPDIR)\n");
static int dropped_upto;   /* the cells before it are dropped already */

static void drop_one(view_cell_t *c)
{
    if (!c->text && !c->fig) return;
    free(c->text);
    c->text = NULL;
    nb_grow(c, -(long)c->textcap);
    c->textlen = c->textcap = 0;
    if (c->fig) {
        size_t fb = view_figure_bytes(c->fig);
        view_figure_free(c->fig);
        c->fig = NULL;
        nb_grow(c, -(long)fb);
    }
    cell_append(c, _(dropped_text), strlen(_(dropped_text)));
}

/* Keep the notebook within its share of the limit (an eighth, at least
 * 1 MB): past it, spill the oldest cells whose inputs have finished down
 * to half of it (the running input's cells stay: its output and figures
 * are still being written, a lesson checks them), then close the gap.
 * all: every finished cell (:clear, :reset). */
static void spill_cells(size_t extra, bool all)
{
    size_t budget = mem_limit() / 8;
    if (budget < ((size_t)1 << 20)) budget = (size_t)1 << 20;
    if (all) budget = extra = 0;
    else if (nb.bytes + extra <= budget) return;
    int done = ncur == 0 ? nb.n : ncur == 1 ? nb.cur : cur_stack[1];
    if (done < nb.base || done > nb.n) done = nb.n;
    int k = 0;
    while (!nb.spill_failed && (all || nb.bytes + extra > budget / 2) && nb.base + k < done) {
        if (!spill_one(k)) {
            nb.spill_failed = true;
            fprintf(stderr, _("warning: the notebook cannot move old cells to disk under %s (%s): their output and "
                    "figures are dropped from memory (the files written stay; set TMPDIR to a folder that can be written)\n"),
                    getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", strerror(errno));
            break;
        }
        k++;
    }
    if (k > 0) {
        memmove(nb.cells, nb.cells + k, (size_t)(nb.n - nb.base - k) * sizeof *nb.cells);
        nb.base += k;
    }
    if (nb.spill_failed) {
        if (dropped_upto < nb.base) dropped_upto = nb.base;
        while ((all || nb.bytes + extra > budget / 2) && dropped_upto < done) drop_one(CELL(dropped_upto++));
    }
    if (nb.mode == 0 && (k > 0 || nb.spill_failed)) view_window_dirty();
}
static void spill_to_budget(size_t extra) { spill_cells(extra, false); }

static bool spill_read(void *p, size_t n, off_t *at)
{
    char *b = p;
    while (n > 0) {
        ssize_t r = pread(nb.spill_fd, b, n, *at);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) return false;
        b += r; n -= (size_t)r; *at += r;
    }
    return true;
}

int view_cells_each(int (*fn)(void *ctx, int i, const view_cell_t *c, const char *svg), void *ctx, char *err, int cap)
{
    off_t at = 0;
    for (int i = 0; i < nb.base; i++) {
        spill_rec_t h;
        if (!spill_read(&h, sizeof h, &at) || h.magic != SPILL_MAGIC) {
            snprintf(err, (size_t)cap, _("cannot read back the notebook's earlier cells: %s"),
                     errno ? strerror(errno) : _("the spill file is damaged"));
            return -1;
        }
        view_cell_t c = { 0 };
        char *svg = NULL;
        c.caption = malloc(h.caplen + 1);
        c.text = h.textlen ? malloc(h.textlen + 1) : NULL;
        c.path = h.pathlen ? malloc(h.pathlen + 1) : NULL;
        svg = h.svglen ? malloc(h.svglen + 1) : NULL;
        bool ok = c.caption && (!h.textlen || c.text) && (!h.pathlen || c.path) && (!h.svglen || svg) &&
                  spill_read(c.caption, h.caplen, &at) && (!h.textlen || spill_read(c.text, h.textlen, &at)) &&
                  (!h.pathlen || spill_read(c.path, h.pathlen, &at)) && (!h.svglen || spill_read(svg, h.svglen, &at));
        int rc = 0;
        if (ok) {
            c.caption[h.caplen] = 0;
            if (c.text) c.text[h.textlen] = 0;
            if (c.path) c.path[h.pathlen] = 0;
            if (svg) svg[h.svglen] = 0;
            c.textlen = h.textlen;
            c.nested = h.flags & 1;
            c.failed = h.flags & 4;
            c.lesson = h.flags & 8;
            c.no_replay = h.flags & 16;
            c.depth = (int)(h.flags >> 8);
            c.ran = (size_t)h.ran;
            c.same = h.flags & 2;
            c.fignum = (int)h.fignum;
            rc = fn(ctx, i, &c, svg);
        }
        free(c.caption); free(c.text); free(c.path); free(svg);
        if (!ok) {
            snprintf(err, (size_t)cap, _("cannot read back the notebook's earlier cells: %s"),
                     errno ? strerror(errno) : _("out of memory"));
            return -1;
        }
        if (rc) return rc;
    }
    for (int i = nb.base; i < nb.n; i++) {
        int rc = fn(ctx, i, CELL(i), NULL);
        if (rc) return rc;
    }
    return 0;
}

void view_notebook_reset(void)
{
    for (int i = nb.base; i < nb.n; i++) cell_free(CELL(i));
    nb_grow(NULL, -(long)nb.bytes);
    free(nb.cells);
    nb.cells = NULL;
    nb.n = nb.cap = nb.base = 0;
    nb.bytes = 0;
    if (nb.last_fig) { view_figure_free(nb.last_fig); mem_unaccount(nb.last_fig_bytes); }
    nb.last_fig = NULL;
    nb.last_fig_bytes = 0;
    if (nb.spill_fd > 0) close(nb.spill_fd);
    nb.spill_fd = 0;
    nb.spill_end = 0;
    nb.spill_failed = false;
    dropped_upto = 0;
    nb.cur = -1;
    nb.first = 0;
    ncur = 0;
}

FILE *view_cell_begin(const char *input, size_t len, FILE *out)
{
    while (len && (input[len - 1] == '\n' || input[len - 1] == ' ')) len--;
    spill_to_budget(len + 1);
    if (ncur < 32) { cur_stack[ncur] = nb.cur; real_stack[ncur] = nb.real_out; }
    ncur++;
    cell_new(input, len);
    nb.cur = nb.n - 1;
    CELL(nb.cur)->nested = ncur > 1;
    CELL(nb.cur)->depth = ncur - 1;
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

void view_cell_no_replay(void)
{
    if (nb.cur >= nb.base) CELL(nb.cur)->no_replay = true;
}

void view_cell_failed(size_t ran)
{
    if (nb.cur < nb.base) return;
    view_cell_t *c = CELL(nb.cur);
    c->failed = true;
    c->ran = ran < strlen(c->caption) ? ran : 0;
}

void view_notebook_trim(void) { spill_cells(0, true); }

int view_cell_count(void) { return nb.n; }
int view_cell_kept(void) { return nb.base; }
const view_cell_t *view_cell_at(int i) { return i >= nb.base && i < nb.n ? CELL(i) : NULL; }

const view_figure_t *view_last_figure(void)
{
    for (int i = nb.n - 1; i >= nb.base; i--) if (CELL(i)->fig) return CELL(i)->fig;
    return nb.last_fig;
}

/* :clear empties the window only: the cells stay for the record that
 * :save x.html and x.nn write (the whole session), and the window shows
 * the cells from the current one (the :clear itself) on. */
void view_clear(void)
{
    view_notebook_trim();
    nb.first = nb.cur >= 0 ? nb.cur : nb.n;
    if (nb.mode == 0) view_window_dirty();
}

int view_cell_first(void) { int f = nb.first > nb.base ? nb.first : nb.base; return f < nb.n ? f : nb.n; }

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
            fprintf(stderr, _("warning: NNPAD_FIGURES is longer than %zu characters: figures are written to figures/\n"),
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
    /* no window: under the test suite it says so as the native build does
     * (the goldens' line), else why there is none */
    if (!view_window_available())
        headless_reason = getenv("NNPAD_TEST") && !(drv && *drv) ? N_("running under the test suite")
#ifdef __wasi__
                                                                 : N_("in the browser (the page draws them)");
#else
                                                                 : N_("this nnpad was built without SDL (--without-sdl)");
#endif
    else if (getenv("NNPAD_HEADLESS") && *getenv("NNPAD_HEADLESS")) { headless_reason = N_("NNPAD_HEADLESS is set"); nb.asked = true; }
    else if (getenv("NNPAD_TEST") && !(drv && *drv)) headless_reason = N_("running under the test suite");
    else if (!(drv && *drv) && !getenv("DISPLAY") && !getenv("WAYLAND_DISPLAY")) headless_reason = N_("no display");
    else return false;   /* undecided until a figure tries the window */
    nb.mode = 1;
    return true;
}

static void say_headless(FILE *out, const char *reason)
{
    if (nb.said_headless) return;
    nb.said_headless = true;
    /* the reason is marked N_() where it is set (or translated already:
     * the window's why) */
    /* TRANSLATORS: :save x.html leaves out the lines that begin with this
     * message's text up to its first %s: keep text there */
    fprintf(out, _("(headless%s%s: figures are written to %s/)\n"), reason ? ", " : "", reason ? _(reason) : "", view_figure_dir());
}

static view_cell_t *cell_for_figure(void)
{
    if (nb.cur >= nb.base) {
        view_cell_t *c = CELL(nb.cur);
        if (!c->fig) return c;
        /* a second figure from one input: a cell of its own, same caption */
        bool nested = c->nested;
        int depth = c->depth;
        view_cell_t *d = cell_new(c->caption, strlen(c->caption));   /* (c may have moved) */
        d->nested = nested;
        d->depth = depth;
        d->same = true;
        return d;
    }
    return cell_new("", 0);
}

/* The figure's data join the notebook's bytes: room is made by spilling
 * old cells; a figure that would still pass :limit is an error at the
 * input that drew it (the figure is freed). */
static size_t take_figure(view_figure_t *f)
{
    size_t b = view_figure_bytes(f);
    spill_to_budget(b);
    if (!mem_account(b, false)) {
        char a[32], l[32], u[32];
        snprintf(a, sizeof a, "%.1f MB", (double)b / 1048576);
        snprintf(l, sizeof l, "%.1f MB", (double)mem_limit() / 1048576);
        snprintf(u, sizeof u, "%.1f MB", (double)mem_in_use() / 1048576);
        view_figure_free(f);
        err_raise(ERR_LIMIT, err_here(), "memory limit: the figure's data (%s) would pass the limit of %s (%s in use; "
                  ":limit changes it)", a, l, u);
    }
    mem_unaccount(b);   /* counted again by nb_grow, on the cell */
    return b;
}

/* ---- a restore's figures: one already in the folder is not written twice ---- */

static bool replaying;
void view_set_replaying(bool on) { replaying = on; }

static bool read_whole(const char *path, char **buf, size_t *n)
{
    *buf = NULL;
    FILE *f = fopen(path, "rb");
    if (!f) return false;
    struct stat sb;
    bool ok = fstat(fileno(f), &sb) == 0 && S_ISREG(sb.st_mode) && sb.st_size > 0 && sb.st_size < (64 << 20);
    if (ok) {
        *n = (size_t)sb.st_size;
        *buf = malloc(*n);
        ok = *buf && fread(*buf, 1, *n, f) == *n;
    }
    fclose(f);
    if (!ok) { free(*buf); *buf = NULL; }
    return ok;
}

/* Another NNN-name.png in dir with the same bytes as the one just written
 * at path (file: its name there): its path in found. */
static bool same_figure_there(const char *dir, const char *file, const char *name, const char *path, char *found, size_t cap)
{
    char *mine, *theirs;
    size_t n, m;
    if (!read_whole(path, &mine, &n)) return false;
    char suffix[300];
    snprintf(suffix, sizeof suffix, "-%s" FIG_EXT, name);
    size_t sl = strlen(suffix);
    bool hit = false;
    DIR *d = opendir(dir);
    struct dirent *e;
    while (d && !hit && (e = readdir(d))) {
        size_t L = strlen(e->d_name);
        if (L <= sl || strcmp(e->d_name + L - sl, suffix) || !strcmp(e->d_name, file)) continue;
        if (snprintf(found, cap, "%s/%s", dir, e->d_name) >= (int)cap) continue;
        struct stat sb;
        if (stat(found, &sb) != 0 || (size_t)sb.st_size != n) continue;
        if (read_whole(found, &theirs, &m)) {
            hit = m == n && !memcmp(mine, theirs, n);
            free(theirs);
        }
    }
    if (d) closedir(d);
    free(mine);
    return hit;
}

static void scan_numbers(const char *dir)
{
    /* continue after the highest number already in the folder, so that a
     * second session does not overwrite the first one's figures */
    if (strcmp(nb.scanned, dir)) {
        snprintf(nb.scanned, sizeof nb.scanned, "%s", dir);
        DIR *d = opendir(dir);
        struct dirent *e;
        while (d && (e = readdir(d))) {
            /* NNN-NAME.png with 3 to 8 digits: a longer number is not
             * one nnpad wrote (a planted 2147483647-a.png would make the
             * next number overflow) */
            int k = 0, digits = 0;
            while (isdigit((unsigned char)e->d_name[digits]) && digits < 9) k = k * 10 + (e->d_name[digits++] - '0');
            if (digits >= 3 && digits <= FIG_DIGITS_MAX && e->d_name[digits] == '-' && strstr(e->d_name, FIG_EXT) && k > nb.fignum)
                nb.fignum = k;
        }
        if (d) closedir(d);
    }
}

int view_next_figure_number(void)
{
    scan_numbers(view_figure_dir());
    return nb.fignum + 1;
}

static void show(view_figure_t *f, FILE *out, bool window_only)
{
    size_t fb = take_figure(f);
    view_cell_t *c = cell_for_figure();
    int idx = (int)(c - nb.cells) + nb.base;
    c->fig = f;
    nb_grow(c, (long)fb);
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
    scan_numbers(dir);
    say_headless(out, headless_reason);
    char path[1200], err[1400];
    if (afile_mkdirs(dir) != 0) {
        fprintf(out, _("figure not written: cannot make the folder %s: %s\n"), dir, strerror(errno));
        return;
    }
    /* the number is reserved by creating its file (O_EXCL): two sessions
     * writing into one folder at once take different numbers */
    bool reserved = false;
    for (int tries = 0; tries < 10000 && nb.fignum < FIG_NUMBER_MAX; tries++) {
        c->fignum = ++nb.fignum;
        snprintf(path, sizeof path, "%s/%03d-%s" FIG_EXT, dir, c->fignum, f->name);
        int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0644);
        if (fd >= 0) { close(fd); reserved = true; break; }
        if (errno != EEXIST) break;
    }
    if (!reserved && nb.fignum >= FIG_NUMBER_MAX) {
        fprintf(out, _("figure not written: %s/ already holds figure number %d, the highest (:figures DIR picks another folder)\n"),
                dir, FIG_NUMBER_MAX);
        return;
    }
    if (!reserved) {
        fprintf(out, _("figure not written: cannot write %s: %s\n"), path, strerror(errno));
        return;
    }
    if (view_save_figure(f, path, VIEW_W, VIEW_H, err, sizeof err) != 0) {
        unlink(path);   /* the empty file that reserved the number */
        fprintf(out, _("figure not written: %s\n"), err);
        return;
    }
    /* a restore replays what drew the figures already in the folder (a
     * repeated restore, the session that restored one): the same picture
     * keeps its file rather than a second one */
    char there[1200];
    bool again = replaying && same_figure_there(dir, strrchr(path, '/') + 1, f->name, path, there, sizeof there);
    if (again) {
        unlink(path);
        if (nb.fignum == CELL(idx)->fignum) nb.fignum--;
        int k = 0;
        if (sscanf(strrchr(there, '/') + 1, "%d-", &k) == 1) CELL(idx)->fignum = k;
        snprintf(path, sizeof path, "%s", there);
    }
    CELL(idx)->path = view_strdup(path);
    nb_grow(CELL(idx), (long)strlen(path) + 1);
    /* TRANSLATORS: :save x.html leaves out the lines that begin with this
     * message's text up to its first %s: keep text there */
    fprintf(out, _("figure: %s%s\n"), path, again ? _(" (already there: the same picture)") : "");
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
    if (live >= nb.base && live < nb.n && CELL(live)->fig) {
        view_cell_t *c = CELL(live);
        size_t old = view_figure_bytes(c->fig);
        view_figure_free(c->fig);
        c->fig = NULL;
        nb_grow(c, -(long)old);
        size_t fb = take_figure(f);
        c = CELL(live);   /* (the spill may have moved it) */
        c->fig = f;   /* a new serial: the window draws it afresh */
        nb_grow(c, (long)fb);
        view_window_dirty();
        view_pump_events();
        return live;
    }
    show(f, out, false);
    for (int i = nb.n - 1; i >= nb.base; i--) if (CELL(i)->fig == f) return i;
    return -1;
}
void view_show_window_only(view_figure_t *f, FILE *out) { show(f, out, true); }
