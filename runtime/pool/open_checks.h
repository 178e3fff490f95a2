//===- open_checks.h - what an open requires of a recovered pool -*- C++
//-*-===//
//
// After recovery, before a program may use a pool:
//   heap formatted      its metadata passes PersistentHeap::attach, its
//                       granularity is at least this build's logging
//                       granularity, and the root descriptor names a heap
//                       block of at least its size (or no root object:
//                       offset and size 0)
//   not formatted yet   the root descriptor is a new pool's: heap_formatted
//                       0, no root object, and no thread slot was ever
//                       claimed (a crash during the first format leaves
//                       exactly that); the open formats the heap
// Anything else is damage. The checks only read the pool, so the library
// runs them, with recovery, on a private copy first: a pool it refuses is
// left as it was. ptm-pool check reports the same problems.
//
//===----------------------------------------------------------------------===//
#ifndef PTM_RUNTIME_POOL_OPEN_CHECKS_H
#define PTM_RUNTIME_POOL_OPEN_CHECKS_H

#include "runtime/palloc/persistent_heap.h"
#include "runtime/pool/pool_view.h"

#include <string>

namespace ptm {
namespace pool {

// What is wrong with the root descriptor of V, whose heap is formatted and
// attached as HEAP; "" if nothing.
std::string root_problem(const PoolView &v, const PersistentHeap &heap);

// What is wrong with V, whose heap is not marked formatted; "" if it is a
// new pool (the open will format its heap).
std::string unformatted_problem(const PoolView &v);

// The library's check of the recovered pool V: 0 (HEAP attached if the heap
// is formatted), or -errno after `ptm: error: <path>: ...`.
int check_recovered_pool(const PoolView &v, const char *path,
                         PersistentHeap *heap);

} // namespace pool
} // namespace ptm

#endif // PTM_RUNTIME_POOL_OPEN_CHECKS_H
