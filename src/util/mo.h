/* mo.h — a GNU gettext catalogue (.mo file) read without libintl: the web
 * build's Korean (util/i18n.c; there is no libintl for wasm32-wasi).
 *
 * The format (GNU gettext manual, "The Format of GNU MO Files"): 32-bit
 * words in the writer's byte order; the header: magic 0x950412de,
 * revision, N, O and T (the offsets of the originals' and the
 * translations' tables), hash table size and offset.  Each table holds N
 * (length, offset) pairs of NUL-terminated strings; the originals are
 * sorted (strcmp), so a lookup is a binary search.  A plural entry's
 * original is "singular\0plural" and its translation the forms joined by
 * NULs.  The entry of "" is the header (Plural-Forms: nplurals=...).
 *
 * mo_new checks every offset and length against the size once (and the
 * order of the originals), so no lookup reads outside the data: a
 * truncated or corrupt catalogue is refused as a whole (NULL: English).
 * Ownership: the caller owns a mo_t and gives it back with mo_free; the
 * strings mo_find returns live as long as it. */
#ifndef NN_MO_H
#define NN_MO_H
#include <stddef.h>

typedef struct mo mo_t;

/* The catalogue in DATA (N bytes, copied), or NULL: malformed, or no memory. */
mo_t *mo_new(const void *data, size_t n);
/* The catalogue in the file PATH, or NULL: missing, unreadable, over
 * 64 MiB, or malformed. */
mo_t *mo_load(const char *path);
void mo_free(mo_t *m);
/* The translation of MSGID (of a plural entry: its singular), its first
 * form; NULL when the catalogue has none, or an empty one, or MSGID is "". */
const char *mo_find(const mo_t *m, const char *msgid);
/* nplurals= of the header's Plural-Forms: 0 when it says none. */
int mo_nplurals(const mo_t *m);

#endif
