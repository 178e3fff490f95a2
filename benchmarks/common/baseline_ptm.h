/*
 * baseline_ptm.h - the ptm.h API for the uninstrumented baseline build
 * (bench/<bench>.baseline): the same benchmark sources compiled WITHOUT the
 * plugin, every transaction one critical section of a single global mutex
 * (flat nesting), the heap the ordinary one, no persistence. It is the
 * physical limit the instrumented builds are compared against.
 */
#ifndef PTM_BASELINE_PTM_H
#define PTM_BASELINE_PTM_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef struct ptm_stats {
  uint64_t commits;
  uint64_t aborts;
  uint64_t clwb;
  uint64_t sfence;
} ptm_stats_t;

void ptm_baseline_begin(void);
void ptm_baseline_end(void);

#define PTM_BEGIN()                                                            \
  {                                                                            \
    ptm_baseline_begin()
#define PTM_END()                                                              \
  ptm_baseline_end();                                                          \
  }                                                                            \
  do {                                                                         \
  } while (0)

void *ptm_root(size_t size);
void *ptm_malloc(size_t size);
void *ptm_calloc(size_t nmemb, size_t size);
void *ptm_aligned_alloc(size_t alignment, size_t size);
void ptm_free(void *ptr);
const char *ptm_algorithm(void);
void ptm_stats(ptm_stats_t *total);
void ptm_stats_print(FILE *out);

#endif /* PTM_BASELINE_PTM_H */
