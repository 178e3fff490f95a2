//===- tx_alloc.h - allocation inside transactions --------------*- C++ -*-===//
//
// The STM allocation model: blocks come from a heap (the ordinary one for
// volatile libraries); an allocation is recorded in the attempt's log, so an
// abort frees it; a free is deferred to commit, so an abort drops it. A free
// of a block allocated by the same attempt is deferred too, unless the policy
// takes it at once (P::kFreesOwnBlocksAtOnce, policy_base.h): then a block
// among the attempt's kOwnBlockWindow newest goes back to the heap at once,
// for the attempt's next allocations (a transaction that allocates and frees
// thousands of temporary blocks, as SQLite's do, otherwise grows the heap by
// all of them), and leaves the attempt's records. The attempt's
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
    tx.allocs.push_back(AllocRecord{ptr, &Heap::release, size});
    tx.last_alloc = reinterpret_cast<uintptr_t>(ptr);
    tx.last_alloc_size = size;
    if constexpr (P::kLastAllocTracking)
      tx.captured.add(reinterpret_cast<uintptr_t>(ptr), size);
    stat_add(tx.stats->allocs);
    P::on_event(tx, Event::AllocRecorded, reinterpret_cast<uintptr_t>(ptr));
  }
  return ptr;
}

inline constexpr size_t kOwnBlockWindow = 16;

// PTR, one of the attempt's kOwnBlockWindow newest allocations, freed at
// once: false if it is not one of them.
template <class P, class Heap> bool release_own_block(TxThread &tx, void *ptr) {
  static_assert(!P::kLastAllocTracking,
                "the attempt's blocks would have to leave tx.captured too");
  size_t n = tx.allocs.size;
  for (size_t i = n; i-- > (n > kOwnBlockWindow ? n - kOwnBlockWindow : 0);)
    if (tx.allocs[i].ptr == ptr) {
      auto lo = reinterpret_cast<uintptr_t>(ptr);
      P::forget_block(tx, lo, lo + Heap::usable_size(ptr));
      tx.allocs[i] = tx.allocs[n - 1];
      tx.allocs.size = n - 1;
      if (tx.last_alloc == lo)
        tx.last_alloc_size = 0;
      P::on_event(tx, Event::FreeApplied, lo);
      Heap::release(ptr);
      return true;
    }
  return false;
}

// Frees PTR when the transaction commits (at once outside one, and for a
// block of the attempt's own if the policy allows it).
template <class P, class Heap> void tx_release(TxThread &tx, void *ptr) {
  if (!ptr)
    return;
  if (tx.depth == 0) {
    Heap::release(ptr);
    return;
  }
  if constexpr (P::kFreesOwnBlocksAtOnce)
    if (release_own_block<P, Heap>(tx, ptr)) {
      stat_add(tx.stats->frees);
      return;
    }
  tx.frees.push_back(AllocRecord{ptr, &Heap::release, 0});
  stat_add(tx.stats->frees);
  P::on_event(tx, Event::FreeDeferred, reinterpret_cast<uintptr_t>(ptr));
}

// The attempt's allocation records are done with (its end).
inline void forget_allocations(TxThread &tx) {
  tx.allocs.clear();
  tx.frees.clear();
  tx.last_alloc_size = 0;
  tx.captured.clear();
}

// Abort: frees what the attempt allocated, forgets what it freed.
template <class P> void rollback_allocations(TxThread &tx) {
  for (size_t i = tx.allocs.size; i-- > 0;) {
    AllocRecord r = tx.allocs[i];
    P::on_event(tx, Event::AllocRolledBack, reinterpret_cast<uintptr_t>(r.ptr));
    r.release(r.ptr);
  }
  forget_allocations(tx);
}

// Commit: the deferred frees take effect; the allocations stay.
template <class P> void commit_allocations(TxThread &tx) {
  for (size_t i = 0; i < tx.frees.size; ++i) {
    AllocRecord r = tx.frees[i];
    P::on_event(tx, Event::FreeApplied, reinterpret_cast<uintptr_t>(r.ptr));
    r.release(r.ptr);
  }
  forget_allocations(tx);
}

} // namespace ptm

#endif // PTM_RUNTIME_TX_ALLOC_H
