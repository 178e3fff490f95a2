/*
 * volatile_root.h - ptm_root for the peers that run without a pool (the
 * uninstrumented baseline, the GCC TM peer): one zeroed heap object, made
 * on the first call with the size asked; a later call gets it if it asks
 * for no more. Each peer's ptm.h implementation returns volatile_root().
 */
#ifndef PTM_BENCH_VOLATILE_ROOT_H
#define PTM_BENCH_VOLATILE_ROOT_H
#include <stddef.h>
#include <stdlib.h>

static inline void *volatile_root(size_t size) {
  static void *root;
  static size_t root_size;
  if (!root) {
    root = calloc(1, size);
    root_size = size;
  }
  return size <= root_size ? root : NULL;
}

#endif /* PTM_BENCH_VOLATILE_ROOT_H */
