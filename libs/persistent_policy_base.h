//===- persistent_policy_base.h - what every p_ library shares --*- C++ -*-===//
//
// The pieces of a persistent (Listing 1) policy that do not depend on the
// algorithm: the pool (PersistentPool) and the IP allocation model (malloc,
// new and ptm_malloc inside a transaction allocate from the pool's heap),
// no irrevocability (uninstrumented code could not be made durable), and
// the commit-time work on allocations:
//
//   apply_frees      the transaction's deferred frees, done through its own
//                    log inside the commit (atomic with it)
//   flush_allocs     clwb of the blocks the transaction allocated (they may
//                    hold plain stores, e.g. calloc's zeroing), before the
//                    commit's fences
//
//===----------------------------------------------------------------------===//
#ifndef PTM_LIBS_PERSISTENT_POLICY_BASE_H
#define PTM_LIBS_PERSISTENT_POLICY_BASE_H

#include "runtime/persist.h"
#include "runtime/policy_base.h"
#include "runtime/pool/persistent_pool.h"
#include "runtime/pool/thread_slot.h"
#include "runtime/report.h"
#include "runtime/tx_thread.h"

namespace ptm {

template <class Self> struct PersistentPolicyBase : PolicyBase {
  using Pool = PersistentPool<Self>;
  using TxHeap = pool::PoolHeap<Self>;

  static void begin_irrevocable(TxThread &tx) {
    fatal("%s: library '%s' is persistent and cannot run a transaction "
          "uninstrumented (compile the code with the ptm plugin)",
          tx.where ? tx.where : "?", PTM_LIBNAME);
  }
  static bool become_irrevocable(TxThread &) { return false; }

  static void apply_frees(TxThread &tx) {
    for (size_t i = 0; i < tx.frees.size; ++i)
      TxHeap::free_in_tx(tx.frees[i].ptr);
    tx.frees.clear();
  }

  static void flush_allocs(TxThread &tx) {
    for (size_t i = 0; i < tx.allocs.size; ++i) {
      void *p = tx.allocs[i].ptr;
      persist::flush_range(p, TxHeap::usable_size(p));
    }
  }
};

} // namespace ptm

#endif // PTM_LIBS_PERSISTENT_POLICY_BASE_H
