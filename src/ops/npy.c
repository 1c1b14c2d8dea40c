/* npy.c — tensors and weights in NumPy's files:
 *
 *   save(x, "x.npy")             one tensor as a .npy file (format 1.0)
 *   load("x.npy", dtype=)        a .npy file as a tensor
 *   save_weights(m, "w.npz")     a layer's or model's weights as a .npz
 *   load_weights(m, "w.npz")     them back into a model of the same shapes
 *
 * .npy (numpy/lib/format.py, format version 1.0): the magic "\x93NUMPY",
 * version 1 0, a 2-byte little-endian header length, a header that is a
 * Python dict literal {'descr': '<f4', 'fortran_order': False, 'shape':
 * (2, 3), } padded with spaces and a '\n' so that the data starts at a
 * multiple of 64 bytes, then the elements in C order, little-endian.
 * fp16 fp32 fp64 int64 are '<f2' '<f4' '<f8' '<i8'.  NumPy has no bf16 or
 * fp8, so their bit patterns are written as unsigned integers ('<u2' for
 * bf16, '|u1' for e4m3 and e5m2), which numpy.load reads as uint16/uint8;
 * load gives such a file back as int64 bit patterns unless dtype= names
 * the format (load("x.npy", dtype=bf16)), which is then exact.  Reading
 * accepts versions 1.0, 2.0 and 3.0, either byte order, and the dtypes
 * f2 f4 f8 (to fp16 fp32 fp64), i1-i8 u1-u8 b1 (to int64); Fortran order,
 * structured and object arrays are refused with the reason.
 *
 * .npz (numpy.savez): a ZIP archive (APPNOTE.TXT 6.3) whose members are
 * NAME.npy, written stored (uncompressed, as np.savez does) with their
 * CRC-32.  save_weights names the arrays by the model's dense layers in
 * order (nested sequentials flattened, a time_distributed's layer in its
 * place), PyTorch's nn.Sequential state_dict indices with Keras's
 * parameter names: "0.kernel" (in, out) and "0.bias" (out,), then
 * "1.kernel", ...  A PyTorch Linear's weight is kernel transposed.  A bf16
 * weight is the member "0.kernel.bf16" (uint16 bits), an fp8 one
 * "0.kernel.e4m3" or "0.kernel.e5m2" (uint8 bits).  Reading takes
 * members stored or not at all: np.savez_compressed's deflated members are
 * refused with the reason.  ZIP64 fields (Python's zipfile writes them in
 * the local headers numpy makes) are read.
 *
 * Files are read whole into scratch memory (mem_scratch: counted against
 * :limit and freed by any error) and every offset and length is checked
 * against what was read, so a truncated or corrupt file is an error that
 * says what is wrong, never a crash.  Files are written through afile
 * (util/afile.h): a failed write leaves the old file as it was. */
#include "ops/ops.h"
#include "ops/record.h"
#include "util/afile.h"
#include "util/error.h"
#include "util/i18n.h"
#include "util/mem.h"
#include "value/value.h"
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "npy.c writes the host's bytes as little-endian data"
#endif

/* ---- CRC-32 (ISO-HDLC, the ZIP one: polynomial 0xEDB88320 reflected) ---- */

static uint32_t crc_table[256];

static void crc_init(void)
{
    if (crc_table[1]) return;
    for (uint32_t i = 0; i < 256; i++) {
        uint32_t c = i;
        for (int k = 0; k < 8; k++) c = c & 1 ? 0xEDB88320u ^ (c >> 1) : c >> 1;
        crc_table[i] = c;
    }
}

static uint32_t crc_update(uint32_t crc, const void *p, size_t n)
{
    const unsigned char *b = p;
    crc = ~crc;
    for (size_t i = 0; i < n; i++) crc = crc_table[(crc ^ b[i]) & 0xFF] ^ (crc >> 8);
    return ~crc;
}

/* ---- little-endian fields ---- */

static uint16_t rd16(const unsigned char *p) { return (uint16_t)(p[0] | p[1] << 8); }
static uint32_t rd32(const unsigned char *p) { return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24; }
static uint64_t rd64(const unsigned char *p) { return (uint64_t)rd32(p) | (uint64_t)rd32(p + 4) << 32; }
static void wr16(unsigned char *p, uint32_t v) { p[0] = (unsigned char)v; p[1] = (unsigned char)(v >> 8); }
static void wr32(unsigned char *p, uint32_t v) { wr16(p, v & 0xFFFF); wr16(p + 2, v >> 16); }

/* ---- the .npy header ---- */

/* The descr of dtype dt as written ('<u2' for bf16's bits, '|u1' for fp8's) */
static const char *descr_of(dtype_t dt)
{
    switch (dt) {
    case DT_FP16: return "<f2";
    case DT_BF16: return "<u2";
    case DT_FP32: return "<f4";
    case DT_FP64: return "<f8";
    case DT_INT64: return "<i8";
    default: return "|u1";   /* e4m3, e5m2 */
    }
}

/* The header of an array (magic, version, length, dict, padding to 64):
 * its length, written into h (room for 64 + 8 dims of 20 digits) */
static size_t npy_header(char *h, size_t cap, dtype_t dt, int ndim, const int64_t *shape)
{
    char dict[400];
    int k = snprintf(dict, sizeof dict, "{'descr': '%s', 'fortran_order': False, 'shape': (", descr_of(dt));
    for (int d = 0; d < ndim; d++) k += snprintf(dict + k, sizeof dict - (size_t)k, "%lld%s", (long long)shape[d],
                                                 ndim == 1 ? "," : d + 1 < ndim ? ", " : "");
    k += snprintf(dict + k, sizeof dict - (size_t)k, "), }");
    size_t total = 10 + (size_t)k + 1;   /* the dict and its '\n' */
    size_t padded = (total + 63) / 64 * 64;
    if (padded > cap) padded = cap;
    memcpy(h, "\x93NUMPY\x01\x00", 8);
    wr16((unsigned char *)h + 8, (uint32_t)(padded - 10));
    memcpy(h + 10, dict, (size_t)k);
    memset(h + 10 + k, ' ', padded - 10 - (size_t)k - 1);
    h[padded - 1] = '\n';
    return padded;
}

/* ---- reading a whole file ---- */

typedef struct rfile {
    unsigned char *p;
    size_t n;
} rfile_t;

/* The file at path read whole into scratch memory (freed by mem_scratch_free,
 * or by any error); `who` names the builtin in messages */
static rfile_t read_whole(const char *who, const char *path, span_t sp)
{
    char cerr[600];
    if (!afile_allowed(path, cerr, sizeof cerr)) err_raise(ERR_IO, sp, "%s: cannot open %s", who, cerr);
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        int e = errno;
        err_raise(ERR_IO, sp, "%s: cannot open %s: %s", who, path, strerror(e));
    }
    struct stat st;
    int sr = fstat(fd, &st);
    if (sr != 0 || !S_ISREG(st.st_mode)) {
        int e = sr != 0 ? errno : S_ISDIR(st.st_mode) ? EISDIR : 0;
        close(fd);
        if (e) err_raise(ERR_IO, sp, "%s: cannot read %s: %s", who, path, strerror(e));
        err_raise(ERR_IO, sp, "%s: cannot read %s: not a regular file (a device or a pipe)", who, path);
    }
    size_t n = (size_t)st.st_size;
    rfile_t r = { NULL, n };
    err_frame_t f;
    if (err_try(&f) == 0) {
        r.p = mem_scratch(n ? n : 1);   /* past :limit: an error, the file closed below */
        err_pop(&f);
    } else {
        close(fd);
        err_rethrow();
    }
    size_t got = 0;
    while (got < n) {
        ssize_t k = pread(fd, r.p + got, n - got, (off_t)got);
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) {
            int e = k < 0 ? errno : 0;
            close(fd);
            if (e) err_raise(ERR_IO, sp, "%s: reading %s: %s", who, path, strerror(e));
            err_raise(ERR_IO, sp, "%s: %s changed while it was read (it became shorter)", who, path);
        }
        got += (size_t)k;
    }
    close(fd);
    return r;
}

/* ---- parsing a .npy image ---- */

/* What an array in a file holds, before it becomes a tensor */
typedef struct npy {
    char kind;           /* 'f', 'i', 'u', 'b' */
    int size;            /* bytes per element */
    bool swap;           /* big-endian data */
    int ndim;
    int64_t shape[NN_MAX_DIMS];
    int64_t count;
    const unsigned char *data;
} npy_t;

static const char *skip_ws(const char *p, const char *e)
{
    while (p < e && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')) p++;
    return p;
}

/* A quoted string at *pp (single or double quotes): its text into out */
static bool py_str(const char **pp, const char *e, char *out, size_t cap)
{
    const char *p = *pp;
    if (p >= e || (*p != '\'' && *p != '"')) return false;
    char q = *p++;
    size_t k = 0;
    while (p < e && *p != q) {
        if (*p == '\\' || k + 1 >= cap) return false;
        out[k++] = *p++;
    }
    if (p >= e) return false;
    out[k] = 0;
    *pp = p + 1;
    return true;
}

/* Parse the array at buf[0..n) (a .npy file or an .npz member) named
 * `name` in messages; who: the builtin */
static void npy_parse(const char *who, const char *name, const unsigned char *buf, size_t n, npy_t *a, span_t sp)
{
    if (n < 10 || memcmp(buf, "\x93NUMPY", 6))
        err_raise(ERR_VALUE, sp, "%s: %s is not a NumPy .npy array (it does not start with \\x93NUMPY)", who, name);
    int major = buf[6], minor = buf[7];
    size_t hlen, hstart;
    if (major == 1 && minor == 0) { hlen = rd16(buf + 8); hstart = 10; }
    else if ((major == 2 || major == 3) && minor == 0) {
        if (n < 12) err_raise(ERR_VALUE, sp, "%s: %s is cut short inside its header", who, name);
        hlen = rd32(buf + 8);
        hstart = 12;
    } else
        err_raise(ERR_VALUE, sp, "%s: %s has .npy format version %d.%d; nnpad reads versions 1.0, 2.0 and 3.0", who, name,
                  major, minor);
    if (hlen > n - hstart) err_raise(ERR_VALUE, sp, "%s: %s is cut short inside its header (%zu header bytes, the file has "
                                     "%zu after the start)", who, name, hlen, n - hstart);
    const char *p = (const char *)buf + hstart, *e = p + hlen;
    bool have_d = false, have_f = false, have_s = false, fortran = false;
    char descr[32] = "";
    p = skip_ws(p, e);
    if (p >= e || *p++ != '{') err_raise(ERR_VALUE, sp, "%s: %s: the header is not a dict ({'descr': ...})", who, name);
    for (;;) {
        p = skip_ws(p, e);
        if (p < e && *p == '}') break;
        char key[32];
        if (!py_str(&p, e, key, sizeof key)) goto bad;
        p = skip_ws(p, e);
        if (p >= e || *p++ != ':') goto bad;
        p = skip_ws(p, e);
        if (!strcmp(key, "descr")) {
            if (p < e && *p == '[')
                err_raise(ERR_VALUE, sp, "%s: %s holds a structured array (fields); nnpad reads plain numeric arrays", who, name);
            if (!py_str(&p, e, descr, sizeof descr)) goto bad;
            have_d = true;
        } else if (!strcmp(key, "fortran_order")) {
            if (e - p >= 4 && !memcmp(p, "True", 4)) { fortran = true; p += 4; }
            else if (e - p >= 5 && !memcmp(p, "False", 5)) p += 5;
            else goto bad;
            have_f = true;
        } else if (!strcmp(key, "shape")) {
            if (p >= e || *p++ != '(') goto bad;
            a->ndim = 0;
            for (;;) {
                p = skip_ws(p, e);
                if (p < e && *p == ')') { p++; break; }
                if (p >= e || *p < '0' || *p > '9') goto bad;
                int64_t v = 0;
                while (p < e && *p >= '0' && *p <= '9') {
                    if (v > (INT64_MAX - 9) / 10) err_raise(ERR_VALUE, sp, "%s: %s: a dimension in its shape is too large", who, name);
                    v = v * 10 + (*p++ - '0');
                }
                if (p < e && *p == 'L') p++;   /* Python 2's long */
                if (a->ndim >= NN_MAX_DIMS)
                    err_raise(ERR_SHAPE, sp, "%s: %s has more than %d axes (nnpad's most)", who, name, NN_MAX_DIMS);
                a->shape[a->ndim++] = v;
                p = skip_ws(p, e);
                if (p < e && *p == ',') p++;
                else if (p < e && *p == ')') { p++; break; }
                else goto bad;
            }
            have_s = true;
        } else
            goto bad;
        p = skip_ws(p, e);
        if (p < e && *p == ',') { p++; continue; }
        p = skip_ws(p, e);
        if (p < e && *p == '}') break;
        goto bad;
    }
    if (!have_d || !have_f || !have_s)
        err_raise(ERR_VALUE, sp, "%s: %s: the header lacks %s", who, name, !have_d ? "'descr'" : !have_f ? "'fortran_order'" : "'shape'");
    if (fortran)
        err_raise(ERR_VALUE, sp, "%s: %s is in Fortran order (column-major); save it with "
                  "np.save(path, np.ascontiguousarray(a)) for nnpad", who, name);
    /* descr: byte order, kind, size */
    const char *d = descr;
    char bo = '|';
    if (*d == '<' || *d == '>' || *d == '|' || *d == '=') bo = *d++;
    char kind = *d ? *d++ : 0;
    char *end;
    long sz = *d >= '1' && *d <= '9' ? strtol(d, &end, 10) : -1;
    bool ok = sz > 0 && *end == 0 &&
              ((kind == 'f' && (sz == 2 || sz == 4 || sz == 8)) ||
               ((kind == 'i' || kind == 'u') && (sz == 1 || sz == 2 || sz == 4 || sz == 8)) || (kind == 'b' && sz == 1));
    if (!ok)
        err_raise(ERR_DTYPE, sp, "%s: %s holds dtype '%s'; nnpad reads floats (f2 f4 f8), integers (i1-i8, u1-u8) and "
                  "booleans", who, name, descr);
    a->kind = kind;
    a->size = (int)sz;
    a->swap = bo == '>' && sz > 1;
    /* the element count, and the data's length against the file's */
    int64_t count = 1;
    for (int i = 0; i < a->ndim; i++) {
        if (a->shape[i] && count > INT64_MAX / a->shape[i])
            err_raise(ERR_VALUE, sp, "%s: %s: its shape has more elements than can be counted", who, name);
        count *= a->shape[i];
    }
    size_t dstart = hstart + hlen, have = n - dstart;
    if ((uint64_t)count > have / (uint64_t)sz)
        err_raise(ERR_VALUE, sp, "%s: %s is truncated: its shape needs %lld bytes of data, the file has %zu", who, name,
                  (long long)count * sz > 0 ? (long long)count * sz : LLONG_MAX, have);
    a->count = count;
    a->data = buf + dstart;
    return;
bad:
    err_raise(ERR_VALUE, sp, "%s: %s: its header is not a .npy header dict ({'descr': '<f4', 'fortran_order': False, "
              "'shape': (2, 3), })", who, name);
}

/* Element i of a's data as raw little-endian bytes into out */
static void npy_elem(const npy_t *a, int64_t i, unsigned char *out)
{
    const unsigned char *s = a->data + (size_t)i * (size_t)a->size;
    for (int k = 0; k < a->size; k++) out[k] = a->swap ? s[a->size - 1 - k] : s[k];
}

/* What a file's dtype becomes in nnpad with no dtype= */
static dtype_t npy_natural(const npy_t *a)
{
    if (a->kind == 'f') return a->size == 2 ? DT_FP16 : a->size == 4 ? DT_FP32 : DT_FP64;
    return DT_INT64;
}

/* The array as a tensor: `as` -1 for its natural dtype, or bf16/e4m3/e5m2
 * to take uint16/uint8 bit patterns as that format (exact) */
static value_t *npy_tensor(const char *who, const char *name, const npy_t *a, int as, span_t sp)
{
    if (as == DT_BF16 || as == DT_E4M3 || as == DT_E5M2) {
        int want = as == DT_BF16 ? 2 : 1;
        if ((a->kind != 'u' && a->kind != 'i') || a->size != want)
            err_raise(ERR_DTYPE, sp, "%s: %s as %s: the file must hold its bit patterns as %s, not %c%d", who, name,
                      dtype_traits[as].name, want == 2 ? "uint16 ('<u2')" : "uint8 ('|u1')", a->kind, a->size);
        value_t *t = tensor_new_raw((dtype_t)as, a->ndim, a->shape);
        unsigned char *o = tensor_data(t);
        for (int64_t i = 0; i < a->count; i++) npy_elem(a, i, o + (size_t)i * (size_t)want);
        return t;
    }
    dtype_t dt = npy_natural(a);
    value_t *t = tensor_new_raw(dt, a->ndim, a->shape);
    unsigned char *o = tensor_data(t);
    if (a->kind == 'f') {
        for (int64_t i = 0; i < a->count; i++) npy_elem(a, i, o + (size_t)i * (size_t)a->size);
        return t;
    }
    int64_t *oi = (int64_t *)o;
    for (int64_t i = 0; i < a->count; i++) {
        unsigned char b[8] = { 0 };
        npy_elem(a, i, b);
        uint64_t u = 0;
        for (int k = a->size - 1; k >= 0; k--) u = u << 8 | b[k];
        int64_t v;
        if (a->kind == 'i' && a->size < 8 && (u >> (a->size * 8 - 1)) & 1) v = (int64_t)(u | ~0ull << (a->size * 8));
        else if (a->kind == 'u' && a->size == 8 && u > (uint64_t)INT64_MAX)
            err_raise(ERR_VALUE, sp, "%s: %s: element %lld is %llu, beyond int64's largest (2^63 - 1)", who, name,
                      (long long)i, (unsigned long long)u);
        else v = (int64_t)u;
        if (a->kind == 'b') v = u != 0;
        oi[i] = v;
    }
    return t;
}

/* ---- writing ---- */

/* A tensor argument as host data ready to write: its value (borrowed) */
static value_t *tensor_for_file(call_t *c, int i, const char *what)
{
    value_t *x = c->args[i];
    if (x->kind != V_TENSOR)
        err_raise(ERR_TYPE, op_arg_span(c, i), "%s: the first argument is a tensor, not a %s", what, val_kind_name(x));
    op_tracer.need_concrete(x, op_arg_span(c, i), N_("the tensor to write"));
    return x;
}

static const char *path_arg(call_t *c, int i, const char *who, const char *ext)
{
    value_t *p = c->args[i];
    if (p->kind != V_STR)
        err_raise(ERR_TYPE, op_arg_span(c, i), "%s: the file name is a string such as \"x%s\", not a %s", who, ext,
                  val_kind_name(p));
    if (strlen(p->u.str.s) != p->u.str.len || p->u.str.len == 0)
        err_raise(ERR_VALUE, op_arg_span(c, i), "%s: the file name is empty or holds a NUL byte", who);
    size_t n = p->u.str.len, k = strlen(ext);
    if (n < k || strcmp(p->u.str.s + n - k, ext))
        err_raise(ERR_VALUE, op_arg_span(c, i), "%s: the file name must end in %s (NumPy's %s format), not \"%s\"", who,
                  ext, ext, p->u.str.s);
    return p->u.str.s;
}

/* Commit the file, or raise with afile's "cannot write PATH: REASON" */
static void write_commit(afile_t *a, const char *who, span_t sp)
{
    char err[700];
    if (afile_commit(a, err, sizeof err) != 0) err_raise(ERR_IO, sp, "%s: %s", who, err);
}

static FILE *write_open(afile_t *a, const char *who, const char *path, span_t sp)
{
    char err[700];
    if (!afile_allowed(path, err, sizeof err) || !afile_open(a, path, err, sizeof err)) err_raise(ERR_IO, sp, "%s: %s", who, err);
    return a->f;
}

static value_t *save_impl(call_t *c)
{
    value_t *x = tensor_for_file(c, 0, "save");
    const char *path = path_arg(c, 1, "save", ".npy");
    const void *data = x->u.t.size ? tensor_data(x) : "";   /* contiguous host data (may allocate: before the file opens) */
    char h[512];
    size_t hl = npy_header(h, sizeof h, (dtype_t)x->u.t.dtype, x->u.t.ndim, x->u.t.shape);
    afile_t a;
    write_open(&a, "save", path, op_arg_span(c, 1));
    afile_write(&a, h, hl);
    afile_write(&a, data, tensor_nbytes(&x->u.t));
    write_commit(&a, "save", op_arg_span(c, 1));
    return val_new(V_NONE);
}

static value_t *load_impl(call_t *c)
{
    value_t *pv = c->args[0];
    if (pv->kind != V_STR)
        err_raise(ERR_TYPE, op_arg_span(c, 0), "load: the file name is a string such as \"x.npy\", not a %s", val_kind_name(pv));
    const char *path = pv->u.str.s;
    size_t n = pv->u.str.len;
    if (n >= 4 && !strcmp(path + n - 4, ".npz"))
        err_raise(ERR_VALUE, op_arg_span(c, 0), "load: %s is an .npz archive of several arrays; load reads one .npy array "
                  "(load_weights(model, \"%s\") reads a model's weights)", path, path);
    span_t dsp;
    value_t *dv = op_kw(c, "dtype", &dsp);
    int as = dv ? (int)op_to_dtype(dv, dsp) : -1;
    rfile_t f = read_whole("load", path, op_arg_span(c, 0));
    npy_t a;
    npy_parse("load", path, f.p, f.n, &a, op_arg_span(c, 0));
    value_t *t;
    if (as == DT_BF16 || as == DT_E4M3 || as == DT_E5M2) t = npy_tensor("load", path, &a, as, dsp);
    else {
        t = npy_tensor("load", path, &a, -1, op_arg_span(c, 0));
        if (as >= 0 && as != t->u.t.dtype) {   /* another dtype: converted as astype does, rounded once */
            value_t *u = op_convert(t, (dtype_t)as, dsp, "load");
            val_unref(t);
            t = u;
        }
    }
    mem_scratch_free(f.p);
    return t;
}

/* ---- a model's weights ---- */

static const char *kind_of(value_t *v)
{
    if (!v || v->kind != V_SCOPE) return NULL;
    value_t *k = scope_get_local(v, "__kind__");
    return k && k->kind == V_STR ? k->u.str.s : NULL;
}

/* The dense layers of m in order into list out */
static void dense_leaves(value_t *m, value_t *out)
{
    const char *k = kind_of(m);
    if (!k) return;
    if (!strcmp(k, "dense")) list_push_take(out, val_ref(m));
    else if (!strcmp(k, "sequential")) {
        value_t *ls = scope_get_local(m, "layers");
        for (int i = 0; ls && ls->kind == V_LIST && i < ls->u.list.n; i++) dense_leaves(ls->u.list.items[i], out);
    } else if (!strcmp(k, "time_distributed"))
        dense_leaves(scope_get_local(m, "layer"), out);
}

static value_t *model_arg(call_t *c, const char *who)
{
    value_t *m = c->args[0];
    if (!kind_of(m) || !strcmp(kind_of(m), "optimizer") || !strcmp(kind_of(m), "history"))
        err_raise(ERR_TYPE, op_arg_span(c, 0), "%s: the first argument is a layer or model (dense, sequential, "
                  "time_distributed), not a %s", who, val_kind_name(m));
    value_t *ls = list_new(8);
    dense_leaves(m, ls);
    if (ls->u.list.n == 0) err_raise(ERR_VALUE, op_arg_span(c, 0), "%s: this model has no dense layers, so no weights", who);
    return ls;
}

/* The member name of layer i's parameter p ("kernel", "bias") in dtype dt */
static void member_name(char *out, size_t cap, int i, const char *p, dtype_t dt)
{
    const char *sfx = dt == DT_BF16 ? ".bf16" : dt == DT_E4M3 ? ".e4m3" : dt == DT_E5M2 ? ".e5m2" : "";
    snprintf(out, cap, "%d.%s%s", i, p, sfx);
}

typedef struct member {
    char name[80];        /* with ".npy" */
    char head[512];
    size_t hlen;
    const void *data;
    size_t nbytes;
    uint32_t crc;
    uint32_t offset;
} member_t;

static value_t *save_weights_impl(call_t *c)
{
    value_t *ls = model_arg(c, "save_weights");
    const char *path = path_arg(c, 1, "save_weights", ".npz");
    span_t psp = op_arg_span(c, 1);
    int n = ls->u.list.n;
    member_t *m = mem_scratch(sizeof *m * (size_t)n * 2);
    int k = 0;
    crc_init();
    uint64_t off = 0;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < 2; j++) {
            value_t *w = scope_get_local(ls->u.list.items[i], j ? "b" : "W");
            if (!w || w->kind != V_TENSOR) continue;
            op_tracer.need_concrete(w, c->span, N_("the weights to write"));
            member_t *e = &m[k++];
            char nm[64];
            member_name(nm, sizeof nm, i, j ? "bias" : "kernel", (dtype_t)w->u.t.dtype);
            snprintf(e->name, sizeof e->name, "%s.npy", nm);
            e->hlen = npy_header(e->head, sizeof e->head, (dtype_t)w->u.t.dtype, w->u.t.ndim, w->u.t.shape);
            e->data = w->u.t.size ? tensor_data(w) : "";
            e->nbytes = tensor_nbytes(&w->u.t);
            e->crc = crc_update(crc_update(0, e->head, e->hlen), e->data, e->nbytes);
            e->offset = (uint32_t)off;
            off += 30 + strlen(e->name) + e->hlen + e->nbytes;
            if (off >= 0xFFFFFFFFu || e->hlen + e->nbytes >= 0xFFFFFFFFu)
                err_raise(ERR_VALUE, psp, "save_weights: the weights pass 4 GiB, past what a ZIP file without ZIP64 holds");
        }
    afile_t a;
    write_open(&a, "save_weights", path, psp);
    unsigned char lh[30];
    for (int i = 0; i < k; i++) {   /* local headers and data */
        member_t *e = &m[i];
        size_t nl = strlen(e->name);
        uint32_t size = (uint32_t)(e->hlen + e->nbytes);
        wr32(lh, 0x04034b50); wr16(lh + 4, 20); wr16(lh + 6, 0); wr16(lh + 8, 0);
        wr16(lh + 10, 0); wr16(lh + 12, 0x21);   /* 1980-01-01 00:00, the same bytes each time */
        wr32(lh + 14, e->crc); wr32(lh + 18, size); wr32(lh + 22, size);
        wr16(lh + 26, (uint32_t)nl); wr16(lh + 28, 0);
        afile_write(&a, lh, 30);
        afile_write(&a, e->name, nl);
        afile_write(&a, e->head, e->hlen);
        afile_write(&a, e->data, e->nbytes);
    }
    uint32_t cd_start = (uint32_t)off, cd_size = 0;
    unsigned char ch[46];
    for (int i = 0; i < k; i++) {   /* the central directory */
        member_t *e = &m[i];
        size_t nl = strlen(e->name);
        uint32_t size = (uint32_t)(e->hlen + e->nbytes);
        wr32(ch, 0x02014b50); wr16(ch + 4, 20); wr16(ch + 6, 20); wr16(ch + 8, 0); wr16(ch + 10, 0);
        wr16(ch + 12, 0); wr16(ch + 14, 0x21);
        wr32(ch + 16, e->crc); wr32(ch + 20, size); wr32(ch + 24, size);
        wr16(ch + 28, (uint32_t)nl); wr16(ch + 30, 0); wr16(ch + 32, 0); wr16(ch + 34, 0); wr16(ch + 36, 0);
        wr32(ch + 38, 0); wr32(ch + 42, e->offset);
        afile_write(&a, ch, 46);
        afile_write(&a, e->name, nl);
        cd_size += 46 + (uint32_t)nl;
    }
    unsigned char eo[22];
    wr32(eo, 0x06054b50); wr16(eo + 4, 0); wr16(eo + 6, 0); wr16(eo + 8, (uint32_t)k); wr16(eo + 10, (uint32_t)k);
    wr32(eo + 12, cd_size); wr32(eo + 16, cd_start); wr16(eo + 20, 0);
    afile_write(&a, eo, 22);
    mem_scratch_free(m);
    write_commit(&a, "save_weights", psp);
    return val_new(V_NONE);
}

/* One member of an archive that was read: its name (without .npy) and data */
typedef struct zmember {
    char name[80];
    const unsigned char *data;
    size_t n;
    bool used;
} zmember_t;

/* The stored members of the .npz image f (named path in messages) into
 * scratch memory; their count in *count */
static zmember_t *zip_members(const char *who, const char *path, rfile_t f, int *count, span_t sp)
{
    const unsigned char *b = f.p;
    size_t n = f.n;
    if (n < 22) err_raise(ERR_VALUE, sp, "%s: %s is not a .npz (ZIP) file: it is %zu bytes long, shorter than a ZIP's "
                          "end record", who, path, n);
    size_t eocd = SIZE_MAX;
    for (size_t i = n - 22 + 1; i-- > 0 && n - i <= 22 + 65535;)
        if (rd32(b + i) == 0x06054b50) { eocd = i; break; }
    if (eocd == SIZE_MAX)
        err_raise(ERR_VALUE, sp, "%s: %s is not a .npz (ZIP) file, or it is truncated: no end-of-central-directory record",
                  who, path);
    uint64_t entries = rd16(b + eocd + 10), cd_off = rd32(b + eocd + 16), cd_size = rd32(b + eocd + 12);
    if ((entries == 0xFFFF || cd_off == 0xFFFFFFFFu || cd_size == 0xFFFFFFFFu) && eocd >= 20 &&
        rd32(b + eocd - 20) == 0x07064b50) {   /* ZIP64 end record locator */
        uint64_t z = rd64(b + eocd - 20 + 8);
        if (z > n - 56 || rd32(b + z) != 0x06064b50)
            err_raise(ERR_VALUE, sp, "%s: %s: its ZIP64 end record is missing or corrupt", who, path);
        entries = rd64(b + z + 32);
        cd_size = rd64(b + z + 40);
        cd_off = rd64(b + z + 48);
    }
    if (cd_off > n || cd_size > n - cd_off)
        err_raise(ERR_VALUE, sp, "%s: %s is truncated or corrupt: its central directory lies past the end of the file", who, path);
    if (entries > 100000 || entries > cd_size / 46)
        err_raise(ERR_VALUE, sp, "%s: %s is corrupt: it claims %llu members in a %llu-byte directory", who, path,
                  (unsigned long long)entries, (unsigned long long)cd_size);
    zmember_t *m = mem_scratch(sizeof *m * (size_t)(entries ? entries : 1));
    size_t p = (size_t)cd_off, cd_end = (size_t)(cd_off + cd_size);
    crc_init();
    for (uint64_t i = 0; i < entries; i++) {
        if (cd_end - p < 46 || rd32(b + p) != 0x02014b50)
            err_raise(ERR_VALUE, sp, "%s: %s is corrupt: central directory entry %llu is damaged", who, path,
                      (unsigned long long)i + 1);
        unsigned flags = rd16(b + p + 8), method = rd16(b + p + 10);
        uint32_t crc = rd32(b + p + 16);
        uint64_t csize = rd32(b + p + 20), usize = rd32(b + p + 24), loff = rd32(b + p + 42);
        size_t nl = rd16(b + p + 28), xl = rd16(b + p + 30), cl = rd16(b + p + 32);
        if (cd_end - p - 46 < nl + xl + cl)
            err_raise(ERR_VALUE, sp, "%s: %s is corrupt: central directory entry %llu runs past the directory", who, path,
                      (unsigned long long)i + 1);
        const unsigned char *nm = b + p + 46, *x = nm + nl, *xe = x + xl;
        while (xe - x >= 4) {   /* the ZIP64 extra field: the 32-bit values that are all ones, in order */
            unsigned id = rd16(x), len = rd16(x + 2);
            if ((size_t)(xe - x - 4) < len) break;
            if (id == 1) {
                const unsigned char *q = x + 4, *qe = q + len;
                if (usize == 0xFFFFFFFFu && qe - q >= 8) { usize = rd64(q); q += 8; }
                if (csize == 0xFFFFFFFFu && qe - q >= 8) { csize = rd64(q); q += 8; }
                if (loff == 0xFFFFFFFFu && qe - q >= 8) { loff = rd64(q); q += 8; }
            }
            x += 4 + len;
        }
        zmember_t *e = &m[i];
        if (nl < 5 || nl - 4 >= sizeof e->name || memcmp(nm + nl - 4, ".npy", 4))
            err_raise(ERR_VALUE, sp, "%s: %s holds the member \"%.*s\", which is not NAME.npy (an .npz holds .npy arrays)",
                      who, path, (int)(nl < 60 ? nl : 60), (const char *)nm);
        memcpy(e->name, nm, nl - 4);
        e->name[nl - 4] = 0;
        if (memchr(e->name, 0, nl - 4)) err_raise(ERR_VALUE, sp, "%s: %s: a member's name holds a NUL byte", who, path);
        if (flags & 1) err_raise(ERR_VALUE, sp, "%s: %s: the member %s is encrypted", who, path, e->name);
        if (method == 8)
            err_raise(ERR_VALUE, sp, "%s: %s: the member %s is compressed (np.savez_compressed); nnpad reads np.savez "
                      "files, whose members are stored: np.savez(path, **dict(np.load(\"%s\")))", who, path, e->name, path);
        if (method != 0)
            err_raise(ERR_VALUE, sp, "%s: %s: the member %s uses ZIP method %u; nnpad reads stored members (method 0, "
                      "np.savez)", who, path, e->name, method);
        if (csize != usize)
            err_raise(ERR_VALUE, sp, "%s: %s is corrupt: the stored member %s has two sizes", who, path, e->name);
        if (loff > n || n - loff < 30 || rd32(b + loff) != 0x04034b50)
            err_raise(ERR_VALUE, sp, "%s: %s is truncated or corrupt: the member %s's local header is missing", who, path, e->name);
        uint64_t ds = loff + 30 + rd16(b + loff + 26) + rd16(b + loff + 28);
        if (ds > n || usize > n - ds)
            err_raise(ERR_VALUE, sp, "%s: %s is truncated: the member %s needs %llu bytes, the file ends first", who, path,
                      e->name, (unsigned long long)usize);
        e->data = b + ds;
        e->n = (size_t)usize;
        if (crc_update(0, e->data, e->n) != crc)
            err_raise(ERR_VALUE, sp, "%s: %s is corrupt: the member %s fails its CRC-32 check", who, path, e->name);
        p += 46 + nl + xl + cl;
    }
    *count = (int)entries;
    return m;
}

static value_t *load_weights_impl(call_t *c)
{
    value_t *ls = model_arg(c, "load_weights");
    const char *path = path_arg(c, 1, "load_weights", ".npz");
    span_t psp = op_arg_span(c, 1);
    rfile_t f = read_whole("load_weights", path, psp);
    int nm;
    zmember_t *m = zip_members("load_weights", path, f, &nm, psp);
    int n = ls->u.list.n;
    value_t *vals = list_new(2 * n);   /* W0, b0 (or none), W1, ... checked before any is set */
    for (int i = 0; i < n; i++) {
        value_t *l = ls->u.list.items[i];
        for (int j = 0; j < 2; j++) {
            value_t *w = scope_get_local(l, j ? "b" : "W");
            const char *pn = j ? "bias" : "kernel";
            char base[64];
            snprintf(base, sizeof base, "%d.%s", i, pn);
            size_t bl = strlen(base);
            zmember_t *e = NULL;
            int as = -1;
            for (int q = 0; q < nm && !e; q++) {
                if (strncmp(m[q].name, base, bl)) continue;
                const char *sfx = m[q].name + bl;
                if (!*sfx) e = &m[q];
                else if (!strcmp(sfx, ".bf16")) { e = &m[q]; as = DT_BF16; }
                else if (!strcmp(sfx, ".e4m3")) { e = &m[q]; as = DT_E4M3; }
                else if (!strcmp(sfx, ".e5m2")) { e = &m[q]; as = DT_E5M2; }
            }
            value_t *W = scope_get_local(l, "W");
            long long lin = W ? W->u.t.shape[0] : 0, lout = W && W->u.t.ndim > 1 ? W->u.t.shape[1] : 0;
            if (!w) {
                if (e) err_raise(ERR_VALUE, psp, "load_weights: %s holds %s, but layer %d (dense %lld -> %lld) has no bias "
                                 "(use_bias=0)", path, e->name, i, lin, lout);
                list_push_take(vals, val_new(V_NONE));
                continue;
            }
            if (!e && nm == 0) err_raise(ERR_VALUE, psp, "load_weights: %s holds no arrays (an empty archive)", path);
            if (!e) err_raise(ERR_VALUE, psp, "load_weights: %s has no array %s for layer %d (dense %lld -> %lld)", path,
                              base, i, lin, lout);
            e->used = true;
            char mname[200];
            snprintf(mname, sizeof mname, "%s[%s]", path, e->name);
            npy_t a;
            npy_parse("load_weights", mname, e->data, e->n, &a, psp);
            value_t *t = npy_tensor("load_weights", mname, &a, as, psp);
            if (!tensor_same_shape(t, w)) {
                char s1[160], s2[160];
                tensor_shape_str(s1, sizeof s1, t->u.t.ndim, t->u.t.shape);
                tensor_shape_str(s2, sizeof s2, w->u.t.ndim, w->u.t.shape);
                err_raise(ERR_SHAPE, psp, "load_weights: layer %d (dense %lld -> %lld) differs: %s in %s has shape %s, the "
                          "layer's %s has shape %s", i, lin, lout, e->name, path, s1, j ? "b" : "W", s2);
            }
            if (t->u.t.dtype == DT_INT64)
                err_raise(ERR_DTYPE, psp, "load_weights: %s in %s holds integers; weights are floats", e->name, path);
            list_push_take(vals, t);
        }
    }
    for (int q = 0; q < nm; q++)
        if (!m[q].used)
            err_raise(ERR_VALUE, psp, "load_weights: %s holds %s, which no layer of this model (%d dense layers, named "
                      "0.kernel, 0.bias, ... %d.bias) takes", path, m[q].name, n, n - 1);
    /* every array fits: set them (assign: the field's dtype, rounded once; undone if the statement fails) */
    for (int i = 0; i < n; i++)
        for (int j = 0; j < 2; j++) {
            value_t *v = vals->u.list.items[2 * i + j];
            if (v->kind != V_TENSOR) continue;
            value_t *fname = str_new(j ? "b" : "W", 1);
            value_t *args[3] = { ls->u.list.items[i], fname, v };
            value_t *r = op_runk(OP_assign, 3, args, 0, NULL, NULL, c->s);
            val_unref(r);
            val_unref(fname);
        }
    mem_scratch_free(m);
    mem_scratch_free(f.p);
    val_unref(vals);
    val_unref(ls);
    return val_new(V_NONE);
}

/* ---- the table ---- */

static const op_def_t op_family_npy[] = {
    {OP(load), OPK_FUNC, .impl = load_impl, .min_args = 1, .max_args = 1, .kwargs = "dtype",
     .gpu = N_("reads the file on the host; under :device gpu the tensor moves to the GPU"),
     .nograd = N_("reads a file"),
     .signature = "load(\"x.npy\", dtype=)",
     .summary = N_("a NumPy .npy file as a tensor (what np.save wrote, or save)"),
     .formula = N_("the array's values exactly, in C order: float16/32/64 become fp16/fp32/fp64, integers and booleans "
                   "int64; dtype=bf16, e4m3 or e5m2 reads the uint16/uint8 bit patterns that save writes for those "
                   "formats (plain load gives the bits as int64); another dtype= converts, rounded once as astype. "
                   "Versions 1.0-3.0, either byte order; Fortran order, structured and object arrays and truncated "
                   "files are errors that say so"),
     .shapes = N_("the file's shape (up to 8 axes)"),
     .dtypes = N_("the file's (f2 fp16, f4 fp32, f8 fp64, integers int64), or dtype="),
     .source = N_("numpy.load; the .npy format: numpy/lib/format.py (NEP 1)"),
     .example = "save([[1.5, -2], [0.25, 3]], \"a.npy\")\n"
                "load(\"a.npy\")\n"
                "#> [[ 1.5,   -2],\n"
                "#>  [0.25,    3]] (fp32)\n"
                "save(bf16([1, 0.1]), \"b.npy\")\n"
                "load(\"b.npy\")\n"
                "#> [16256, 15821] (int64)\n"
                "load(\"b.npy\", dtype=bf16)\n"
                "#> [1, 0.1001] (bf16)"},
    {OP(load_weights), OPK_FUNC, .impl = load_weights_impl, .min_args = 2, .max_args = 2, .flags = OPF_IMPURE, .gpu = "",
     .nograd = N_("sets a model's weights from a file"),
     .signature = "load_weights(model, \"w.npz\")",
     .summary = N_("set a layer's or model's weights from a .npz file (what save_weights or np.savez wrote)"),
     .formula = N_("the arrays are named as save_weights names them: \"0.kernel\", \"0.bias\", \"1.kernel\", ... "
                   "(suffix .bf16/.e4m3/.e5m2: bit patterns); every shape is checked before any weight changes, and "
                   "an error names the layer that differs with both shapes; a missing or extra array is an error; "
                   "values are rounded once to each weight's dtype"),
     .shapes = N_("each array the shape of its weight"),
     .dtypes = N_("each weight keeps its dtype"),
     .source = N_("keras.Model.load_weights; torch.nn.Module.load_state_dict; numpy.load"),
     .example = "seed(1)\n"
                "m = sequential(dense(2, 3), dense(3, 1))\n"
                "save_weights(m, \"w.npz\")\n"
                "m2 = sequential(dense(2, 3), dense(3, 1))\n"
                "load_weights(m2, \"w.npz\")\n"
                "m2.layers[1].W == m.layers[1].W\n"
                "#> [[1],\n"
                "#>  [1],\n"
                "#>  [1]] (fp32)"},
    {OP(save), OPK_FUNC, .impl = save_impl, .min_args = 2, .max_args = 2, .flags = OPF_IMPURE, .gpu = "",
     .nograd = N_("writes a file"),
     .signature = "save(x, \"x.npy\")",
     .summary = N_("write a tensor as a NumPy .npy file (numpy.load reads it)"),
     .formula = N_("the .npy format 1.0: the header {'descr', 'fortran_order': False, 'shape'} padded to 64 bytes, then "
                   "the elements in C order, little-endian; fp16, fp32, fp64 and int64 as '<f2', '<f4', '<f8', '<i8'; "
                   "bf16 as its bit patterns '<u2' and e4m3/e5m2 as '|u1' (NumPy has no such types: "
                   "load(path, dtype=bf16) reads them back exactly); written to a temporary file and renamed, so a "
                   "failed write leaves the old file"),
     .shapes = N_("x: any shape"),
     .dtypes = N_("x's (a number: int64 or fp64)"),
     .source = N_("numpy.save; the .npy format: numpy/lib/format.py (NEP 1)"),
     .example = "save(arange(3), \"r.npy\")\n"
                "load(\"r.npy\")\n"
                "#> [0, 1, 2] (int64)"},
    {OP(save_weights), OPK_FUNC, .impl = save_weights_impl, .min_args = 2, .max_args = 2, .flags = OPF_IMPURE, .gpu = "",
     .nograd = N_("writes a file"),
     .signature = "save_weights(model, \"w.npz\")",
     .summary = N_("write a layer's or model's weights as a NumPy .npz file, one array per weight"),
     .formula = N_("the dense layers in order (nested sequentials flattened) numbered from 0, each as \"N.kernel\" "
                   "(in, out), Keras's layout, and \"N.bias\" (out,): np.load(\"w.npz\")[\"0.kernel\"]; PyTorch's "
                   "nn.Sequential names them \"0.weight\" (out, in), the kernel transposed, and \"0.bias\". A bf16 "
                   "weight is \"N.kernel.bf16\" (uint16 bits), an fp8 one \"N.kernel.e4m3\" or \"N.kernel.e5m2\" "
                   "(uint8 bits), exact through load_weights. A ZIP with stored members, as np.savez writes, written "
                   "to a temporary file and renamed"),
     .shapes = N_("-> one array per weight"),
     .dtypes = N_("each weight's"),
     .source = N_("numpy.savez; keras.Model.save_weights; torch.nn.Module.state_dict; ZIP: PKWARE APPNOTE.TXT"),
     .example = "seed(0)\n"
                "l = dense(2, 1)\n"
                "save_weights(l, \"l.npz\")\n"
                "l.b = [5]\n"
                "load_weights(l, \"l.npz\")\n"
                "l.b\n"
                "#> [0] (fp32)"},
    {NULL},
};
OP_FAMILY_REGISTER(op_family_npy)
