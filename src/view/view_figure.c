/* view_figure.c — figures as data: construction, the palette, and the axis
 * layout (ranges and nice ticks) that every renderer and test shares. */
#include "view/view.h"
#include "tensor/dtype.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Figures live outside mem.h (see view.h); allocation failure of these few
 * small blocks is a broken invariant, not a user error. */
static void *xcalloc(size_t n, size_t sz)
{
    void *p = calloc(n ? n : 1, sz ? sz : 1);
    if (!p) { fputs("nnpad: out of memory (figure)\n", stderr); abort(); }
    return p;
}

char *view_strdup(const char *s)
{
    if (!s) return NULL;
    size_t n = strlen(s);
    char *d = xcalloc(n + 1, 1);
    memcpy(d, s, n);
    return d;
}

view_figure_t *view_figure_new(view_kind_t kind, const char *name)
{
    static uint64_t serials;
    view_figure_t *f = xcalloc(1, sizeof *f);
    f->kind = kind;
    f->serial = ++serials;
    f->name = view_strdup(name ? name : "figure");
    f->y.pad = true;
    f->nl_value = NAN;
    return f;
}

void view_figure_free(view_figure_t *f)
{
    if (!f) return;
    free(f->name); free(f->title); free(f->note);
    free(f->x.label); free(f->y.label);
    for (int i = 0; i < f->nseries; i++) {
        free(f->series[i].label); free(f->series[i].x); free(f->series[i].y);
    }
    free(f->series);
    for (int i = 0; i < f->nbands; i++) free(f->bands[i].label);
    free(f->bands);
    for (int i = 0; i < f->nvlines; i++) { free(f->vlines[i].label); free(f->vlines[i].tag); }
    free(f->vlines);
    for (int i = 0; i < f->nhlines; i++) free(f->hlines[i].label);
    free(f->hlines);
    view_figure_free(f->below);
    free(f->z);
    free(f->field);
    free(f->frgb);
    free(f->fcb);
    free(f->dens);
    for (int i = 0; i < f->ntiles; i++) { free(f->tiles[i].v); free(f->tiles[i].label); }
    free(f->tiles);
    for (int i = 0; i < f->ntcols; i++) { free(f->tcol_title[i]); free(f->tcol_more[i]); }
    for (int i = 0; i < f->nbitrows; i++) {
        free(f->bitrows[i].label); free(f->bitrows[i].dtname); free(f->bitrows[i].text);
    }
    free(f->bitrows);
    for (int i = 0; i < f->trows * f->tcols; i++) free(f->cells[i]);
    free(f->cells);
    for (int i = 0; i < f->ntexts; i++) free(f->texts[i].text);
    free(f->texts);
    for (int i = 0; i < f->nmodels; i++) {
        view_model_t *m = &f->models[i];
        for (int k = 0; k < m->nlayers; k++) { free(m->layers[k].activation); free(m->layers[k].w); }
        free(m->layers); free(m->title); free(m->note);
    }
    free(f->models);
    for (int i = 0; i < f->nsides; i++) view_figure_free(f->sides[i]);
    free(f->sides);
    for (int i = 0; i < f->ngraphs; i++) {
        view_graph_t *g = &f->graphs[i];
        for (int k = 0; k < g->nn; k++) free(g->n[k].label);
        for (int k = 0; k < g->ne; k++) free(g->e[k].pts);
        free(g->n); free(g->e); free(g->title);
    }
    free(f->graphs);
    free(f);
}

size_t view_figure_bytes(const view_figure_t *f)
{
    if (!f) return 0;
    size_t b = sizeof *f;
    for (int i = 0; i < f->nseries; i++) {
        const view_series_t *s = &f->series[i];
        b += sizeof *s + (size_t)(s->n + 1) * sizeof(double) * (s->x ? 1 : 0) + (size_t)s->n * sizeof(double) * (s->y ? 1 : 0);
    }
    b += (size_t)f->rows * (size_t)f->cols * sizeof(double) * (f->z ? 1 : 0);
    b += (size_t)f->fn * (size_t)f->fn * sizeof(double) * (f->field ? 1 : 0);
    b += (size_t)f->fn * (size_t)f->fn * sizeof(uint32_t) * (f->frgb ? 1 : 0) + (size_t)f->fcbn * sizeof(uint32_t);
    b += (size_t)f->dn * (size_t)f->dn * sizeof(uint32_t) * (f->dens ? 1 : 0);
    for (int i = 0; i < f->ntiles; i++) b += sizeof f->tiles[i] + (size_t)f->tiles[i].n * (size_t)f->tiles[i].n * sizeof(double);
    for (int i = 0; i < f->nmodels; i++)
        b += sizeof f->models[i] + (size_t)f->models[i].nlayers * VIEW_MAX_NEURONS * VIEW_MAX_NEURONS * sizeof(double);
    for (int i = 0; i < f->ngraphs; i++) {
        const view_graph_t *g = &f->graphs[i];
        b += (size_t)g->nn * (sizeof *g->n + 64);
        for (int k = 0; k < g->ne; k++) b += sizeof *g->e + (size_t)g->e[k].npts * 2 * sizeof(double);
    }
    b += (size_t)f->trows * (size_t)f->tcols * 32 + (size_t)f->nbitrows * (sizeof *f->bitrows + 64);
    b += view_figure_bytes(f->below);
    for (int i = 0; i < f->nsides; i++) b += view_figure_bytes(f->sides[i]);
    return b;
}

void view_set_title(view_figure_t *f, const char *title)
{
    free(f->title);
    f->title = view_strdup(title);
}

uint32_t view_palette(int i)
{
    /* Okabe-Ito: blue, vermillion, bluish green, reddish purple, orange,
     * sky blue, black; then Tableau 10's red, purple, brown, grey, olive. */
    static const uint32_t p[] = { 0x0072B2, 0xD55E00, 0x009E73, 0xCC79A7, 0xE69F00, 0x56B4E9, 0x000000,
                                  0xD62728, 0x9467BD, 0x8C564B, 0x7F7F7F, 0xBCBD22 };
    return p[(i % 12 + 12) % 12];
}

uint32_t view_viridis(double t)
{
    /* matplotlib's viridis (_cm_listed.py) sampled at t = k/8. */
    static const double v[9][3] = {
        {0.267004, 0.004874, 0.329415}, {0.282623, 0.140926, 0.457517},
        {0.229739, 0.322361, 0.545706}, {0.172719, 0.448791, 0.557885},
        {0.127568, 0.566949, 0.550556}, {0.134692, 0.658636, 0.517649},
        {0.369214, 0.788888, 0.382914}, {0.657642, 0.860219, 0.203082},
        {0.993248, 0.906157, 0.143936},
    };
    if (!(t >= 0)) t = 0;
    if (t > 1) t = 1;
    double s = t * 8;
    int k = (int)s;
    if (k >= 8) k = 7;
    double a = s - k;
    uint32_t c = 0;
    for (int j = 0; j < 3; j++) {
        double x = v[k][j] * (1 - a) + v[k + 1][j] * a;
        c = (c << 8) | (uint32_t)lround(x * 255);
    }
    return c;
}

view_series_t *view_add_series(view_figure_t *f, const char *label, int64_t n, double *x, double *y, int dtype)
{
    f->series = realloc(f->series, (size_t)(f->nseries + 1) * sizeof *f->series);
    if (!f->series) abort();
    view_series_t *s = &f->series[f->nseries];
    memset(s, 0, sizeof *s);
    s->label = view_strdup(label);
    s->n = n; s->x = x; s->y = y; s->dtype = dtype;
    s->color = view_palette(f->nseries);
    s->dash = (f->nseries / 12) % 4;   /* past 12 series the colours come back dashed, then dotted */
    s->style = VIEW_LINE;
    s->x_sorted = true;
    for (int64_t i = 1; i < n && x; i++)
        if (!(x[i] >= x[i - 1])) { s->x_sorted = false; break; }
    f->nseries++;
    return s;
}

void view_add_band(view_figure_t *f, double x0, double x1, uint32_t color, const char *label)
{
    f->bands = realloc(f->bands, (size_t)(f->nbands + 1) * sizeof *f->bands);
    if (!f->bands) abort();
    f->bands[f->nbands++] = (view_band_t){ x0, x1, color, view_strdup(label) };
}

view_vline_t *view_add_vline(view_figure_t *f, double x, uint32_t color, const char *label)
{
    f->vlines = realloc(f->vlines, (size_t)(f->nvlines + 1) * sizeof *f->vlines);
    if (!f->vlines) abort();
    f->vlines[f->nvlines] = (view_vline_t){ x, color, view_strdup(label), 0, NULL };
    return &f->vlines[f->nvlines++];
}

void view_add_hline(view_figure_t *f, double y, uint32_t color, const char *label)
{
    f->hlines = realloc(f->hlines, (size_t)(f->nhlines + 1) * sizeof *f->hlines);
    if (!f->hlines) abort();
    f->hlines[f->nhlines++] = (view_hline_t){ y, color, view_strdup(label) };
}

void view_add_text(view_figure_t *f, double x, double y, uint32_t color, const char *text)
{
    f->texts = realloc(f->texts, (size_t)(f->ntexts + 1) * sizeof *f->texts);
    if (!f->texts) abort();
    f->texts[f->ntexts++] = (view_text_t){ x, y, color, view_strdup(text) };
}

view_model_t *view_add_model(view_figure_t *f, const char *title)
{
    f->models = realloc(f->models, (size_t)(f->nmodels + 1) * sizeof *f->models);
    if (!f->models) abort();
    view_model_t *m = &f->models[f->nmodels++];
    memset(m, 0, sizeof *m);
    m->title = view_strdup(title);
    return m;
}

view_mlayer_t *view_model_add_layer(view_model_t *m, int64_t in, int64_t out, bool bias, const char *activation)
{
    m->layers = realloc(m->layers, (size_t)(m->nlayers + 1) * sizeof *m->layers);
    if (!m->layers) abort();
    view_mlayer_t *l = &m->layers[m->nlayers++];
    l->in = in; l->out = out; l->bias = bias;
    l->activation = view_strdup(activation);
    l->w = xcalloc(VIEW_MAX_NEURONS * VIEW_MAX_NEURONS, sizeof *l->w);
    for (int i = 0; i < VIEW_MAX_NEURONS * VIEW_MAX_NEURONS; i++) l->w[i] = NAN;
    return l;
}

void view_add_side(view_figure_t *f, view_figure_t *side)
{
    f->sides = realloc(f->sides, (size_t)(f->nsides + 1) * sizeof *f->sides);
    if (!f->sides) abort();
    f->sides[f->nsides++] = side;
}

int64_t view_neuron_of(int64_t n, int s, int *nslots)
{
    if (n <= VIEW_MAX_NEURONS) {
        if (nslots) *nslots = (int)n;
        return s >= 0 && s < n ? s : -1;
    }
    /* the first half, an ellipsis, the last ones: 6 + 1 + 5 slots */
    int head = VIEW_MAX_NEURONS / 2, tail = VIEW_MAX_NEURONS - head - 1;
    if (nslots) *nslots = VIEW_MAX_NEURONS;
    if (s < 0 || s >= VIEW_MAX_NEURONS || s == head) return -1;
    return s < head ? s : n - tail + (s - head - 1);
}

uint32_t view_diverging(double w, double wmax)
{
    /* ColorBrewer RdBu, 11 classes (Cynthia Brewer, colorbrewer2.org),
     * with its white centre made a light grey so that a weight near 0
     * still shows on a white background; linear between the classes. */
    static const uint32_t rdbu[11] = { 0x67001F, 0xB2182B, 0xD6604D, 0xF4A582, 0xFDDBC7, 0xE0E0E0,
                                       0xD1E5F0, 0x92C5DE, 0x4393C3, 0x2166AC, 0x053061 };
    double t = wmax > 0 && isfinite(w) ? w / wmax : 0;
    if (t < -1) t = -1;
    if (t > 1) t = 1;
    double s = (t + 1) * 5;
    int k = (int)s;
    if (k >= 10) k = 9;
    double a = s - k;
    uint32_t c = 0;
    for (int j = 16; j >= 0; j -= 8) {
        double x = ((rdbu[k] >> j) & 255) * (1 - a) + ((rdbu[k + 1] >> j) & 255) * a;
        c = (c << 8) | (uint32_t)lround(x);
    }
    return c;
}

/* ---- ticks ---- */

/* Heckbert's nicenum: a 1, 2, 5 or 10 times a power of ten near x. */
static double nicenum(double x, bool round_it)
{
    double e = floor(log10(x)), f = x / pow(10, e), nf;
    if (round_it) nf = f < 1.5 ? 1 : f < 3 ? 2 : f < 7 ? 5 : 10;
    else nf = f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10;
    return nf * pow(10, e);
}

int view_nice_ticks(double lo, double hi, int want, double *ticks, double *step)
{
    if (!(hi > lo) || !isfinite(lo) || !isfinite(hi)) {
        if (step) *step = 1;
        if (isfinite(lo)) { ticks[0] = lo; return 1; }
        return 0;
    }
    if (want < 2) want = 2;
    double range = nicenum(hi - lo, false);
    double d = nicenum(range / (want - 1), true);
    double first = ceil(lo / d - 1e-9) * d;
    int n = 0;
    for (double t = first; t <= hi + d * 1e-9 && n < VIEW_MAX_TICKS; t = first + n * d) {
        /* snap values like 0.30000000000000004 and -0 */
        double v = round(t / d) * d;
        if (fabs(v) < d * 1e-9) v = 0;
        ticks[n++] = v;
    }
    if (step) *step = d;
    return n;
}

void view_tick_label(char *out, int cap, double v, double step)
{
    if (v == 0) { snprintf(out, (size_t)cap, "0"); return; }
    double a = fabs(v);
    if (a >= 1e6 || a < 1e-4 || step < 1e-5) {
        /* exponent form with the digits the step needs */
        int sig = (int)ceil(log10(a / step)) + 1;
        if (sig < 1) sig = 1;
        if (sig > 6) sig = 6;
        snprintf(out, (size_t)cap, "%.*g", sig, v);
        return;
    }
    int dec = step >= 1 ? 0 : (int)ceil(-log10(step) - 1e-9);
    if (dec > 8) dec = 8;
    snprintf(out, (size_t)cap, "%.*f", dec, v);
}

void view_cell_label(char *out, int cap, double v, int sig, double amax)
{
    if (isnan(v)) { snprintf(out, (size_t)cap, "nan"); return; }
    if (isinf(v)) { snprintf(out, (size_t)cap, v > 0 ? "inf" : "-inf"); return; }
    if (sig < 1) sig = 1;
    if (!(amax > 0) || amax < 1e-3 || amax >= 1e5) {
        /* very small or large magnitudes: each value its own exponent */
        if (v == 0) snprintf(out, (size_t)cap, "0");
        else snprintf(out, (size_t)cap, "%.*g", sig, v);
        return;
    }
    /* the decimals that give the largest magnitude sig digits, for all */
    int e = (int)floor(log10(amax));
    int dec = sig - 1 - e;
    if (dec < 0) dec = 0;
    snprintf(out, (size_t)cap, "%.*f", dec, v);
}

/* Log ticks: powers of ten inside [lo, hi] (data units), or 1-2-5 steps of
 * the decade when the range spans less than two decades. */
static void log_ticks(view_axis_t *a)
{
    a->nticks = 0;
    double l0 = floor(log10(a->lo)), l1 = ceil(log10(a->hi));
    int span = (int)(l1 - l0);
    /* at most about 6 decades labelled, at multiples of the stride (10^-8, 10^-6, ...) */
    int every = span > 6 ? (span + 5) / 6 : 1;
    bool expo = span > 2 && (l0 < -3 || l1 > 4);
    for (double e = l0; e <= l1 && a->nticks < VIEW_MAX_TICKS; e++) {
        static const double m[3] = { 1, 2, 5 };
        for (int k = 0; k < (span <= 2 ? 3 : 1); k++) {
            double t = m[k] * pow(10, e);
            if (((int)e % every + every) % every) continue;
            if (t < a->lo * (1 - 1e-12) || t > a->hi * (1 + 1e-12) || a->nticks >= VIEW_MAX_TICKS) continue;
            a->tick[a->nticks] = t;
            /* "10^-8": the drawing writes it as 10 with a raised exponent */
            if (k == 0 && expo && e != 0 && e != 1) snprintf(a->tick_label[a->nticks], sizeof a->tick_label[0], "10^%d", (int)e);
            else snprintf(a->tick_label[a->nticks], sizeof a->tick_label[0], "%g", t);
            a->nticks++;
        }
    }
}

static void axis_ticks(view_axis_t *a, int want)
{
    if (a->custom) return;
    if (a->log) { log_ticks(a); return; }
    double step;
    a->nticks = view_nice_ticks(a->lo, a->hi, want, a->tick, &step);
    /* one form for the whole axis: exponent form for all when the largest
     * magnitude is tiny or huge ("2e-05 ... 0.0002", not "2e-05 ... 0.00020") */
    double mx = 0;
    for (int i = 0; i < a->nticks; i++) if (fabs(a->tick[i]) > mx) mx = fabs(a->tick[i]);
    bool expo = mx > 0 && (mx < 1e-3 || mx >= 1e6);
    for (int i = 0; i < a->nticks; i++) {
        if (expo && a->tick[i] != 0) {
            int sig = (int)ceil(log10(mx / step) - 1e-9) + 1;
            snprintf(a->tick_label[i], sizeof a->tick_label[0], "%.*g", sig < 1 ? 1 : sig > 6 ? 6 : sig, a->tick[i]);
        } else
            view_tick_label(a->tick_label[i], sizeof a->tick_label[0], a->tick[i], step);
    }
}

/* Data range of the finite values (positive ones on a log axis). */
static void data_range(const view_figure_t *f, bool want_x, bool logscale, double *lo, double *hi)
{
    double a = INFINITY, b = -INFINITY;
    for (int i = 0; i < f->nseries; i++) {
        const view_series_t *s = &f->series[i];
        const double *v = want_x ? s->x : s->y;
        int64_t n = want_x && s->style == VIEW_BARS ? s->n + 1 : s->n;
        if (!v) continue;
        if (want_x && s->x_sorted && !logscale && n > 0) {
            /* sorted x: the ends, skipping non-finite values */
            int64_t i0 = 0, i1 = n - 1;
            while (i0 < n && !isfinite(v[i0])) i0++;
            while (i1 > i0 && !isfinite(v[i1])) i1--;
            if (i0 < n) { if (v[i0] < a) a = v[i0]; if (v[i1] > b) b = v[i1]; }
            continue;
        }
        if (!want_x) {
            /* y ranges are computed once per series (a redraw of ten
             * million points must not scan them again) */
            view_series_t *ms = (view_series_t *)s;
            if (!ms->range_ok) {
                double lo = INFINITY, hi = -INFINITY, pos = INFINITY;
                for (int64_t k = 0; k < n; k++) {
                    double t = v[k];
                    if (!isfinite(t)) continue;
                    lo = t < lo ? t : lo;
                    hi = t > hi ? t : hi;
                    if (t > 0 && t < pos) pos = t;
                }
                ms->ylo = lo; ms->yhi = hi; ms->ypos = pos; ms->range_ok = true;
            }
            double lo = logscale ? ms->ypos : ms->ylo;
            if (ms->yhi >= lo) { if (lo < a) a = lo; if (ms->yhi > b) b = ms->yhi; }
            continue;
        }
        for (int64_t k = 0; k < n; k++) {
            double t = v[k];
            if (!isfinite(t) || (logscale && t <= 0)) continue;
            if (t < a) a = t;
            if (t > b) b = t;
        }
    }
    if (f->dens && f->dn > 0) {
        double u = want_x ? f->dx0 : f->dy0, v = want_x ? f->dx1 : f->dy1;
        if (!logscale || u > 0) { if (u < a) a = u; if (v > b) b = v; }
    }
    *lo = a; *hi = b;
}

static void axis_range(view_figure_t *f, view_axis_t *a, bool is_x)
{
    if (a->fixed) return;
    double lo, hi;
    data_range(f, is_x, a->log, &lo, &hi);
    if (is_x) {
        for (int i = 0; i < f->nbands; i++) {
            if (isfinite(f->bands[i].x0) && f->bands[i].x0 < lo) lo = f->bands[i].x0;
            if (isfinite(f->bands[i].x1) && f->bands[i].x1 > hi) hi = f->bands[i].x1;
        }
    }
    if (!(lo <= hi)) { lo = a->log ? 1 : 0; hi = a->log ? 10 : 1; }
    if (a->from_zero && !a->log) { if (lo > 0) lo = 0; if (hi < 0) hi = 0; }
    if (lo == hi) {
        if (a->log) { lo /= 10; hi *= 10; }
        else { double d = lo == 0 ? 1 : fabs(lo) * 0.5; lo -= d; hi += d; }
    } else if (a->pad) {
        if (a->log) {
            double r = pow(hi / lo, 0.05);
            lo /= r; hi *= r;
        } else {
            double d = (hi - lo) * 0.05;
            bool lz = a->from_zero && lo == 0, hz = a->from_zero && hi == 0;
            if (!lz) lo -= d;
            if (!hz) hi += d;
        }
    }
    a->lo = lo; a->hi = hi;
}

void view_layout(view_figure_t *f)
{
    if (f->kind == VIEW_HEATMAP) {
        f->x.lo = 0; f->x.hi = f->cols; f->y.lo = 0; f->y.hi = f->rows;
        if (!f->x.fixed && !f->y.fixed) {
            /* index ticks at cell centres */
            view_axis_t *ax[2] = { &f->x, &f->y };
            int n[2] = { f->cols, f->rows };
            for (int k = 0; k < 2; k++) {
                double step;
                double t[VIEW_MAX_TICKS];
                int m = view_nice_ticks(0, n[k] - 1, 8, t, &step);
                if (step < 1) { m = view_nice_ticks(0, n[k] - 1, n[k], t, &step); }
                ax[k]->nticks = 0;
                for (int i = 0; i < m; i++) {
                    if (t[i] != floor(t[i])) continue;
                    ax[k]->tick[ax[k]->nticks] = t[i] + 0.5;
                    snprintf(ax[k]->tick_label[ax[k]->nticks], 32, "%d", (int)t[i]);
                    ax[k]->nticks++;
                }
            }
        }
        return;
    }
    axis_range(f, &f->x, true);
    axis_range(f, &f->y, false);
    if (f->zoomed) {
        f->x.lo = f->zx0; f->x.hi = f->zx1; f->y.lo = f->zy0; f->y.hi = f->zy1;
    }
    axis_ticks(&f->x, 8);
    axis_ticks(&f->y, 6);
}

uint32_t view_tint(uint32_t c, double a)
{
    int r = (int)lround(255 * (1 - a) + ((c >> 16) & 255) * a), g = (int)lround(255 * (1 - a) + ((c >> 8) & 255) * a);
    int b = (int)lround(255 * (1 - a) + (c & 255) * a);
    return (uint32_t)(r << 16 | g << 8 | b);
}

static double scale = 1;
void view_set_scale(double s) { scale = s < 0.5 ? 0.5 : s > 1.6 ? 1.6 : s; }
double view_scale(void) { return scale; }

#define WRAP 30          /* wrap label lines longer than this many bytes at a space */
/* ---- a graph figure's data (view_graph.c lays it out and draws it) ---- */

view_graph_t *view_add_graph(view_figure_t *f, const char *title)
{
    f->graphs = realloc(f->graphs, (size_t)(f->ngraphs + 1) * sizeof *f->graphs);
    if (!f->graphs) abort();
    view_graph_t *g = &f->graphs[f->ngraphs++];
    memset(g, 0, sizeof *g);
    g->title = view_strdup(title);
    return g;
}

/* A copy of s with lines longer than WRAP broken at the last space. */
static char *wrap(const char *s)
{
    size_t n = strlen(s);
    char *d = malloc(n + 1);
    if (!d) abort();
    memcpy(d, s, n + 1);
    char *line = d;
    for (char *p = d; *p; p++) {
        if (*p == '\n') { line = p + 1; continue; }
        if (p - line >= WRAP) {
            char *sp = p;
            while (sp > line && *sp != ' ') sp--;
            if (sp > line) { *sp = '\n'; line = sp + 1; }
        }
    }
    return d;
}

int view_graph_node(view_graph_t *g, const char *label, uint32_t fill, bool removed, bool output)
{
    g->n = realloc(g->n, (size_t)(g->nn + 1) * sizeof *g->n);
    if (!g->n) abort();
    g->n[g->nn] = (view_gnode_t){ wrap(label ? label : ""), 0, 0, 0, 0, fill, removed, output };
    return g->nn++;
}

int view_graph_edge(view_graph_t *g, int from, int to, bool removed)
{
    for (int i = 0; i < g->ne; i++)
        if (g->e[i].from == from && g->e[i].to == to) return i;   /* x * x: one arrow */
    g->e = realloc(g->e, (size_t)(g->ne + 1) * sizeof *g->e);
    if (!g->e) abort();
    g->e[g->ne] = (view_gedge_t){ from, to, removed, 0, NULL, false, 0, 0 };
    return g->ne++;
}

