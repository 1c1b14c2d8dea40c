/* view.h — figures as data, one drawing code for the window, PNG, SVG and
 * HTML, the notebook of cells, and the headless/window switch.
 *
 * A figure is data first (view_figure_t: series, axes, labels, bands, a
 * table or bit boxes) and pixels second: view_draw() renders any figure
 * into any cairo_t (an image surface for PNG and the SDL window, an SVG
 * surface for SVG and HTML), so tests check the data headless and the
 * pixels without a display (DESIGN.md §4).
 *
 * Ownership: view_figure_new() returns a figure the caller owns until it
 * hands it to view_show() (which takes it: the notebook keeps it) or frees
 * it with view_figure_free().  Every string and array inside a figure is
 * malloc'd and owned by the figure.  Figures live outside mem.h's limit
 * (they are the session's display, not user data), so building one never
 * raises: the figure builtins (src/view/fig_*.c) check every argument
 * first, then build.
 *
 * Whole-file twins: view_sdl.c (the window) or view_headless.c
 * (./configure --without-sdl) define the view_window_* functions.
 */
#ifndef NN_VIEW_H
#define NN_VIEW_H
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define VIEW_MAX_TICKS 24

typedef enum view_kind {
    VIEW_PLOT,        /* lines (plot), bars (hist) */
    VIEW_HEATMAP,     /* a matrix as colours with a colour bar */
    VIEW_BITS,        /* sign | exponent | mantissa boxes per element */
    VIEW_NUMBERLINE,  /* the representable values of a dtype in [lo, hi] */
    VIEW_TABLE,       /* rows of text (compare) */
    VIEW_MODEL,       /* dense stacks as neurons and weighted edges (show), maps beside */
    VIEW_GRAPH,       /* traced graphs laid out by Graphviz's dot, side by side (graph, :graph) */
    VIEW_TILES,       /* small maps over the input plane in columns (neurons: one per neuron, by layer) */
    VIEW_PLAYGROUND,  /* fit(show="playground"): sides[0] the neurons (tiles) joined by models[0]'s weights, sides[1] the output map, sides[2] the loss */
    VIEW_ROW,         /* figures side by side under one title: sides[i] in column i (a run per dtype: fit(precision=[...])) */
} view_kind_t;

typedef enum view_style { VIEW_LINE, VIEW_BARS, VIEW_STEMS, VIEW_POINTS } view_style_t;

typedef struct view_series {
    char *label;          /* legend text (UTF-8), may be NULL */
    int64_t n;            /* points; for VIEW_BARS n bars with n+1 edges in x */
    double *x, *y;        /* x has n (+1 for bars) values, y has n */
    int dtype;            /* dtype_t of y: hover prints values as it holds them */
    uint32_t color;       /* 0xRRGGBB */
    view_style_t style;
    double lw;            /* line width in pixels (0: the figure's, 3 px at 750 px high) */
    int dash;             /* VIEW_LINE: 0 solid, 1 dashed, 2 dotted, 3 dash-dot (series 13 and on, style=) */
    bool marker;          /* VIEW_LINE: a dot at each point too (marker="o") */
    bool hollow;          /* VIEW_POINTS: a white dot ringed in the colour (test points) */
    bool x_sorted;        /* x ascending: enables min/max per pixel column */
    bool range_ok;        /* ylo/yhi/ypos computed (view_layout) */
    double ylo, yhi, ypos;/* finite y range; smallest positive y (log axes) */
} view_series_t;

typedef struct view_axis {
    double lo, hi;        /* the range shown (after view_layout) */
    bool log;             /* log10 scale (data <= 0 is not drawn) */
    bool fixed;           /* lo/hi given by the user (xlim=, ylim=) */
    bool pad;             /* add 5% margin around the data range */
    bool from_zero;       /* range includes 0 (bar charts) */
    int nticks;
    double tick[VIEW_MAX_TICKS];
    char tick_label[VIEW_MAX_TICKS][32];
    char *label;          /* axis title or NULL */
    bool custom;          /* ticks given by the builder (categories): view_layout keeps them */
} view_axis_t;

/* A shaded x interval with a legend entry (saturation=1). */
typedef struct view_band { double x0, x1; uint32_t color; char *label; } view_band_t;
/* A vertical marker line (3 px, dashed; two colours alternate along it
 * when color2 is set: two facts at one x).  tag: a short text above the
 * plot at the line's x, in its colour (the x value); label: its row in
 * the key under the plot (NULL: another line's row describes it). */
typedef struct view_vline { double x; uint32_t color; char *label; uint32_t color2; char *tag; } view_vline_t;
/* A horizontal reference line (dashed) with a label at its right end. */
typedef struct view_hline { double y; uint32_t color; char *label; } view_hline_t;

/* A text at data coordinates (bar annotations); y = NAN: just above the
 * x axis (a bar too small for the axis, e.g. 0 on a log scale). */
typedef struct view_text { double x, y; uint32_t color; char *text; } view_text_t;

/* show(): one dense layer of a model, W (in, out).  At most
 * VIEW_MAX_NEURONS slots are drawn per column: all neurons when they fit,
 * else the first ones, an ellipsis slot, and the last ones
 * (view_neuron_of).  w holds the drawn weights, slot by slot. */
#define VIEW_MAX_NEURONS 12
typedef struct view_mlayer {
    int64_t in, out;      /* W's shape */
    bool bias;            /* has b (out,) */
    char *activation;     /* "relu", "linear", a def's name */
    double *w;            /* VIEW_MAX_NEURONS^2 values: w[si * VIEW_MAX_NEURONS + so] (NAN: an ellipsis slot) */
} view_mlayer_t;
typedef struct view_model {
    char *title;          /* the argument as typed: "m", "collapse(m)" */
    char *note;           /* "fp32, 2 layers, 26 parameters" */
    int nlayers;
    view_mlayer_t *layers;
    /* where the last draw put the neurons, for tests: column k (k = 0 is
     * the input) at x = col_x[k]; slot s of a column of ns slots at
     * y = slot_ymid + (s - (ns - 1) / 2) * slot_dy; radius r (pixels) */
    double col_x[65];
    double slot_ymid, slot_dy, r;
    int ncols;
} view_model_t;

/* neurons(): one neuron's output at n x n points of the input plane (row 0
 * at the top), drawn from red (-scale) through white (0) to blue (scale),
 * in column col (a layer), row row. */
typedef struct view_tile { int col, row, n; double *v; double scale; char *label; double dx, dy, ds; /* drawn at (dx, dy), ds wide (last draw) */ } view_tile_t;

/* graph(g): one graph laid out (Graphviz coordinates: points, y up). */
typedef struct view_gnode {
    char *label;          /* lines separated by '\n': "%3 matmul", "fp32[2,3]", the pass's note */
    double x, y, w, h;    /* centre and size, points */
    uint32_t fill;
    bool removed;         /* removed by a pass: drawn grey */
    bool output;          /* the return node */
} view_gnode_t;
typedef struct view_gedge {
    int from, to;         /* node indices */
    bool removed;         /* into or out of a removed node */
    int npts;             /* cubic Bezier control points: 1 + 3k (x, y pairs), points */
    double *pts;
    bool arrow; double ax, ay;  /* arrow tip (Graphviz's end point) */
} view_gedge_t;
typedef struct view_graph {
    char *title;          /* "as traced (7 nodes)" */
    double bw, bh;        /* bounding box, points */
    int nn, ne;
    view_gnode_t *n;
    view_gedge_t *e;
    double ox, oy, scale; /* where the last draw put it: pixel = o + scale * (x, bh - y) */
} view_graph_t;

/* bits(): one element's encoding. */
typedef struct view_bitrow {
    char *label;          /* "0.1" or "[2]" */
    int E, M;             /* exponent and stored mantissa bits */
    uint64_t bits;        /* the pattern, sign at bit E+M */
    char *dtname;         /* "fp16" */
    char *text;           /* "= 0.0999755859375   (rounded from 0.1, error -2.44e-05)" */
} view_bitrow_t;

typedef struct view_figure {
    view_kind_t kind;
    uint64_t serial;      /* unique per figure made in this process (the window's image cache key:
                             a freed figure's address can come back for a new one) */
    char *name;           /* file-name stem: "plot", "hist", ... */
    char *title;          /* UTF-8 (Korean works: Pango with Noto CJK), may be NULL */
    char *note;           /* a line of text under the plot area, may be NULL */
    view_axis_t x, y;
    int nseries; view_series_t *series;
    int nbands;  view_band_t *bands;
    int nvlines; view_vline_t *vlines;
    int nhlines; view_hline_t *hlines;
    /* VIEW_PLOT: a second panel drawn under this one with the same x axis
     * (owned; its px.. are set by the parent's draw), below_frac of the
     * height the two share */
    struct view_figure *below; double below_frac;
    bool legend_above;    /* the legend as one row above the plot area (a panel below another) */
    /* VIEW_HEATMAP: rows x cols values (row-major), the colour range */
    int rows, cols; double *z; double zlo, zhi; int zdtype;
    bool zdiverging;      /* signed data: ColorBrewer RdBu centred at 0 (view_diverging), else viridis */
    /* what the last draw wrote in the cells: significant digits (0: no
     * values, the cells are too small), the widest label and the cell
     * size (pixels), for tests */
    int zsig; double zlabel_w, zcell;
    /* VIEW_BITS */
    int nbitrows; view_bitrow_t *bitrows;
    /* VIEW_TABLE: trows x tcols cells (row 0 is the header), UTF-8 */
    int trows, tcols; char **cells;
    /* VIEW_NUMBERLINE: the value whose rounding is shown (NAN: none) and
     * where it rounds to */
    double nl_value, nl_rounded;
    int nl_dtype;
    /* VIEW_PLOT: a field drawn under the series (boundary): fn x fn values
     * in [0, 1] at the grid points of [fx0, fx1] x [fy0, fy1], row 0 at fy1
     * (the top); 0 light in fc0, 0.5 white, 1 light in fc1, and the line
     * where the field crosses 0.5 */
    int fn; double *field; double fx0, fx1, fy0, fy1; uint32_t fc0, fc1;
    /* ... or each grid point's colour given (frgb, fn x fn, 0xRRGGBB: k
     * classes, a regression's values; the 0.5 line only where field is
     * set too), and a colour bar from fclo to fchi (fcbn colours, bottom
     * to top) in the plot's lower right corner (a regression's map) */
    uint32_t *frgb; int fcbn; uint32_t *fcb; double fclo, fchi;
    uint32_t tneg, tpos;  /* VIEW_TILES: the colours below and above 0 (0, 0: blue and vermillion) */
    /* VIEW_PLOT: points binned into a density (a scatter too large to keep
     * each point): dn x dn cells over [dx0, dx1] x [dy0, dy1], row 0 at dy1,
     * each an ARGB colour (0: empty, the axes show through); the axes'
     * ranges include it */
    int dn; uint32_t *dens; double dx0, dx1, dy0, dy1;
    /* text at data coordinates (VIEW_PLOT) */
    int ntexts; view_text_t *texts;
    /* VIEW_MODEL: the models side by side; colour scale |w| <= wmax */
    int nmodels; view_model_t *models; double wmax;
    /* VIEW_MODEL: figures drawn in a column to the right (the input-output
     * maps), owned; ox/oy: where the parent put each on its last draw */
    int nsides; struct view_figure **sides;
    double ox, oy;
    double base_px;       /* body text size in pixels (0: from the figure's size) */
    /* VIEW_TILES: the maps and each column's title */
    int ntiles; view_tile_t *tiles;
    int ntcols; char *tcol_title[32]; char *tcol_more[32];
    /* VIEW_GRAPH: the graphs side by side */
    int ngraphs; view_graph_t *graphs;
    /* The window's view state: a zoomed/panned range (interaction only). */
    bool zoomed; double zx0, zx1, zy0, zy1;
    /* Where the last draw put the plot area (pixels), for hover and tests. */
    double px, py, pw, ph;
    /* The bottom of what the last draw drew (pixels): tables and bit boxes
     * are written cropped to it (view_save_figure). */
    double content_h;
} view_figure_t;

/* ---- figures as data (view_figure.c) ---- */

view_figure_t *view_figure_new(view_kind_t kind, const char *name);
void view_figure_free(view_figure_t *f);
char *view_strdup(const char *s);               /* malloc'd copy or NULL */
void view_set_title(view_figure_t *f, const char *title);
/* Add a series; takes x and y (malloc'd arrays).  The colour comes from the
 * palette in order.  Returns the series. */
view_series_t *view_add_series(view_figure_t *f, const char *label, int64_t n, double *x, double *y, int dtype);
void view_add_band(view_figure_t *f, double x0, double x1, uint32_t color, const char *label);
view_vline_t *view_add_vline(view_figure_t *f, double x, uint32_t color, const char *label);
void view_add_hline(view_figure_t *f, double y, uint32_t color, const char *label);
void view_add_text(view_figure_t *f, double x, double y, uint32_t color, const char *text);
/* VIEW_MODEL: a new model panel (title copied); its layers are added
 * with view_model_add_layer, which returns the layer to fill w in. */
view_model_t *view_add_model(view_figure_t *f, const char *title);
view_mlayer_t *view_model_add_layer(view_model_t *m, int64_t in, int64_t out, bool bias, const char *activation);
/* A figure drawn beside a VIEW_MODEL one (takes side). */
void view_add_side(view_figure_t *f, view_figure_t *side);
/* Which neuron of a layer of n neurons slot s shows: 0..n-1, or -1 for the
 * ellipsis slot; *nslots gets the number of slots (n, or VIEW_MAX_NEURONS). */
int64_t view_neuron_of(int64_t n, int s, int *nslots);
/* The diverging colour of a weight w with |w| <= wmax: ColorBrewer's RdBu
 * (Brewer, colorbrewer2.org; marked colour-blind safe), red negative, blue
 * positive, light grey at 0. */
uint32_t view_diverging(double w, double wmax);
/* The colour a of the way from white to c (a in [0, 1]). */
uint32_t view_tint(uint32_t c, double a);

/* ---- graph layout (view_graph.c): Graphviz's dot ---- */

/* Add a node (label copied; lines split by '\n', the first line bold) or
 * an edge to a VIEW_GRAPH figure's graph gi; then view_graph_layout lays
 * it out.  Returns the index. */
view_graph_t *view_add_graph(view_figure_t *f, const char *title);
int view_graph_node(view_graph_t *g, const char *label, uint32_t fill, bool removed, bool output);
/* Fills by node kind (the drawing's key names them). */
#define VIEW_G_PARAM 0xD6EAF8
#define VIEW_G_CONST 0xEDEDED
#define VIEW_G_VAR   0xFCE5CD
#define VIEW_G_OP    0xFFFFFF
#define VIEW_G_FUSED 0xE1D5F5   /* lavender: not graph(g, shadow=1)'s green */
int view_graph_edge(view_graph_t *g, int from, int to, bool removed);
/* Lay g out with Graphviz's dot (top to bottom): node boxes sized to their
 * text as Pango measures it, then gvLayout, then ND_coord/ND_width/
 * ND_height and ED_spl read back.  Returns 0, or -1 with a message in err
 * (Graphviz could not load its dot plugin). */
int view_graph_layout(view_graph_t *g, char *err, int errcap);
/* nnpad's own layered layout (view_glayout.c: Sugiyama-style layers,
 * barycentre ordering, least-squares x), the web build's in place of dot:
 * each node's w and h given (points), it sets what view_graph_layout
 * reads back from Graphviz (centres, bw/bh, each edge's Bezier points
 * and arrow tip; y up, the first layer on top).  Deterministic. */
void view_graph_layered(view_graph_t *g);

/* The palette: 12 colours told apart on a projector: Okabe & Ito (2008),
 * "Color Universal Design" (told apart with every common colour-vision
 * deficiency; the yellow left out, it vanishes on white), then five of
 * Tableau 10 that differ from them (red, purple, brown, grey, olive).  A
 * figure's series 13 and on repeat the colours with a dash pattern
 * (view_add_series). */
uint32_t view_palette(int i);
/* Viridis (matplotlib's default colour map, perceptually uniform and
 * colour-blind safe) at t in [0, 1]: 0xRRGGBB. */
uint32_t view_viridis(double t);

/* Compute the axes' shown ranges and ticks from the data (or the user's
 * limits).  Called by view_draw; tests call it to check the data. */
void view_layout(view_figure_t *f);
/* Nice tick positions for [lo, hi] (Heckbert, "Nice numbers for graph
 * labels", Graphics Gems 1990): steps 1, 2, 5 x 10^k, about `want` ticks,
 * all inside [lo, hi].  Returns the count (<= VIEW_MAX_TICKS). */
int view_nice_ticks(double lo, double hi, int want, double *ticks, double *step);
/* Format a tick value for a given step: as few decimals as the step needs,
 * exponent form for very large or small magnitudes, never "-0". */
void view_tick_label(char *out, int cap, double v, double step);
/* A heatmap cell's value: the decimals that give the largest magnitude
 * amax sig significant digits, the same for every cell (amax 2.78, sig 3:
 * "2.78", "0.08", "-0.00"); %.{sig}g when amax is below 1e-3 or from 1e5.
 * ASCII (the drawing writes U+2212 for '-'). */
void view_cell_label(char *out, int cap, double v, int sig, double amax);
/* The height a figure drawn with the text size of a w x h figure needs:
 * tables and bit boxes are as tall as their rows (less than h, or more for
 * many rows); other kinds take h.  view_save_figure uses it. */
int view_natural_height(view_figure_t *f, int w, int h);
/* The body text size in pixels of a w x h figure (25 px at 1200 x 750). */
double view_base_px(int w, int h);

/* ---- drawing (view_draw.c) ---- */

struct _cairo;
/* Draw f into cr over a w x h pixel rectangle at the origin (white
 * background).  Sets f->px.. to the plot area. */
void view_draw(view_figure_t *f, struct _cairo *cr, int w, int h);
/* How the last view_draw on cr went (a cairo_status_t, 0 for success): the
 * context's own status, or a picture inside it Cairo could not make. */
int view_draw_status(struct _cairo *cr);
/* Hover read-out at pixel (mx, my) of a drawn figure: crosshair and the
 * value of each series at that x (in its dtype).  Returns false if (mx, my)
 * is outside the plot area. */
bool view_draw_hover(view_figure_t *f, struct _cairo *cr, double mx, double my);
/* Text for a hover at pixel (mx, my) of a drawn figure: "x = 1.5", then
 * each line series' value at its nearest sample (with that sample's x when
 * it is not under the pointer), the bar under the pointer, and the nearest
 * point of a point series as "(x, y)" when the pointer is within 12 px of
 * it.  Returns the length. */
int view_hover_text(const view_figure_t *f, double mx, double my, char *out, int cap);
/* view_hover_text one part at a time: part -1 the "x = ..." line, part
 * i >= 0 series i's line ("\n..." or nothing), *at (NULL: not wanted) the
 * sample it reads (-1: none); view_hover_point: a point series' line for
 * its point k, as shown within VIEW_HOVER_NEAR pixels of it (the nearest
 * drawn point, the first of equals; 0 and "" for a point not drawn); the
 * read-out's text size.  The page's read-out (draw_record.c) is built from these. */
#define VIEW_HOVER_NEAR 12.0
int view_hover_part(const view_figure_t *f, int i, double mx, double my, int64_t *at, char *out, int cap);
int view_hover_point(const view_figure_t *f, int i, int64_t k, char *out, int cap);
double view_hover_base(const view_figure_t *f);
/* whether the read-out marks sample k of series i with a dot, and where */
bool view_hover_dot(const view_figure_t *f, int i, int64_t k, double *x, double *y);
/* Pixel <-> data along an axis of the last drawn plot area. */
double view_x_to_px(const view_figure_t *f, double x);
double view_y_to_px(const view_figure_t *f, double y);
double view_px_to_x(const view_figure_t *f, double px);
double view_px_to_y(const view_figure_t *f, double py);

/* ---- export (view_export.c) ---- */

#define VIEW_W 1200        /* default figure size in pixels (16:10, a projector's shape) */
#define VIEW_H 750
/* Write f as PNG or SVG (by the file's extension; SVG sizes in pixels).
 * Returns 0, or -1 with a message in err. */
int view_save_figure(view_figure_t *f, const char *path, int w, int h, char *err, int errcap);
/* :save FILE.html / FILE.nn / FILE.png / FILE.svg.  Returns 0 or -1. */
int view_save(const char *path, char *err, int errcap);

/* ---- the notebook (view_notebook.c) ---- */

typedef struct view_cell {
    char *caption;        /* the input that made it */
    char *text;           /* printed output (may be empty) */
    size_t textlen, textcap;
    view_figure_t *fig;   /* or NULL */
    int fignum;           /* headless file number */
    char *path;           /* file written (headless), or NULL */
    bool nested;          /* made inside another cell (a :load's inputs): :save x.nn keeps the :load only */
    int depth;            /* how deeply (0: typed or piped; 1: a :load's input; ...) */
    bool same;            /* a second figure of one input: a cell of its own with the same caption */
    bool failed;          /* the input ended in an error; ran: the bytes of it that ran first (its statements before the failing one) */
    bool lesson;          /* a lesson's own code (a demonstration, an answer typed for the student) */
    bool no_replay;       /* a command :save x.nn leaves out (the lesson commands, :restore) */
    size_t ran;
    size_t bytes;         /* what the cell holds (caption, text, path, figure data), counted in :limit */
} view_cell_t;

/* The notebook's memory counts against :limit (mem_account), and it keeps
 * at most an eighth of the limit (at least 1 MB) in memory: beyond that the
 * oldest finished cells are spilled, in order, to an unlinked file under
 * $TMPDIR, each with its figure as the HTML export draws it, and their
 * memory is given back.  view_cell_at() is NULL for a spilled cell (the
 * window shows the cells kept); the exports read the spilled ones back
 * through view_cells_each, so :save writes the whole session. */

/* Record one input: the REPL calls view_cell_begin before running an input
 * and view_cell_end after; `out` is where the input's output goes.  It
 * returns the stream the session should write to (a tee into the cell for
 * the HTML export; `out` itself when recording is off).  Both are cheap. */
FILE *view_cell_begin(const char *input, size_t len, FILE *out);
void view_cell_end(void);
/* The input of the cell being recorded failed; the first `ran` bytes of it
 * (whole statements) ran: :save x.nn keeps those and comments the rest out. */
void view_cell_failed(size_t ran);
/* The cells begun until it is turned off hold a lesson's own code. */
void view_cells_lesson(bool on);
/* The cell being recorded is left out of :save x.nn (the REPL says which
 * commands steer rather than compute). */
void view_cell_no_replay(void);

/* Show a figure (takes ownership): a cell in the window, or a file
 * figures/NNN-name.png in headless mode with its path printed to out. */
void view_show(view_figure_t *f, FILE *out);
/* The same for a figure whose text form is the main output (bits()): in
 * the window, and as a file only when headless was asked for (--headless,
 * :headless on, NNPAD_HEADLESS); headless by default (no display, the test
 * suite) it takes no file number. */
void view_show_window_only(view_figure_t *f, FILE *out);

/* A figure that changes while a computation runs (fit's show=): in the
 * window a cell whose figure each call replaces (live: -1 the first time,
 * then what the call before returned); headless, nothing until last, which
 * is written as view_show writes any figure.  Takes f; returns the handle. */
int view_show_live(int live, view_figure_t *f, bool last, FILE *out);

int view_cell_count(void);
const view_cell_t *view_cell_at(int i);      /* NULL for a spilled cell */
int view_cell_kept(void);                    /* the first cell kept in memory (cells before it are spilled) */
const view_figure_t *view_last_figure(void); /* of the cells kept */
/* Every cell in order, the spilled ones read back: fn(ctx, i, c, svg) with
 * svg the figure as the HTML export draws it (spilled cells: c->fig is
 * NULL), or NULL (the cell's own c->fig, if any, is to be drawn).  Stops at
 * fn's first nonzero return and returns it; -1 with err set when the spill
 * file cannot be read back. */
int view_cells_each(int (*fn)(void *ctx, int i, const view_cell_t *c, const char *svg), void *ctx, char *err, int cap);
/* The HTML export's drawing of a figure (an inline SVG whose ids carry the
 * prefix f<n>-, n the cell's number from 1), malloc'd; NULL, with the
 * reason in err, if Cairo could not draw it. */
char *view_figure_svg(view_figure_t *f, int n, char *err, int cap);
/* The same figure as a PNG in memory (as :save FILE.png draws it), malloc'd,
 * its size in *len and pixels in *w, *h; NULL with the reason in err. */
unsigned char *view_figure_png(view_figure_t *f, int n, size_t *len, int *w, int *h, char *err, int cap);
/* A printed line that only said where a headless figure went (the exports
 * show the figure itself instead). */
bool view_figure_note(const char *line);
/* The session's inputs as a program that replays it (view_script.c):
 * SAVE as :save FILE.nn writes it (failed statements as comments, a
 * failed :load's inputs instead of it), SHARE as :share links it (what ran
 * only; every :load and :restore replaced by its inputs; no :save,
 * :report).  Each piece goes to put(ctx, s, n), which returns 0 to go on.
 * Returns 0, put's first nonzero return, or -1 with err set (the spill
 * file could not be read back). */
typedef enum { VIEW_SCRIPT_SAVE, VIEW_SCRIPT_SHARE } view_script_how_t;
int view_session_script(view_script_how_t how, int (*put)(void *ctx, const char *s, size_t n), void *ctx,
                        char *err, int cap);
/* :save FILE.nn: a header line, then the SAVE script; written atomically.
 * Returns 0 or -1 with err set. */
int view_save_script(const char *path, char *err, int cap);
/* :save FILE.ipynb: the session as a Jupyter notebook (view_ipynb.c). */
int view_save_ipynb(const char *path, char *err, int cap);
/* The bytes a figure's data hold (what it counts against :limit). */
size_t view_figure_bytes(const view_figure_t *f);
/* Forget every cell (the fuzzer's fresh session, tests). */
void view_notebook_reset(void);
/* :clear and :reset: every finished cell leaves memory (spilled, or its
 * output and figure dropped when there is no spill file). */
void view_notebook_trim(void);
/* Projector scale (:present, :fontscale, Ctrl+plus/minus in the window):
 * every figure's text, line widths and margins, and the window's own text
 * (inputs, output, lesson text), grow by s (1: the default; 0.5 to 1.6). */
void view_set_scale(double s);
double view_scale(void);

/* For the tests: record the ink box (device pixels) of every text drawn
 * between begin and end. */
typedef struct view_text_box { double x, y, w, h; char text[160]; } view_text_box_t;
void view_text_boxes_begin(void);
const view_text_box_t *view_text_boxes_end(int *n);

void view_clear(void);                       /* :clear: the window shows cells from here on; the
                                                record (:save x.html, x.nn) keeps them all */
int view_cell_first(void);                   /* the first cell the window shows */

/* Headless or window.  view_set_headless(true) is --headless or :headless
 * on.  view_is_headless() decides at the first figure when not set: no
 * DISPLAY/WAYLAND_DISPLAY, NNPAD_TEST, or an SDL driver that shows nothing
 * means headless (said once). */
void view_set_headless(bool on);
/* A restore is replaying a session: a figure whose picture is already in
 * the figures folder (same name, same bytes) keeps that file instead of a
 * new one, so a repeated restore writes no figure twice. */
void view_set_replaying(bool on);
bool view_is_headless(void);
bool view_set_figure_dir(const char *dir);   /* default "figures" ($NNPAD_FIGURES); false (unchanged) when longer than view_figure_dir_max() */
size_t view_figure_dir_max(void);
const char *view_figure_dir(void);
/* The number the next figure written headless takes (after the highest in the folder). */
int view_next_figure_number(void);
/* The figure files' extension: PNG natively, display lists in the web build (view_web.c) */
#ifdef __wasi__
#define VIEW_FIG_EXT ".jsonl"
#else
#define VIEW_FIG_EXT ".png"
#endif

/* ---- the window (view_sdl.c, or view_headless.c) ---- */

/* Open the window if needed; false if no window can be shown (the reason
 * in why).  The SDL build checks the driver SDL picked. */
bool view_window_open(char *why, int cap);
bool view_window_available(void);            /* compiled with SDL */
/* The notebook changed: redraw at the next pump. */
void view_window_dirty(void);
/* Poll window events and redraw when needed; returns at once.  The REPL
 * calls it every 16 ms and between lines (repl_pump_events), long
 * computations through view_pump_maybe (err_pump_hook, set by repl_new). */
void view_pump_events(void);
/* Rate-limited pump for interrupt checkpoints: at most every 16 ms. */
void view_pump_maybe(void);
void view_window_close(void);
/* Full screen (F11 in the window, :fullscreen): 1 on, 0 off, -1 the other
 * way; kept when no window is open and applied when one opens.  Returns
 * whether it is full screen now. */
bool view_window_fullscreen(int on);
bool view_window_is_fullscreen(void);

#endif
