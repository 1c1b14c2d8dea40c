/* csv.h — the one reader of the tests' reference tables (the CSV files of tests/refdata,
 * tests/unit/kernels_ulp.csv): comma-separated, a header row naming the
 * columns, blank lines skipped.  A field may be quoted as Python's csv
 * module writes it (QUOTE_MINIMAL: "a, b" and "" for a quote inside); see
 * tests/refdata/README.md.  Columns are looked up by name; a name the
 * header lacks is a broken test and bails out.
 *
 *   csv_t c; row_t r;
 *   csv_open(&c, dir, "file.csv")     1, or 0 when it cannot be read
 *   while (csv_next(&c, &r)) ... col(&c, &r, "x") ...
 *   csv_close(&c);
 *
 * A row's fields live until the next csv_next or csv_close.  Needs tap.h
 * (for tap_bail) included first. */
#ifndef NN_TEST_CSV_H
#define NN_TEST_CSV_H
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#define CSV_MAXF 32
typedef struct row { char *f[CSV_MAXF]; int n; } row_t;
typedef struct csv {
    char *hdr[CSV_MAXF]; int nh;
    FILE *fp;
    char path[1024];
    char *line, *hline; size_t cap, hcap;
} csv_t;

/* Split s in place into fields; quotes are removed, "" becomes ". */
static int csv_split(char *s, char **f)
{
    int n = 0;
    char *w = s;
    for (;;) {
        if (n == CSV_MAXF) tap_bail("csv.h: more than %d fields", CSV_MAXF);
        f[n++] = w;
        if (*s == '"') {
            s++;
            for (;;) {
                if (!*s) break;                         /* unterminated: take the rest */
                if (*s == '"' && s[1] == '"') { *w++ = '"'; s += 2; continue; }
                if (*s == '"') { s++; break; }
                *w++ = *s++;
            }
            while (*s && *s != ',') *w++ = *s++;        /* text after the closing quote */
        } else {
            while (*s && *s != ',') *w++ = *s++;
        }
        if (!*s) { *w = 0; return n; }
        *w++ = 0;                                       /* the comma */
        s++;
    }
}

/* Read one non-blank line into *buf (newline stripped); 0 at the end. */
static int csv_getline(FILE *fp, char **buf, size_t *cap)
{
    ssize_t len;
    while ((len = getline(buf, cap, fp)) >= 0) {
        while (len > 0 && ((*buf)[len - 1] == '\n' || (*buf)[len - 1] == '\r')) (*buf)[--len] = 0;
        if (len > 0) return 1;
    }
    return 0;
}

static int csv_open(csv_t *c, const char *dir, const char *name) __attribute__((unused));
static int csv_open(csv_t *c, const char *dir, const char *name)
{
    memset(c, 0, sizeof *c);
    snprintf(c->path, sizeof c->path, "%s/%s", dir, name);
    c->fp = fopen(c->path, "r");
    if (!c->fp) return 0;
    if (!csv_getline(c->fp, &c->hline, &c->hcap)) { fclose(c->fp); c->fp = NULL; return 0; }
    c->nh = csv_split(c->hline, c->hdr);
    return 1;
}

static int csv_next(csv_t *c, row_t *r) __attribute__((unused));
static int csv_next(csv_t *c, row_t *r)
{
    if (!c->fp || !csv_getline(c->fp, &c->line, &c->cap)) return 0;
    r->n = csv_split(c->line, r->f);
    return 1;
}

static void csv_close(csv_t *c) __attribute__((unused));
static void csv_close(csv_t *c)
{
    if (c->fp) fclose(c->fp);
    free(c->line);
    free(c->hline);
    memset(c, 0, sizeof *c);
}

/* The field of column `name` in row r ("" when the row is short). */
static const char *col(csv_t *c, row_t *r, const char *name) __attribute__((unused));
static const char *col(csv_t *c, row_t *r, const char *name)
{
    for (int i = 0; i < c->nh; i++)
        if (!strcmp(c->hdr[i], name)) return i < r->n ? r->f[i] : "";
    tap_bail("%s has no column '%s'", c->path, name);
    return "";
}

/* Whether the header names column `name`. */
static int csv_has(csv_t *c, const char *name) __attribute__((unused));
static int csv_has(csv_t *c, const char *name)
{
    for (int i = 0; i < c->nh; i++) if (!strcmp(c->hdr[i], name)) return 1;
    return 0;
}
#endif
