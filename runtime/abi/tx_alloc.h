//===- tx_alloc.h - allocation inside transactions --------------*- C++ -*-===//
//
// The STM allocation model: blocks come from a heap (the ordinary one for
// volatile libraries); an allocation is recorded in the attempt's log, so an
// abort frees it; a free is deferred to commit, so an abort drops it. A free
// of a block allocated by the same attempt is deferred too (simplest correct
// choice: the block stays valid until the transaction ends). The attempt's
// blocks are listed in TxThread::captured only for a policy that reads and
// writes them without barriers (P::kLastAllocTracking): for the others the
// list cost SQLite's transactions of thousands of allocations a merge every
// 32 of them and served nothing.
//
//===----------------------------------------------------------------------===//
#ifndef PTM_RUNTIME_TX_ALLOC_H
#define PTM_RUNTIME_TX_ALLOC_H

#include "runtime/base/events.h"
#include "runtime/base/stats.h"
#include "runtime/base/tx_thread.h"

#include <cstdint>

namespace ptm {

// Allocates from HEAP for the running attempt (plainly outside one).
template <class P, class Heap>
void *tx_allocate(TxThread &tx, size_t size, size_t align) {
  void *ptr = Heap::allocate(size, align);
  if (ptr && tx.depth > 0) {
    tx.allocs.push_back(AllocRecord{ptr, &Heap::release});
    tx.last_alloc = reinterpret_cast<uintptr_t>(ptr);
    tx.last_alloc_size = size;
    if constexpr (P::kLastAllocTracking)
      tx.captured.add(reinterpret_cast<uintptr_t>(ptr), size);
    stat_add(tx.stats->allocs);
    P::on_event(tx, Event::AllocRecorded, reinterpret_cast<uintptr_t>(ptr));
  }
  return ptr;
}

// Frees PTR when the transaction commits (at once outside one).
template <class P, class Heap> void tx_release(TxThread &tx, void *ptr) {
  if (!ptr)
    return;
  if (tx.depth == 0) {
    Heap::release(ptr);
    return;
  }
  tx.frees.push_back(AllocRecord{ptr, &Heap::release});
  stat_add(tx.stats->frees);
  P::on_event(tx, Event::FreeDeferred, reinterpret_cast<uintptr_t>(ptr));
}

// Abort: frees what the attempt allocated, forgets what it freed.
template <class P> void rollback_allocations(TxThread &tx) {
  for (size_t i = tx.allocs.size; i-- > 0;) {
    AllocRecord r = tx.allocs[i];
    P::on_event(tx, Event::AllocRolledBack, reinterpret_cast<uintptr_t>(r.ptr));
    r.release(r.ptr);
  }
  tx.allocs.clear();
  tx.frees.clear();
  tx.last_alloc_size = 0;
  tx.captured.clear();
}

// Commit: the deferred frees take effect; the allocations stay.
template <class P> void commit_allocations(TxThread &tx) {
  for (size_t i = 0; i < tx.frees.size; ++i) {
    AllocRecord r = tx.frees[i];
    P::on_event(tx, Event::FreeApplied, reinterpret_cast<uintptr_t>(r.ptr));
    r.release(r.ptr);
  }
  tx.frees.clear();
  tx.allocs.clear();
  tx.last_alloc_size = 0;
  tx.captured.clear();
}

} // namespace ptm

#endif // PTM_RUNTIME_TX_ALLOC_H
