/* bigdec.c — a number literal rounded once from its exact value, by
 * big-integer arithmetic on its digits (the exact rational compared with
 * the midpoint between its two neighbours in the format: Clinger, "How to
 * read floating point numbers accurately", PLDI 1990, AlgorithmM's exact
 * comparison).  Pure integer code: the same bits natively and in the web
 * build, which has no MPFR.
 *
 * The text's value is D * 10^e10 (decimal) or D * 2^e2 (hex), D an
 * integer; with 10^f = 5^f 2^f it is A/B * 2^g, A and B integers (one of
 * them a power of five).  Its binary exponent k (2^k <= value < 2^(k+1)) is
 * found exactly from the bit lengths of A and B and one comparison; the
 * quantum is 2^q, q = max(k, emin) - p + 1 (subnormals share emin's); then
 * N = floor(value / 2^q) < 2^p and the remainder R, and 2R against the
 * divisor decides the rounding (R = 0 exact, 2R = B' a tie: to even).
 *
 * Long texts are shortened first without changing how they round: the
 * first 800 significant digits (decimal or hex), then a sticky 1
 * when any later digit is nonzero.  Every value of the formats here, every
 * midpoint between two of them and the overflow threshold is m * 2^e with
 * m < 2^54 and e >= -1075, whose decimal expansion ends within 768
 * significant digits (5^1075 has 752), and whose hex within 15: the text
 * and its short form lie strictly between the same two such numbers, so
 * they round alike.  Beyond the range where a value can round to anything
 * but inf or 0, the result is settled from the exponent alone. */
#include "util/bigdec.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

#define BIG_LIMBS 1100            /* 35,200 bits: the largest product below is about 20,300 */
typedef struct {
    int n;                        /* limbs in use; d[n-1] != 0, or n == 0 for zero */
    uint32_t d[BIG_LIMBS];
} big_t;

static void big_set(big_t *a, uint64_t v)
{
    a->n = 0;
    while (v) { a->d[a->n++] = (uint32_t)v; v >>= 32; }
}

static bool big_muladd(big_t *a, uint32_t m, uint32_t add)
{
    uint64_t c = add;
    for (int i = 0; i < a->n; i++) {
        c += (uint64_t)a->d[i] * m;
        a->d[i] = (uint32_t)c;
        c >>= 32;
    }
    if (c) {
        if (a->n == BIG_LIMBS) return false;
        a->d[a->n++] = (uint32_t)c;
    }
    return true;
}

static bool big_mulpow5(big_t *a, long k)
{
    for (; k >= 13; k -= 13)
        if (!big_muladd(a, 1220703125u, 0)) return false;   /* 5^13 */
    uint32_t m = 1;
    for (; k > 0; k--) m *= 5;
    return big_muladd(a, m, 0);
}

static long big_bits(const big_t *a)
{
    if (!a->n) return 0;
    long b = 32L * (a->n - 1);
    for (uint32_t top = a->d[a->n - 1]; top; top >>= 1) b++;
    return b;
}

/* dst = src << s (s >= 0); dst may be src */
static bool big_shl(big_t *dst, const big_t *src, long s)
{
    if (!src->n) { dst->n = 0; return true; }
    long w = s / 32;
    int b = (int)(s % 32);
    int n = src->n + (int)w + 1;
    if (n > BIG_LIMBS) return false;
    for (int i = src->n; i >= 0; i--) {
        uint64_t hi = i < src->n ? src->d[i] : 0, lo = i > 0 ? src->d[i - 1] : 0;
        dst->d[i + w] = (uint32_t)(((hi << 32 | lo) << b) >> 32);
    }
    for (long i = 0; i < w; i++) dst->d[i] = 0;
    dst->n = n;
    while (dst->n && !dst->d[dst->n - 1]) dst->n--;
    return true;
}

static int big_cmp(const big_t *a, const big_t *b)
{
    if (a->n != b->n) return a->n > b->n ? 1 : -1;
    for (int i = a->n - 1; i >= 0; i--)
        if (a->d[i] != b->d[i]) return a->d[i] > b->d[i] ? 1 : -1;
    return 0;
}

/* a -= b, a >= b */
static void big_sub(big_t *a, const big_t *b)
{
    int64_t c = 0;
    for (int i = 0; i < a->n; i++) {
        c += (int64_t)a->d[i] - (i < b->n ? b->d[i] : 0);
        a->d[i] = (uint32_t)c;
        c = c < 0 ? -1 : 0;
    }
    while (a->n && !a->d[a->n - 1]) a->n--;
}

/* a += b */
static bool big_add(big_t *a, const big_t *b)
{
    uint64_t c = 0;
    int n = a->n > b->n ? a->n : b->n;
    for (int i = 0; i < n; i++) {
        c += (uint64_t)(i < a->n ? a->d[i] : 0) + (i < b->n ? b->d[i] : 0);
        a->d[i] = (uint32_t)c;
        c >>= 32;
    }
    a->n = n;
    if (c) {
        if (n == BIG_LIMBS) return false;
        a->d[a->n++] = (uint32_t)c;
    }
    return true;
}

/* a's value to about 64 bits: a ~ *r 2^(32 lo) */
static double big_approx(const big_t *a, int *lo)
{
    double r = 0;
    int i = a->n - 1, k = 0;
    for (; i >= 0 && k < 3; i--, k++) r = r * 0x1p32 + a->d[i];
    *lo = i + 1;
    return r;
}

/* compare a with b 2^(32 w) */
static int big_cmp_at(const big_t *a, const big_t *b, int w)
{
    if (!b->n) return a->n ? 1 : 0;
    if (a->n != b->n + w) return a->n > b->n + w ? 1 : -1;
    for (int i = a->n - 1; i >= 0; i--) {
        uint32_t bd = i >= w ? b->d[i - w] : 0;
        if (a->d[i] != bd) return a->d[i] > bd ? 1 : -1;
    }
    return 0;
}

/* a -= m b 2^(32 w), the result >= 0 */
static void big_submul_at(big_t *a, const big_t *b, uint32_t m, int w)
{
    uint64_t carry = 0;               /* what m b still owes the next limb */
    int64_t borrow = 0;
    for (int i = 0; i + w < a->n; i++) {
        uint64_t p = (i < b->n ? (uint64_t)b->d[i] * m : 0) + carry;
        carry = p >> 32;
        int64_t t = (int64_t)a->d[i + w] - (int64_t)(uint32_t)p + borrow;
        a->d[i + w] = (uint32_t)t;
        borrow = t < 0 ? -1 : 0;
    }
    while (a->n && !a->d[a->n - 1]) a->n--;
}

/* floor(a / b) when it is below 2^bits (bits <= 64); a becomes the
 * remainder.  Schoolbook division in base 2^32: each digit estimated from
 * the leading 96 bits (in a double: off by less than 1), taken 2 lower and
 * corrected upward exactly. */
static bool big_divq(big_t *a, const big_t *b, int bits, uint64_t *q)
{
    *q = 0;
    if (!b->n) return false;
    int lb;
    double db = big_approx(b, &lb);
    for (int w = (bits - 1) / 32; w >= 0; w--) {
        uint64_t digit = 0;
        if (big_cmp_at(a, b, w) >= 0) {
            int la;
            double da = big_approx(a, &la);
            double est = ldexp(da / db, 32 * (la - lb - w));
            digit = est > 2 ? (uint64_t)est - 2 : 0;
            if (digit > 0xffffffffu) digit = 0xffffffffu;
            if (digit) big_submul_at(a, b, (uint32_t)digit, w);
            while (big_cmp_at(a, b, w) >= 0) { big_submul_at(a, b, 1, w); digit++; }
        }
        if (digit >> 32) return false;   /* not below 2^bits: a broken caller */
        *q |= digit << (32 * w);
    }
    return bits == 64 || !(*q >> bits);
}

/* ---- the text ---- */

#define KEEP 800
#define KEEP_MINUS 4000   /* bits(x): the difference measured to 4,000 significant digits (BIG_LIMBS) */
#define EXP_CAP 1000000000000000LL   /* a bigger exponent gives inf or 0 anyway */

typedef struct {
    bool neg, hex;
    long long e;                  /* value = D * 10^e (decimal) or D * 2^e (hex) */
    long nd;                      /* significant digits kept in D (with the sticky one) */
    big_t D;
} num_t;

static int digit_of(char c, bool hex)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (hex && (c | 0x20) >= 'a' && (c | 0x20) <= 'f') return (c | 0x20) - 'a' + 10;
    return -1;
}

static bool parse(const char *t, size_t len, num_t *x, long keep)
{
    size_t i = 0;
    x->neg = len > 0 && t[0] == '-';
    if (len > 0 && (t[0] == '-' || t[0] == '+')) i++;
    x->hex = i + 1 < len && t[i] == '0' && (t[i + 1] == 'x' || t[i + 1] == 'X');
    if (x->hex) i += 2;
    uint32_t base = x->hex ? 16 : 10;
    int step = x->hex ? 4 : 1;    /* the exponent's units per digit */
    big_set(&x->D, 0);
    x->e = 0;
    x->nd = 0;
    bool digits = false, point = false, sticky = false;
    uint32_t chunk = 0, scale = 1;   /* digits not yet in D: D = D * scale + chunk */
    for (; i < len; i++) {
        char c = t[i];
        if (c == '.' && !point) { point = true; continue; }
        int d = digit_of(c, x->hex);
        if (d < 0) break;
        digits = true;
        if (x->nd == 0 && d == 0) { if (point) x->e -= step; continue; }   /* leading zeros */
        if (x->nd < keep) {
            chunk = chunk * base + (uint32_t)d;
            scale *= base;
            x->nd++;
            if (point) x->e -= step;
            if (scale >= 100000000u) {
                if (!big_muladd(&x->D, scale, chunk)) return false;
                chunk = 0, scale = 1;
            }
        } else {
            if (d) sticky = true;
            if (!point) x->e += step;
        }
    }
    if (!digits) return false;
    if (sticky) {   /* a 1 after the kept digits: below any further digit of the format's values */
        chunk = chunk * base + 1;
        scale *= base;
        x->nd++;
        x->e -= step;
    }
    if (!big_muladd(&x->D, scale, chunk)) return false;
    if (i < len && (t[i] == (x->hex ? 'p' : 'e') || t[i] == (x->hex ? 'P' : 'E'))) {
        i++;
        bool eneg = i < len && t[i] == '-';
        if (i < len && (t[i] == '-' || t[i] == '+')) i++;
        long long ex = 0;
        size_t from = i;
        for (; i < len && t[i] >= '0' && t[i] <= '9'; i++)
            if (ex < EXP_CAP) ex = ex * 10 + (t[i] - '0');
        if (i == from) return false;
        x->e += eneg ? -ex : ex;
    }
    return i == len;
}

/* Where the value lies: +1 at or beyond 2^hi_bits, -1 below 2^lo_bits (both
 * judged from the exponent alone, with margin), 0 in between */
static int out_of_range(const num_t *x, long lo_bits, long hi_bits)
{
    if (x->hex) {   /* value in [2^(bits-1+e), 2^(bits+e)) */
        long long b = big_bits(&x->D) + x->e;
        return b - 1 >= hi_bits ? 1 : b < lo_bits ? -1 : 0;
    }
    /* value in [10^(nd-1+e), 10^(nd+e)); 10^n >= 2^(3.32 n) */
    long long top = x->nd + x->e;
    if (top - 1 > 0 && (top - 1) * 3 >= hi_bits) return 1;
    if (top < 0 && -top * 3 >= -lo_bits) return -1;
    return 0;
}

/* value = A/B * 2^g, A and B integers */
static bool rational(const num_t *x, big_t *A, big_t *B, long *g)
{
    *A = x->D;
    big_set(B, 1);
    *g = (long)x->e;
    if (x->hex || x->e == 0) return true;
    return x->e > 0 ? big_mulpow5(A, (long)x->e) : big_mulpow5(B, (long)-x->e);
}

/* the numbers, kept off the stack (about 4 KiB each): not reentrant, as
 * literals are read by the one thread that parses */
static struct { num_t x; big_t A, B, T, U; } w;

bool bigdec_round(const char *text, size_t len, int p, int emin, int emax, double *out, int *ternary)
{
    num_t *x = &w.x;
    if (!parse(text, len, x, KEEP)) return false;
    double r;
    int tern;
    int range = out_of_range(x, -1200, 1100);
    if (!x->D.n) {
        r = 0, tern = 0;
    } else if (range > 0) {
        r = INFINITY, tern = 1;
    } else if (range < 0) {
        r = 0, tern = -1;
    } else {
        long g;
        if (!rational(x, &w.A, &w.B, &g)) return false;
        /* the exponent k: A/B is in [2^(da-db-1), 2^(da-db+1)) */
        long da = big_bits(&w.A), db = big_bits(&w.B);
        bool ok = da >= db ? big_shl(&w.T, &w.B, da - db) : big_shl(&w.T, &w.A, db - da);
        if (!ok) return false;
        bool below = da >= db ? big_cmp(&w.A, &w.T) < 0 : big_cmp(&w.T, &w.B) < 0;
        long k = g + da - db - (below ? 1 : 0);
        long q = (k > emin ? k : emin) - p + 1;
        long s = g - q;           /* value / 2^q = A 2^s / B */
        if (s > 0 && !big_shl(&w.A, &w.A, s)) return false;
        if (s < 0 && !big_shl(&w.B, &w.B, -s)) return false;
        uint64_t N;
        if (!big_divq(&w.A, &w.B, p, &N)) return false;   /* A: the remainder */
        int half = 0;             /* the sign of remainder - divisor/2 */
        if (w.A.n) {
            if (!big_shl(&w.A, &w.A, 1)) return false;
            half = big_cmp(&w.A, &w.B);
        } else {
            half = -2;            /* exact */
        }
        if (half > 0 || (half == 0 && (N & 1))) N++, tern = 1;
        else tern = half == -2 ? 0 : -1;
        long top = N ? 63 - __builtin_clzll(N) + q : 0;   /* the result's exponent */
        if (top > emax) r = INFINITY, tern = 1;
        else r = ldexp((double)N, (int)q);
    }
    *out = x->neg ? -r : r;
    *ternary = x->neg ? -tern : tern;
    return true;
}

bool bigdec_minus(const char *text, size_t len, double v, int *sign, long double *diff)
{
    num_t *x = &w.x;
    /* the distance needs the digits themselves, not only the side the
     * rounding needs (1.000...0001 with 5000 zeros is 1e-5001 from 1):
     * up to KEEP_MINUS of them; a longer text is not measured (false) */
    if (!parse(text, len, x, KEEP_MINUS) || x->nd > KEEP_MINUS) return false;   /* (more digits: not measured) */
    int sx = !x->D.n ? 0 : x->neg ? -1 : 1, sv = v > 0 ? 1 : v < 0 ? -1 : 0;
    /* long double's range (x87's and binary128's) is within 2^+-16500 */
    int range = out_of_range(x, -16600, 16400);
    if (isinf(v) || !sx || (range < 0 && sv)) {   /* exact - v is -v */
        *sign = -sv;
        *diff = -(long double)v;
        return true;
    }
    if (range) {   /* |exact| beyond long double's range (v is finite), or below it with v = 0 */
        *sign = sx;
        *diff = range > 0 ? sx * (long double)INFINITY : sx * 0.0L;
        return true;
    }
    long g;
    if (!rational(x, &w.A, &w.B, &g)) return false;
    /* v = M 2^h; exact - v = (sx A 2^(g-m) - sv M B 2^(h-m)) / B * 2^m, m = min(g, h) */
    int h;
    double fr = frexp(fabs(v), &h);
    uint64_t M = (uint64_t)ldexp(fr, 53);
    h -= 53;
    long m = g < h ? g : h;
    if (!big_shl(&w.A, &w.A, g - m)) return false;
    w.U = w.B;                    /* U = M B 2^(h-m), M = Mhi 2^32 + Mlo */
    if (!big_muladd(&w.U, (uint32_t)(M >> 32), 0) || !big_shl(&w.U, &w.U, 32)) return false;
    w.T = w.B;
    if (!big_muladd(&w.T, (uint32_t)M, 0) || !big_add(&w.U, &w.T) || !big_shl(&w.U, &w.U, h - m)) return false;
    int s = sx;                   /* the sign of exact - v; A becomes its magnitude */
    if (!sv) {
    } else if (sx != sv) {
        if (!big_add(&w.A, &w.U)) return false;
    } else {
        int c = big_cmp(&w.A, &w.U);
        if (!c) { *sign = 0; *diff = 0.0L; return true; }
        if (c > 0) big_sub(&w.A, &w.U);
        else { big_sub(&w.U, &w.A); w.A = w.U; s = -sx; }
    }
    /* |exact - v| = A / B * 2^m, to 64 bits: Q = floor(A 2^(63-t) / B) in [2^62, 2^64) */
    long t = big_bits(&w.A) - big_bits(&w.B);
    if (t < 63 && !big_shl(&w.A, &w.A, 63 - t)) return false;
    if (t > 63 && !big_shl(&w.B, &w.B, t - 63)) return false;
    uint64_t Q;
    if (!big_divq(&w.A, &w.B, 64, &Q)) return false;
    *sign = s;
    *diff = s * ldexpl((long double)Q, (int)(m + t - 63));
    return true;
}
