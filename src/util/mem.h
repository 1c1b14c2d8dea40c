/* mem.h — the one allocation choke point.
 *
 * Every byte nnpad allocates for user data (tensor storage, values, AST,
 * strings) goes through mem_alloc/mem_free with its size, so that
 *   - the memory limit (`:limit`, default half of physical memory) is
 *     enforced: an allocation that would pass it raises ERR_LIMIT naming the
 *     size asked for, the limit and the amount in use;
 *   - tests can make the Nth allocation fail (mem_fail_after) to check that
 *     out-of-memory is an error, not a crash (as Lua's ltests.h does).
 * Ownership: the caller owns what mem_alloc returns and gives it back with
 * mem_free(p, size) with the same size.
 */
#ifndef NN_MEM_H
#define NN_MEM_H
#include <stddef.h>
#include <stdint.h>

/* Zeroed memory of n bytes (n may be 0: returns a unique non-NULL pointer).
 * Raises ERR_LIMIT when the limit would be passed or malloc fails. */
void *mem_alloc(size_t n);
/* Like mem_alloc but not zeroed (for tensor storage about to be written). */
void *mem_alloc_raw(size_t n);
void *mem_realloc(void *p, size_t old_n, size_t new_n);
void mem_free(void *p, size_t n);
char *mem_strdup(const char *s);             /* free with mem_free(s, strlen(s)+1) */
char *mem_strndup(const char *s, size_t n);  /* free with mem_free(s, n+1) */

/* Bytes in use now, the peak since mem_reset_peak, and the limit. */
size_t mem_in_use(void);
size_t mem_peak(void);
void mem_reset_peak(void);
size_t mem_limit(void);
void mem_set_limit(size_t bytes);
size_t mem_default_limit(void);   /* half of physical memory */

/* Large blocks (128 KiB and more) are recycled by size class (quarter
 * octaves) instead of going back to the system, since the first touch of
 * fresh pages is slow; mem_cached() is the bytes held for reuse (not in
 * mem_in_use), mem_trim() hands them all back. */
size_t mem_cached(void);
void mem_trim(void);

/* Testing: the next n allocations succeed, then every one fails (n < 0: off). */
void mem_fail_after(long n);

#endif
