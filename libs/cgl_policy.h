//===- cgl_policy.h - one global lock, writes in place with an undo log -*- C++
//-*-//
//
// The simplest STM: the outermost begin takes a global lock, so transactions
// run one at a time. A write logs the old value and stores in place; a read is
// a plain load. Commit releases the lock (deferred frees are applied by the
// glue afterwards); rollback (ptm_restart) writes the old values back first.
// Running uninstrumented code is always possible: the lock already
// serializes, so the transaction only loses the ability to restart. A long
// attempt logs each location about once (undo_filter.h). A block the attempt
// allocated and frees goes back to the heap at once (tx_alloc.h); a rollback
// drops the undo entries inside it.
//
// reads/writes in ptm_stats are 0 unless built with -DPTM_COUNT_ACCESSES=1.
//
//===----------------------------------------------------------------------===//
#ifndef PTM_LIBS_CGL_POLICY_H
#define PTM_LIBS_CGL_POLICY_H

#include "libs/reads_in_place.h"
#include "runtime/base/policy_base.h"
#include "runtime/base/spin_lock.h"
#include "runtime/base/stats.h"
#include "runtime/base/thread_exit_key.h"
#include "runtime/base/tx_thread.h"
#include "runtime/base/undo_filter.h"
#include "runtime/stm/stm_access.h"

#include <algorithm>
#include <cstring>

namespace ptm {

struct CglPolicy : ReadsInPlace<PolicyBase> {
  static inline SpinLock global_lock;
  // The filter from the attempt's 32nd entry on: a short transaction (every
  // benchmark's) appends without a lookup; a long one (SQLite's, thousands of
  // writes to the same fields) logs each location about once.
  static inline thread_local UndoFilter logged;
  static constexpr size_t kFilterFrom = 32;

  static constexpr bool kFreesOwnBlocksAtOnce = true;
  // The blocks the attempt freed at once (unsorted, perhaps overlapping: the
  // heap may hand a block out and the attempt free it again).
  static inline thread_local GrowBuffer<MemRange> freed;

  static void begin(TxThread &tx) {
    global_lock.lock();
    tx.undo.clear();
    freed.clear();
    logged.start();
  }
  static void begin_irrevocable(TxThread &tx) { begin(tx); }
  static bool become_irrevocable(TxThread &) { return true; }

  static bool commit(TxThread &tx) {
    stat_add(tx.stats->log_entries, tx.undo.size());
    tx.undo.clear();
    freed.clear();
    global_lock.unlock();
    return true;
  }

  static void rollback(TxThread &tx) {
    stat_add(tx.stats->log_entries, tx.undo.size());
    if (!freed.empty())
      drop_entries_in_freed(tx.undo);
    tx.undo.rollback(tx.stack_lo, tx.stack_mark, &tx.kept);
    global_lock.unlock();
  }

  // The glue frees [lo, hi) at once (tx_alloc.h).
  static void forget_block(TxThread &, uintptr_t lo, uintptr_t hi) {
    if (freed.capacity == 0)
      ThreadExitKey<release_freed>::set(&freed);
    freed.push_back(MemRange{lo, hi});
  }

  template <class T>
  __attribute__((always_inline)) static void write(TxThread &tx, T *addr,
                                                   T value) {
    if (tx.undo.size() < kFilterFrom ||
        !logged.logged_or_record(reinterpret_cast<uintptr_t>(addr),
                                 sizeof value))
      tx.undo.append_value(addr);
    memcpy(addr, &value, sizeof value);
  }

  // A span (memcpy, memset, a large value) saves no old bytes in the
  // attempt's private stack (dead after it) nor in its newest allocation
  // (freed by a rollback): SQLite copies pages into blocks it has just
  // allocated.
  static void write_bytes(TxThread &tx, void *tm, const void *priv, size_t n) {
    if (!PrivateStack::of(tx).holds(reinterpret_cast<uintptr_t>(tm), n) &&
        !in_last_alloc(tx, tm, n))
      tx.undo.append_span(tm, n);
    memmove(tm, priv, n);
  }

private:
  static void release_freed(void *buffer) {
    static_cast<GrowBuffer<MemRange> *>(buffer)->release();
  }
  // The memory of a block freed at once is the heap's again: a rollback
  // leaves it as it is (its entry sizes become 0). The blocks, sorted and
  // merged into disjoint ranges, are searched once per entry.
  static __attribute__((noinline, cold)) void
  drop_entries_in_freed(UndoLog &undo) {
    MemRange *b = &freed[0];
    std::sort(b, b + freed.size,
              [](const MemRange &x, const MemRange &y) { return x.lo < y.lo; });
    size_t m = 0;
    for (size_t i = 1; i < freed.size; ++i) {
      if (b[i].lo <= b[m].hi)
        b[m].hi = std::max(b[m].hi, b[i].hi);
      else
        b[++m] = b[i];
    }
    size_t ranges = m + 1;
    for (size_t i = 0; i < undo.entries.size; ++i) {
      auto a = reinterpret_cast<uintptr_t>(undo.entries[i].addr);
      const MemRange *r = std::upper_bound(
          b, b + ranges, a,
          [](uintptr_t x, const MemRange &y) { return x < y.lo; });
      if (r != b && a < r[-1].hi)
        undo.entries[i].size = 0;
    }
    freed.clear();
  }
};

} // namespace ptm

#endif // PTM_LIBS_CGL_POLICY_H
