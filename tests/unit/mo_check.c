/* mo_check.c — util/mo.c, the web build's reader of .mo catalogues, against
 * Python's gettext module (tests/mo-reader.sh writes what GNUTranslations
 * reads from the same file):  mo_check FILE.mo EXPECTED
 * EXPECTED: NUL-separated msgid, translation pairs (of a plural entry its
 * singular and msgstr[0]).  Then the file truncated at many lengths (each
 * refused: its last string loses its NUL), byte-swapped (the same answers),
 * and with header words and random bytes overwritten (refused, or answers
 * that are NUL-terminated strings: no read outside the data). TAP. */
#include "util/mo.h"
#include "tap.h"

#include <stdint.h>

static unsigned char *slurp(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    size_t cap = 1 << 20;
    unsigned char *b = malloc(cap);
    *n = 0;
    size_t k;
    while (b && (k = fread(b + *n, 1, cap - *n, f)) > 0)
        if ((*n += k) == cap) b = realloc(b, cap *= 2);
    fclose(f);
    return b;
}

static uint32_t rd(const unsigned char *d, size_t at) { uint32_t w; memcpy(&w, d + at, 4); return w; }
static void wr(unsigned char *d, size_t at, uint32_t w) { memcpy(d + at, &w, 4); }
static void swap_word(unsigned char *d, size_t at) { wr(d, at, __builtin_bswap32(rd(d, at))); }

/* how many of the NQ expected pairs M answers otherwise (and the first, in WHY) */
static int mismatches(const mo_t *m, char **q, int nq, char *why, size_t cap)
{
    int bad = 0;
    for (int i = 0; i < nq; i += 2) {
        const char *t = mo_find(m, q[i]);
        if (!t || strcmp(t, q[i + 1]) != 0) {
            if (!bad++) snprintf(why, cap, "\"%.60s\": got \"%.60s\"", q[i], t ? t : "(none)");
        }
    }
    return bad;
}

/* the lengths to cut at: each up to 4096, 600 steps, each of the last 64 */
static size_t next_length(size_t l, size_t n)
{
    if (l < 4096 || l + 64 >= n) return l + 1;
    return l + n / 600 + 64 < n ? l + n / 600 : n - 64;
}

int main(int argc, char **argv)
{
    if (argc != 3) tap_bail("usage: mo_check FILE.mo EXPECTED");
    size_t n, nx;
    unsigned char *mo = slurp(argv[1], &n), *x = slurp(argv[2], &nx);
    if (!mo || !x) tap_bail("cannot read %s or %s", argv[1], argv[2]);
    x = realloc(x, nx + 1);
    x[nx] = 0;
    int nq = 0;
    char **q = malloc(sizeof *q * (nx + 2));
    for (size_t at = 0; at < nx; at += strlen((char *)x + at) + 1) q[nq++] = (char *)x + at;
    if (nq % 2 || nq < 200) tap_bail("%s: %d strings, not pairs of a whole catalogue", argv[2], nq);
    char why[256] = "";

    mo_t *m = mo_load(argv[1]);
    tap_ok(m != NULL, "%s is read (%zu bytes)", argv[1], n);
    if (!m) return tap_done();
    tap_ok(mo_nplurals(m) == 1, "its header says nplurals=1 (got %d)", mo_nplurals(m));
    int bad = mismatches(m, q, nq, why, sizeof why);
    tap_ok(bad == 0, "each of its %d messages is Python's gettext's translation (%d differ; %s)", nq / 2, bad, why);
    static const char *const absent[] = { "", "no such message in nnpad", " ", "\x01", "\xff\xff", NULL };
    int found = 0;
    for (int i = 0; absent[i]; i++) found += mo_find(m, absent[i]) != NULL;
    for (int i = 0; i < nq; i += 2) {   /* a msgid cut short, or longer by one: no entry (unless one exists) */
        char buf[4096];
        size_t l = strlen(q[i]);
        if (l < 2 || l + 2 > sizeof buf) continue;
        snprintf(buf, sizeof buf, "%s~", q[i]);
        found += mo_find(m, buf) != NULL;
    }
    tap_ok(found == 0 && !mo_find(NULL, "x"), "messages it lacks have none (%d found)", found);
    mo_free(m);

    /* truncated: at every length up to 4096, then 600 more, and the last 64 */
    int kept = 0, tried = 0;
    for (size_t l = 0; l < n; l = next_length(l, n)) {
        mo_t *t = mo_new(mo, l);
        tried++;
        if (t) { kept++; if (kept == 1) snprintf(why, sizeof why, "kept at %zu bytes", l); }
        mo_free(t);
    }
    tap_ok(kept == 0, "truncated at %d lengths: each refused (%d kept; %s)", tried, kept, kept ? why : "");

    /* the other byte order: header words and both tables swapped */
    unsigned char *sw = malloc(n);
    memcpy(sw, mo, n);
    uint32_t cnt = rd(mo, 8), o = rd(mo, 12), t = rd(mo, 16);
    for (size_t i = 0; i < 28; i += 4) swap_word(sw, i);
    for (uint32_t i = 0; i < 2 * cnt; i++) { swap_word(sw, o + 4 * i); swap_word(sw, t + 4 * i); }
    m = mo_new(sw, n);
    bad = m ? mismatches(m, q, nq, why, sizeof why) : -1;
    tap_ok(bad == 0, "written in the other byte order: the same answers (%d differ)", bad);
    mo_free(m);

    /* corrupt: each header word set to values that break it (refused), then
     * random bytes of the tables overwritten (refused, or NUL-terminated answers) */
    static const uint32_t vals[] = { 0, 1, 0x7fffffffu, 0xffffffffu, 0xfffffff8u };
    int taken = 0;
    for (int w = 0; w < 5; w++)
        for (int v = 0; v < 5; v++) {
            memcpy(sw, mo, n);
            if (w == 1 && v < 2) continue;   /* revision 0 and 1 are valid */
            if (w == 2 && v == 0) continue;  /* N = 0: an empty catalogue is valid */
            if (w == 2 && v == 1) continue;  /* N = 1: the header entry alone is valid */
            wr(sw, 4 * w, vals[v] + (w >= 3 && v == 1 ? (uint32_t)n : 0));
            m = mo_new(sw, n);
            taken += m != NULL;
            mo_free(m);
        }
    tap_ok(taken == 0, "a bad magic, revision, N, O or T: refused (%d taken)", taken);
    /* two originals swapped (with their translations): out of order, so a
     * binary search would miss them; or one the same as the next */
    memcpy(sw, mo, n);
    uint32_t a = o + 8 * (cnt / 2), b = a + 8, ta = t + 8 * (cnt / 2), tb = ta + 8;
    for (int i = 0; i < 8; i += 4) {
        uint32_t w = rd(sw, a + i); wr(sw, a + i, rd(sw, b + i)); wr(sw, b + i, w);
        w = rd(sw, ta + i); wr(sw, ta + i, rd(sw, tb + i)); wr(sw, tb + i, w);
    }
    m = mo_new(sw, n);
    taken = m != NULL;
    mo_free(m);
    memcpy(sw, mo, n);
    memcpy(sw + b, sw + a, 8);
    m = mo_new(sw, n);
    taken += m != NULL;
    mo_free(m);
    tap_ok(taken == 0, "originals out of order, or one twice: refused (%d taken)", taken);
    srand(31);
    int refused = 0, answered = 0;
    for (int k = 0; k < 2000; k++) {
        memcpy(sw, mo, n);
        /* the header and tables (msgfmt writes them first), or the strings after them */
        size_t span = 28 + 16 * (size_t)cnt, from = k % 2 ? span : 0, to = k % 2 ? n : span;
        for (int j = 0; j < 4; j++) sw[from + (size_t)rand() % (to - from)] = (unsigned char)rand();
        m = mo_new(sw, n);
        if (!m) { refused++; continue; }
        for (int i = 0; i < nq; i += 2 * 97) {
            const char *a = mo_find(m, q[i]);
            if (a) answered += strlen(a) < n;
        }
        mo_free(m);
    }
    tap_ok(1, "2000 catalogues with 4 random bytes of their tables or strings overwritten: no crash (%d refused, %d answers)", refused, answered);
    free(sw);
    free(mo);
    free(q);
    free(x);
    return tap_done();
}
