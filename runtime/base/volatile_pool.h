//===- volatile_pool.h - the pool API of libraries without a pool -*- C++
//-*-===//
//
// The STM libraries have no persistent pool, but the same program runs
// against them (docs/pool.md "STM libraries"): ptm_open succeeds without
// touching the file and says once that nothing is crash consistent, ptm_close
// does nothing, ptm_root hands out a process-lifetime zeroed block, and the
// ptm_malloc family is the ordinary heap (transactional inside a transaction:
// see abi_glue.h).
//
//===----------------------------------------------------------------------===//
#ifndef PTM_RUNTIME_VOLATILE_POOL_H
#define PTM_RUNTIME_VOLATILE_POOL_H

#include "runtime/base/volatile_heap.h"

#include <cstddef>

namespace ptm {

struct VolatilePool {
  static constexpr int kPersistent = 0;
  using Heap = VolatileHeap;
  static int open(const char *path, size_t size);
  static void close();
  // The first call fixes the size: a later call asking for more returns NULL
  // with a message; size 0 returns the existing block (NULL if none).
  static void *root(size_t size);
  // Nothing is persistent: nothing to make durable.
  static int sync() { return 0; }
  static bool note_library() { return true; }
  // No thread slots: no limit on threads running transactions.
  static unsigned slots() { return 0; }
};

} // namespace ptm

#endif // PTM_RUNTIME_VOLATILE_POOL_H
