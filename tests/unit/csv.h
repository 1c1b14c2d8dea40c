/* csv.h — the tests' reader for the reference tables (the CSV files of tests/refdata:
 * comma-separated, a header row naming the columns, no quotes; see
 * tests/refdata/README.md).  Columns are looked up by name. */
#ifndef NN_TEST_CSV_H
#define NN_TEST_CSV_H
#include <stdio.h>
#include <string.h>

#define MAXF 32
typedef struct row { char *f[MAXF]; int n; } row_t;
typedef struct csv { char *hdr[MAXF]; int nh; FILE *fp; char line[8192], hline[8192]; } csv_t;

static int csv_open(csv_t *c, const char *dir, const char *name) __attribute__((unused));
static int csv_open(csv_t *c, const char *dir, const char *name)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    c->fp = fopen(path, "r");
    if (!c->fp) return 0;
    if (!fgets(c->hline, sizeof c->hline, c->fp)) return 0;
    c->hline[strcspn(c->hline, "\r\n")] = 0;
    c->nh = 0;
    for (char *p = strtok(c->hline, ","); p && c->nh < MAXF; p = strtok(NULL, ",")) c->hdr[c->nh++] = p;
    return 1;
}

static int csv_next(csv_t *c, row_t *r) __attribute__((unused));
static int csv_next(csv_t *c, row_t *r)
{
    if (!fgets(c->line, sizeof c->line, c->fp)) return 0;
    c->line[strcspn(c->line, "\r\n")] = 0;
    r->n = 0;
    char *p = c->line;
    for (;;) {
        r->f[r->n++] = p;
        char *q = strchr(p, ',');
        if (!q || r->n == MAXF) break;
        *q = 0;
        p = q + 1;
    }
    return 1;
}

static const char *col(csv_t *c, row_t *r, const char *name) __attribute__((unused));
static const char *col(csv_t *c, row_t *r, const char *name)
{
    for (int i = 0; i < c->nh && i < r->n; i++) if (!strcmp(c->hdr[i], name)) return r->f[i];
    return "";
}
#endif
