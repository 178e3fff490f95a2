//===- stats.h - per-thread statistics and the thread registry --*- C++ -*-===//
//
// Every thread that runs a transaction gets a record in a global registry
// (attach_thread). Records are kept for the process lifetime, so totals and
// per-thread figures include threads that have exited. A thread updates only
// its own record (stat_add: relaxed atomic load + store, no lock prefix);
// readers (ptm_stats, ptm_stats_print) load the fields atomically.
//
//===----------------------------------------------------------------------===//
#ifndef PTM_RUNTIME_STATS_H
#define PTM_RUNTIME_STATS_H

#include "ptm.h"

#include <cstdint>

namespace ptm {

__attribute__((always_inline)) inline void stat_add(uint64_t &field,
                                                    uint64_t n = 1) {
  __atomic_store_n(&field, __atomic_load_n(&field, __ATOMIC_RELAXED) + n,
                   __ATOMIC_RELAXED);
}

// Allocates and links a fresh record for a new thread.
ptm_stats_t *register_thread_stats();

} // namespace ptm

#endif // PTM_RUNTIME_STATS_H
