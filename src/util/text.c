/* text.c — small text helpers (see text.h). */
#include "util/text.h"
#include <ctype.h>
#include <stdbool.h>
#include <string.h>

int text_edit_distance(const char *a, size_t la, const char *b, size_t lb)
{
    if (la > 63) la = 63;
    if (lb > 63) lb = 63;
    int prev[64], cur[64];
    for (size_t j = 0; j <= lb; j++) prev[j] = (int)j;
    for (size_t i = 1; i <= la; i++) {
        cur[0] = (int)i;
        for (size_t j = 1; j <= lb; j++) {
            int sub = prev[j - 1] + (tolower((unsigned char)a[i - 1]) != b[j - 1]);
            int del = prev[j] + 1, ins = cur[j - 1] + 1;
            cur[j] = sub < del ? (sub < ins ? sub : ins) : (del < ins ? del : ins);
        }
        memcpy(prev, cur, sizeof(int) * (lb + 1));
    }
    return prev[lb];
}

int text_command_of(const char *text, size_t len, const char *const *names, int n)
{
    const char *p = text, *end = text + len;
    while (p < end && (*p == ' ' || *p == '\t')) p++;
    if (p == end || *p != ':') return -1;
    p++;
    size_t w = 0;
    while (p + w < end && p[w] && p[w] != ' ' && p[w] != '\t' && p[w] != '\n') w++;
    for (int k = 0; k < n; k++)
        if (strlen(names[k]) == w && !strncmp(p, names[k], w)) return k;
    return -1;
}

size_t text_percent_encode(const char *s, size_t n, char *out, size_t cap)
{
    static const char hex[] = "0123456789ABCDEF";
    size_t k = 0, w = 0;   /* the whole length; the bytes written */
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        bool keep = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')
                    || (c && strchr("-_.!~*'()", c));
        char e[3] = { (char)c, hex[c >> 4], hex[c & 15] };
        size_t m = keep ? 1 : 3;
        if (!keep) e[0] = '%';
        if (w == k && k + m < cap) { memcpy(out + w, e, m); w += m; }
        k += m;
    }
    if (cap) out[w] = '\0';
    return k;
}
