//===- persistent_policy_base.h - what every p_ library shares --*- C++ -*-===//
//
// The pieces of a persistent (Listing 1) policy that do not depend on the
// algorithm (on top of BASE: PolicyBase for p_cgl_*, StmPolicyBase for the
// concurrent ones): the pool (PersistentPool), the allocation model of
// OPTIONS (kPoolMalloc: malloc and new inside a transaction allocate from the
// pool's heap in the IP model, from the ordinary heap otherwise; ptm_malloc
// always from the pool), no irrevocability (uninstrumented code could not be
// made durable), and the commit-time work on allocations:
//
//   apply_frees      the transaction's deferred frees of pool blocks, done
//                    through its own log inside the commit (atomic with it)
//   flush_allocs     clwb of the pool blocks the transaction allocated
//                    (they may hold plain stores, e.g. calloc's zeroing,
//                    or, with last-allocation tracking, every write into
//                    them), once per line, before the commit's fences; if
//                    the attempt logged nothing (the read-only commit path,
//                    which fences nothing) one sfence makes them durable
//                    before the commit returns; the commit reads whether
//                    it flushed any (SlotHandle::flushed_blocks); the log
//                    ring leaves a small block (at most 8 entries) to its
//                    commit, which logs it into the record instead
//                    (PersistentLazyT::log_blocks: no fence of its own)
//
//===----------------------------------------------------------------------===//
#ifndef PTM_LIBS_PERSISTENT_POLICY_BASE_H
#define PTM_LIBS_PERSISTENT_POLICY_BASE_H

#include "runtime/base/policy_base.h"
#include "runtime/base/report.h"
#include "runtime/base/tx_thread.h"
#include "runtime/base/volatile_heap.h"
#include "runtime/persist/persist.h"
#include "runtime/persist/persistent_redo_log.h"
#include "runtime/pool/persistent_pool.h"
#include "runtime/pool/thread_slot.h"

#include <type_traits>

namespace ptm {

template <class Self, class Options, class Base = PolicyBase>
struct PersistentPolicyBase : Base {
  using Pool = PersistentPool<Self>;
  using TxHeap = std::conditional_t<Options::kPoolMalloc, pool::PoolHeap<Self>,
                                    VolatileHeap>;
  // The committer waits for the attempts running at its commit (orec
  // algorithms, p_ and gp_): ordinary-heap blocks it frees after its commit
  // can go to libc at once (pool/heap_adapter.h). The IP model drops it.
  static constexpr bool kQuiesce = Options::kQuiesce;
  // The commit logs a small block the attempt allocated in its record
  // instead of flushing it (the log ring's lazy commit,
  // PersistentLazyT::log_blocks); the lazy policies say so.
  static constexpr bool kLogsBlocks = false;

  // Strict durability through the persister (the file domain,
  // runtime/pool/durability.h): a transaction returns from its commit once
  // it is durable.
  __attribute__((always_inline)) static void on_event(TxThread &tx, Event e,
                                                      uintptr_t arg) {
    Base::on_event(tx, e, arg);
    if (e == Event::Commit && __builtin_expect(pool::awaited, 0))
      pool::await_commit();
  }

  static void begin_irrevocable(TxThread &tx) {
    fatal("%s: library '%s' is persistent and cannot run a transaction "
          "uninstrumented (compile the code with the ptm plugin)",
          tx.where ? tx.where : "?", PTM_LIBNAME);
  }
  static bool become_irrevocable(TxThread &) { return false; }

  // Blocks outside the pool (from the ordinary heap, e.g. allocated before
  // the program opened it) stay on the list: the glue frees them after the
  // commit returns, i.e. after the algorithm's quiescence, as an STM does
  // (freeing them here would let libc write into memory that concurrent
  // transactions may still read).
  static void apply_frees(TxThread &tx) {
    if (tx.frees.size == 0) // (most transactions: one test)
      return;
    size_t kept = 0;
    for (size_t i = 0; i < tx.frees.size; ++i) {
      void *p = tx.frees[i].ptr;
      if (pool::pool_heap && pool::pool_heap->contains(p))
        pool::PoolHeap<Self>::free_in_tx(p);
      else
        tx.frees[kept++] = tx.frees[i];
    }
    tx.frees.size = kept;
  }

  static void flush_allocs(TxThread &tx) {
    bool flushed = false;
    // (nothing allocated, the most common case: one test; buffered: the
    // blocks are queued with the write set)
    if (tx.allocs.size == 0 || pool::buffered) {
      pool::tls_slot.flushed_blocks = false;
      return;
    }
    for (size_t i = 0; i < tx.allocs.size; ++i) {
      void *p = tx.allocs[i].ptr;
      if (pool::pool_heap && pool::pool_heap->contains(p)) {
        size_t n = tx.allocs[i].size;
        // (the log ring logs a small block at commit instead: its record
        // holds it, PersistentLazyT::log_blocks)
        if constexpr (Self::kLogsBlocks)
          if (PersistentRedoLog::logs_block<Options::kCoarseLog>(n))
            continue;
        persist::flush_range(p, n);
        flushed = true;
      }
    }
    if (flushed && pool::tls_slot.count == 0)
      persist::sfence();
    pool::tls_slot.flushed_blocks = flushed;
  }
};

} // namespace ptm

#endif // PTM_LIBS_PERSISTENT_POLICY_BASE_H
