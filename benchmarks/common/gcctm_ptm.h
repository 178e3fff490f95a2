/*
 * gcctm_ptm.h - the ptm.h API for the GCC transactional-memory peer
 * (bench/<bench>.gcctm): the same benchmark sources compiled by gcc with
 * -fgnu-tm, PTM_BEGIN/PTM_END mapped onto __transaction_atomic (libitm, a
 * volatile STM), the ordinary heap (malloc/free inside a transaction are
 * transactional in libitm), no persistence. libitm exports no statistics:
 * commits are counted here, aborts are reported as 0.
 */
#ifndef PTM_GCCTM_PTM_H
#define PTM_GCCTM_PTM_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct ptm_stats {
  uint64_t commits;
  uint64_t aborts;
  uint64_t clwb;
  uint64_t sfence;
} ptm_stats_t;

void ptm_gcctm_committed(void);

#define PTM_BEGIN() __transaction_atomic {
#define PTM_END()                                                              \
  }                                                                            \
  ptm_gcctm_committed()

static inline void *ptm_malloc(size_t size) { return malloc(size); }
static inline void *ptm_calloc(size_t nmemb, size_t size) {
  return calloc(nmemb, size);
}
static inline void ptm_free(void *ptr) { free(ptr); }
/* Setup only (no transactional aligned allocation in libitm): runs
 * uninstrumented, an abort would leak the block. */
__attribute__((transaction_pure)) void *ptm_aligned_alloc(size_t alignment,
                                                          size_t size);
void *ptm_root(size_t size);
const char *ptm_algorithm(void);
void ptm_stats(ptm_stats_t *total);
void ptm_stats_print(FILE *out);

#endif /* PTM_GCCTM_PTM_H */
