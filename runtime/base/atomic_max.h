//===- atomic_max.h - raise an atomic word to at least a value --*- C++ -*-===//
//
// raise_to(A, V): A = max(A, V), atomically, for the monotonic words the
// runtime shares between threads (commit sequences, floors, horizons).
// Returns A's value afterwards.
//
//===----------------------------------------------------------------------===//
#ifndef PTM_RUNTIME_BASE_ATOMIC_MAX_H
#define PTM_RUNTIME_BASE_ATOMIC_MAX_H

#include <atomic>
#include <cstdint>

namespace ptm {

inline uint64_t raise_to(std::atomic<uint64_t> &a, uint64_t v) {
  uint64_t cur = a.load(std::memory_order_relaxed);
  while (cur < v && !a.compare_exchange_weak(cur, v))
    ;
  return cur > v ? cur : v;
}

} // namespace ptm

#endif // PTM_RUNTIME_BASE_ATOMIC_MAX_H
