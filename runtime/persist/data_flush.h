//===- data_flush.h - write-back of a transaction's data lines --*- C++ -*-===//
//
// The clwb of data a transaction wrote, for the data of the open pool only
// (its root descriptor and heap: what recovery restores). A write to any
// other memory, the stack, the DRAM heap, globals, is logged for rollback
// like any other but never flushed: nothing there survives a crash, so
// making it durable is pure cost (a program that copies shared data into a
// private scratch buffer in its transactions paid a clwb per line of it).
// Nor is such a write logged persistently (no entry, no fence): the undo
// libraries keep it in the volatile undo log that an abort restores from,
// the redo libraries in entries outside the slot (outside_entries.h).
// The test is a few compares against the pool's bounds.
//
//===----------------------------------------------------------------------===//
#ifndef PTM_RUNTIME_DATA_FLUSH_H
#define PTM_RUNTIME_DATA_FLUSH_H

#include "runtime/persist/persist.h"
#include "runtime/pool/pool_view.h"

#include <cstddef>
#include <cstdint>

namespace ptm {
namespace pool {
extern PoolView open_view; // persistent_pool.h
} // namespace pool

namespace persist {

// Some byte of [p, p + n) is pool data: the range needs flushing, and a
// write to it needs a persistent log entry (an undo library's).
__attribute__((always_inline)) inline bool is_pool_data(const void *p,
                                                        size_t n) {
  return pool::open_view.overlaps_data(reinterpret_cast<uintptr_t>(p), n);
}

// clwb of the line holding P if it is pool data.
__attribute__((always_inline)) inline void clwb_data(const void *p) {
  if (is_pool_data(p, 1))
    clwb(p);
}

} // namespace persist
} // namespace ptm

#endif // PTM_RUNTIME_DATA_FLUSH_H
