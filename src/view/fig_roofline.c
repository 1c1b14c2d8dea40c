/* fig_roofline.c — roofline() (issue 12): every op timed with :time in the
 * session as a point, arithmetic intensity (FLOPs per byte moved) against
 * the FLOP rate it reached, under the device's roofs: memory bandwidth
 * times intensity, and the compute peak.  The roofs are measured once per
 * device and kept: bandwidth by a copy of 256 MiB (bytes read + written per
 * second; on the CPU y = x * 1 with its kernels, both threads), the peaks by a 1024^3 GEMM per dtype through the backend's
 * matmul (fp32 and fp64; on a GPU also fp16 with fp32 compute, on tensor
 * cores).  The model of Williams, Waterman and Patterson (CACM 2009), as
 * Nsight Compute draws it: why an fp16 matmul runs at many times the FLOP
 * rate of an elementwise op that moves the same bytes. */
#include "view/fig_int.h"
#include "util/i18n.h"
#include "util/i18n.h"
#include "backend/backend.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct roofs { bool done; int n; double gbs, gflops[4]; } roofs_t;   /* gflops by dtype, 0: not measured; n: the GEMM's size */
static roofs_t roofs_of[BK_NDEVICES];

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Buffers for the measurements come from the device's backend; on the CPU
 * they are host memory outside :limit, freed at once. */
static void measure(bk_device_t dev)
{
    roofs_t *r = &roofs_of[dev];
    if (r->done) return;
    const backend_t *b = backend_get(dev);
    size_t bytes = (size_t)256 << 20;
    void *x = b->buf_alloc(bytes, false), *y = x ? b->buf_alloc(bytes, false) : NULL;
    double best = 1e30;
    /* every page written first, with data that is not zero (an untouched
     * or zero page would copy from the cache, not from memory) */
    const uint64_t pat = 0x3ff0123456789abcULL;
    if (x && y && (b->fill(x, 8, &pat, (int64_t)(bytes / 8)) != BK_OK || b->fill(y, 8, &pat, (int64_t)(bytes / 8)) != BK_OK))
        best = 1e31;
    /* the CPU's copy is one thread's memcpy; its kernels use both threads and
     * streaming stores: its roof is y = x * 1 (a read and a write per
     * element), as the bench's "nnpad y = x * 1" row */
    float one = 1.0f;
    int64_t ne = (int64_t)(bytes / 4), st0 = 0, st4 = 4;
    for (int k = 0; x && y && best < 1e31 && k < 4; k++) {
        double t0 = now_s();
        if (dev == BK_CPU) {
            bk_binary_t bb = { KB_MUL, DT_FP32, DT_FP32, DT_FP32, y, x, &one, 1, &ne, &st4, &st0, SPAN_NONE };
            if (b->binary(&bb) != BK_OK) break;
        } else if (b->buf_copy(y, x, bytes) != BK_OK) break;
        if (b->sync) b->sync();
        double t = now_s() - t0;
        if (k && t < best) best = t;
    }
    if (best < 1e30) r->gbs = 2.0 * (double)bytes / best / 1e9;   /* read + write */
    if (y) b->buf_free(y, bytes);
    if (x) b->buf_free(x, bytes);
    static const dtype_t dts[3] = { DT_FP32, DT_FP64, DT_FP16 };
    /* 1024^3; 512^3 on the CPU's plain C level, whose GEMM makes one fmaf
     * call per multiply-add (NNPAD_KERNELS=plain: 3 s a product here) */
    int n = dev == BK_CPU && bk_cpu_level() == 0 ? 512 : 1024;
    r->n = n;
    for (int j = 0; j < 3; j++) {
        dtype_t dt = dts[j];
        if (dt == DT_FP16 && dev == BK_CPU) continue;   /* the CPU multiplies fp16 in fp32 */
        size_t mb = (size_t)n * n * dtype_traits[dt].size;
        void *a = b->buf_alloc(mb, true), *bb = a ? b->buf_alloc(mb, true) : NULL, *c = bb ? b->buf_alloc(mb, false) : NULL;
        best = 1e30;
        for (int k = 0; c && k < 3; k++) {
            bk_matmul_t mm = { dt, n, n, n, a, bb, c, false, SPAN_NONE, false, false, false, 0, 0, 0, 0 };
            double t0 = now_s();
            if (b->matmul(&mm) != BK_OK) break;
            if (b->sync) b->sync();
            double t = now_s() - t0;
            if (k && t < best) best = t;
        }
        if (best < 1e30) r->gflops[dt] = 2.0 * n * (double)n * n / best / 1e9;
        if (c) b->buf_free(c, mb);
        if (bb) b->buf_free(bb, mb);
        if (a) b->buf_free(a, mb);
    }
    r->done = true;
}

static const uint32_t dt_color[4] = { 0xd62728, 0x9467bd, 0x1f77b4, 0x2ca02c };   /* fp16 bf16 fp32 fp64 */

static value_t *roofline_impl(call_t *c)
{
    fig_check_common(c);
    bk_device_t dev = (bk_device_t)op_settings(c->s)->dev;
    const char *ds = fig_kw_str(c, "device");
    if (ds) {
        if (!strcmp(ds, "cpu")) dev = BK_CPU;
        else if (!strcmp(ds, "gpu") || !strcmp(ds, "cuda")) {
            const char *why = NULL;
            if (!backend_cuda_load(&why)) err_raise(ERR_VALUE, c->span, "roofline: no GPU (%s)", why ? why : "?");
            dev = BK_CUDA;
        } else {
            err_raise(ERR_VALUE, c->span, "roofline: device is \"cpu\" or \"gpu\", not \"%s\"", ds);
        }
    }
    if (!backend_get(dev)) dev = BK_CPU;
    measure(dev);
    const roofs_t *r = &roofs_of[dev];
    const char *dn = dev == BK_CPU ? "cpu" : "gpu";
    /* the points: the timed ops on this device */
    int n = 0;
    for (int i = 0; i < op_timing_count(); i++) if (op_timing_at(i)->device == (int)dev) n++;
    FILE *out = c->s->out;
    /* the numbers in the terminal only with table=1 (they are measurements:
     * the figure's legend carries the roofs) */
    bool table = fig_kw_flag(c, "table");
    if (table) {
        fprintf(out, _("roofline (%s): memory %.3g GB/s (a 256 MiB copy: y = x * 1 on the CPU)"), dn, r->gbs);
        for (int d = 0; d < 4; d++)
            if (r->gflops[d] > 0) fprintf(out, ", %s %.3g GFLOP/s (%d^3 GEMM)", dtype_traits[d].name, r->gflops[d], r->n);
        fputc('\n', out);
    }
    if (n == 0)
        fprintf(out, _("no ops timed on the %s yet: time some with :time (e.g. :time y = x * 2, :time z = a @ a), then "
                     "call roofline() again\n"), dn);
    else if (table) {
        fprintf(out, "%-12s %-5s %14s %14s %12s ", "op", "dtype", "FLOPs", "FLOP/byte", "GFLOP/s");
        fig_put_padded(out, _("of roof"), 8, true);
        fputc('\n', out);
    }
    view_figure_t *f = view_figure_new(VIEW_PLOT, "roofline");
    fig_common_options(c, f);
    f->x.log = f->y.log = true;
    if (!f->x.label) f->x.label = view_strdup(_("arithmetic intensity (FLOP per byte moved)"));
    if (!f->y.label) f->y.label = view_strdup("GFLOP/s");
    if (!f->title) {
        char t[200];
        snprintf(t, sizeof t, _("roofline: the %s's roofs and the ops timed"), dn);
        f->title = view_strdup(t);
    }
    /* roofs over intensities 2^-6 .. 2^10 */
    int m = 65;
    for (int d = 3; d >= 0; d--) {
        if (r->gflops[d] <= 0 || r->gbs <= 0) continue;
        double *x = fig_dalloc(m), *y = fig_dalloc(m);
        for (int k = 0; k < m; k++) {
            x[k] = ldexp(1.0, -6) * pow(2.0, 16.0 * k / (m - 1));
            double bw = r->gbs * x[k];
            y[k] = bw < r->gflops[d] ? bw : r->gflops[d];
        }
        char lab[128];
        snprintf(lab, sizeof lab, _("roof %s (%.3g GFLOP/s, %.3g GB/s)"), dtype_traits[d].name, r->gflops[d], r->gbs);
        view_series_t *s = view_add_series(f, lab, m, x, y, DT_FP64);
        s->color = dt_color[d];
        s->x_sorted = true;
    }
    for (int d = 0; d < 4 && n; d++) {
        int k = 0;
        for (int i = 0; i < op_timing_count(); i++) {
            const op_timing_t *t = op_timing_at(i);
            if (t->device == (int)dev && t->dtype == d) k++;
        }
        if (!k) continue;
        double *x = fig_dalloc(k), *y = fig_dalloc(k);
        k = 0;
        for (int i = 0; i < op_timing_count(); i++) {
            const op_timing_t *t = op_timing_at(i);
            if (t->device != (int)dev || t->dtype != d) continue;
            x[k] = t->flops / t->bytes;
            y[k] = t->flops / t->ns;   /* FLOP per ns = GFLOP/s */
            double peak = r->gflops[d] > 0 ? r->gflops[d] : r->gflops[DT_FP32];
            double roof = fmin(peak, r->gbs * x[k]);
            if (table)
                fprintf(out, "%-12s %-5s %14.4g %14.4g %12.4g %7.0f%%\n", t->op->name, dtype_traits[d].name, t->flops,
                        x[k], y[k], roof > 0 ? 100 * y[k] / roof : 0.0);
            k++;
        }
        char lab[96];
        snprintf(lab, sizeof lab, _("ops in %s"), dtype_traits[d].name);
        view_series_t *s = view_add_series(f, lab, k, x, y, DT_FP64);
        s->style = VIEW_POINTS;
        s->color = dt_color[d];
        /* each point named by its op, once per spot: a name within a
         * factor of 2 in x and 1.4 in y of one already written is left out */
        k = 0;
        for (int i = 0; i < op_timing_count(); i++) {
            const op_timing_t *t = op_timing_at(i);
            if (t->device != (int)dev || t->dtype != d) continue;
            bool near = false;
            for (int j = 0; j < f->ntexts && !near; j++)
                near = fabs(log2(f->texts[j].x / x[k])) < 1 && fabs(log2(f->texts[j].y / y[k])) < 0.5;
            if (!near && f->ntexts < 40 && x[k] > 0 && y[k] > 0) view_add_text(f, x[k], y[k], dt_color[d], t->op->name);
            k++;
        }
    }
    f->note = view_strdup(_("x: FLOPs per byte read and written; y: FLOPs per second reached (best of :time's runs). "
                          "Under the slanted line an op waits for memory; under the flat one, for arithmetic. The "
                          "memory roof is main memory's: an op whose data fits in the caches can pass it."));
    view_show(f, out);
    return fig_none();
}

static const op_def_t op_family_roofline[] = {
    {OP(roofline), OPK_FUNC, .impl = roofline_impl, .min_args = 0, .max_args = 0, .kwargs = "device table title xlabel ylabel",
     .flags = OPF_IMPURE, .nograd = N_("a figure"),
     .signature = "roofline(device=, table=0)", .summary = N_("the ops timed with :time under the device's memory and compute roofs"),
     .formula = N_("each op timed with :time is a point: x = FLOPs / bytes moved (elementwise: 1 FLOP per element; matmul "
                "2nmk; sum/mean/max/min: 1 per input element; bytes: every tensor read plus the result), y = FLOPs "
                "per second (its best run). The roofs: min(peak, bandwidth x intensity), bandwidth from a 256 MiB "
                "copy, peaks from a 1024^3 GEMM per dtype (512^3 at NNPAD_KERNELS=plain; measured once per device, then kept). device= \"cpu\" "
                "or \"gpu\" (default: the session's :device); table=1 also prints the roofs and each point in the terminal"),
     .shapes = N_("-> a figure (and a table of the points)"), .dtypes = N_("title= xlabel= ylabel= (strings; Korean works)"),
     .source = N_("Williams, Waterman & Patterson, Roofline: an insightful visual performance model, CACM 52(4), 2009; "
               "NVIDIA Nsight Compute's roofline chart"),
     .example = "roofline()\n"
                "#> no ops timed on the cpu yet: time some with :time (e.g. :time y = x * 2, :time z = a @ a), then call "
                "roofline() again\n"
                "#> figure: figures/001-roofline.png"},
    {NULL},
};
OP_FAMILY_REGISTER(op_family_roofline)
