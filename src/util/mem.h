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
#include <stdbool.h>

/* Zeroed memory of n bytes (n may be 0: returns a unique non-NULL pointer).
 * Raises ERR_LIMIT when the limit would be passed or malloc fails. */
void *mem_alloc(size_t n);
/* Like mem_alloc but not zeroed (for tensor storage about to be written). */
void *mem_alloc_raw(size_t n);
void *mem_realloc(void *p, size_t old_n, size_t new_n);
void mem_free(void *p, size_t n);
char *mem_strdup(const char *s);             /* free with mem_free(s, strlen(s)+1) */
char *mem_strndup(const char *s, size_t n);  /* free with mem_free(s, n+1) */

/* Scratch: a block a function needs only while it runs (a pass's work
 * arrays), which an error raised before the function frees it must not
 * leak.  mem_scratch allocates (zeroed, as mem_alloc) and registers the
 * block; mem_scratch_free gives it back; mem_scratch_keep hands it to a
 * lasting owner (a graph node), after which it is an ordinary block.  When
 * an error unwinds to a try frame (error.h), every block registered since
 * that frame was pushed and still held is freed. */
void *mem_scratch(size_t n);
void mem_scratch_free(void *p);
void mem_scratch_keep(void *p);
unsigned long mem_scratch_mark(void);          /* err_push records it */
void mem_scratch_unwind(unsigned long mark);   /* err_raise calls it */

/* Memory nnpad holds outside this allocator that still counts against the
 * limit (the notebook's cells and figures, view_notebook.c): mem_account
 * adds n bytes to the amount in use and returns true, or returns false
 * and adds nothing when n would pass the limit (force: add anyway);
 * mem_unaccount takes them off again.  Neither raises. */
bool mem_account(size_t n, bool force);
void mem_unaccount(size_t n);

/* Bytes in use now, the peak since mem_reset_peak, and the limit. */
size_t mem_in_use(void);
size_t mem_peak(void);
void mem_reset_peak(void);
size_t mem_limit(void);
/* n bytes as a size_t; past SIZE_MAX (a 32-bit machine: a tensor of 8e15
 * bytes) the memory-limit error with the true count, not a wrapped one */
size_t mem_bytes(uint64_t n);
void mem_set_limit(size_t bytes);
/* The fuzzer's ceiling: mem_set_limit (and :limit) never sets more. */
void mem_set_limit_max(size_t bytes);
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
