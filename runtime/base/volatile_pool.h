//===- volatile_pool.h - the pool API of libraries without a pool -*- C++
//-*-===//
//
// The STM libraries have no persistent pool: ptm_open refuses (-ENOTSUP, with
// a message naming the library), ptm_close does nothing, ptm_root hands out a
// process-lifetime zeroed block, and the ptm_malloc family is the ordinary
// heap (transactional inside a transaction: see abi_glue.h).
//
//===----------------------------------------------------------------------===//
#ifndef PTM_RUNTIME_VOLATILE_POOL_H
#define PTM_RUNTIME_VOLATILE_POOL_H

#include "runtime/base/volatile_heap.h"

#include <cstddef>

namespace ptm {

struct VolatilePool {
  using Heap = VolatileHeap;
  static int open(const char *path, size_t size);
  static void close();
  // The first call fixes the size: a later call asking for more returns NULL
  // with a message; size 0 returns the existing block (NULL if none).
  static void *root(size_t size);
  // Nothing is persistent: nothing to make durable.
  static int sync() { return 0; }
  static bool note_library() { return true; }
};

} // namespace ptm

#endif // PTM_RUNTIME_VOLATILE_POOL_H
