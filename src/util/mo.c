/* mo.c — GNU .mo catalogues read without libintl (mo.h). */
#include "util/mo.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MO_MAGIC 0x950412deu
#define MO_MAX (64u << 20)   /* a catalogue larger than this is not one */

struct mo {
    unsigned char *data;
    size_t n;
    uint32_t count, orig, trans;   /* N, O, T of the header */
    int swap;                      /* written in the other byte order */
    int nplurals;
};

static uint32_t word(const unsigned char *d, uint64_t at, int swap)
{
    uint32_t w;
    memcpy(&w, d + at, 4);
    return swap ? __builtin_bswap32(w) : w;
}

/* String I of the table at TAB: its offset, or -1 when it does not lie
 * within the data with its terminating NUL (length LEN, without it). */
static int64_t string_at(const struct mo *m, uint32_t tab, uint32_t i, uint32_t *len)
{
    uint64_t at = (uint64_t)tab + 8 * (uint64_t)i;
    uint32_t l = word(m->data, at, m->swap), off = word(m->data, at + 4, m->swap);
    if ((uint64_t)off + l >= m->n || m->data[(uint64_t)off + l] != '\0') return -1;
    if (len) *len = l;
    return off;
}

static int header_nplurals(const struct mo *m)
{
    if (m->count == 0) return 0;
    uint32_t l;
    int64_t o = string_at(m, m->orig, 0, &l);
    if (o < 0 || l != 0) return 0;                    /* "" sorts first */
    int64_t t = string_at(m, m->trans, 0, NULL);
    const char *p = t < 0 ? NULL : strstr((const char *)m->data + t, "Plural-Forms:");
    p = p ? strstr(p, "nplurals=") : NULL;
    if (!p) return 0;
    int k = atoi(p + 9);
    return k > 0 && k < 100 ? k : 0;
}

mo_t *mo_new(const void *data, size_t n)
{
    if (n < 28 || n > MO_MAX) return NULL;
    struct mo *m = calloc(1, sizeof *m);
    if (!m || !(m->data = malloc(n))) {
        free(m);
        return NULL;
    }
    memcpy(m->data, data, n);
    m->n = n;
    uint32_t magic = word(m->data, 0, 0);
    m->swap = magic != MO_MAGIC;
    if (m->swap && magic != __builtin_bswap32(MO_MAGIC)) goto bad;
    /* revision 0, or 1 (system-dependent strings, in a segment of their own) */
    if (word(m->data, 4, m->swap) >> 16 > 1) goto bad;
    m->count = word(m->data, 8, m->swap);
    m->orig = word(m->data, 12, m->swap);
    m->trans = word(m->data, 16, m->swap);
    if ((uint64_t)m->orig + 8 * (uint64_t)m->count > n || (uint64_t)m->trans + 8 * (uint64_t)m->count > n) goto bad;
    /* every string within the data, the originals in strictly rising order */
    for (uint32_t i = 0; i < m->count; i++) {
        int64_t o = string_at(m, m->orig, i, NULL);
        if (o < 0 || string_at(m, m->trans, i, NULL) < 0) goto bad;
        if (i > 0) {
            int64_t prev = string_at(m, m->orig, i - 1, NULL);
            if (strcmp((const char *)m->data + prev, (const char *)m->data + o) >= 0) goto bad;
        }
    }
    m->nplurals = header_nplurals(m);
    return m;
bad:
    mo_free(m);
    return NULL;
}

mo_t *mo_load(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    size_t cap = 1 << 16, n = 0;
    unsigned char *buf = malloc(cap);
    while (buf) {
        size_t k = fread(buf + n, 1, cap - n, f);
        n += k;
        if (k == 0 || n > MO_MAX) break;
        if (n == cap) {
            unsigned char *b = realloc(buf, cap * 2);
            if (!b) { free(buf); buf = NULL; break; }
            buf = b;
            cap *= 2;
        }
    }
    int err = ferror(f);
    fclose(f);
    mo_t *m = buf && !err ? mo_new(buf, n) : NULL;
    free(buf);
    return m;
}

void mo_free(mo_t *m)
{
    if (!m) return;
    free(m->data);
    free(m);
}

const char *mo_find(const mo_t *m, const char *msgid)
{
    if (!m || !msgid || !*msgid) return NULL;
    uint32_t lo = 0, hi = m->count;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        /* (mo_new checked each string: no check is needed here) */
        const char *o = (const char *)m->data + word(m->data, (uint64_t)m->orig + 8 * (uint64_t)mid + 4, m->swap);
        int c = strcmp(msgid, o);
        if (c == 0) {
            uint64_t at = (uint64_t)m->trans + 8 * (uint64_t)mid;
            uint32_t len = word(m->data, at, m->swap);
            const char *t = (const char *)m->data + word(m->data, at + 4, m->swap);
            return len && *t ? t : NULL;
        }
        if (c < 0) hi = mid;
        else lo = mid + 1;
    }
    return NULL;
}

int mo_nplurals(const mo_t *m) { return m ? m->nplurals : 0; }
