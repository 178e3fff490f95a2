//===- cgl_policy.h - one global lock, writes in place with an undo log -*- C++
//-*-//
//
// The simplest STM: the outermost begin takes a global lock, so transactions
// run one at a time. A write logs the old value and stores in place; a read is
// a plain load. Commit releases the lock (deferred frees are applied by the
// glue afterwards); rollback (ptm_restart) writes the old values back first.
// Running uninstrumented code is always possible: the lock already
// serializes, so the transaction only loses the ability to restart. A write
// logs a location only once per attempt (undo_filter.h).
//
// reads/writes in ptm_stats are 0 unless built with -DPTM_COUNT_ACCESSES=1.
//
//===----------------------------------------------------------------------===//
#ifndef PTM_LIBS_CGL_POLICY_H
#define PTM_LIBS_CGL_POLICY_H

#include "libs/reads_in_place.h"
#include "libs/spin_lock.h"
#include "runtime/base/policy_base.h"
#include "runtime/base/stats.h"
#include "runtime/base/tx_thread.h"
#include "runtime/base/undo_filter.h"
#include "runtime/stm/stm_access.h"

#include <cstring>

namespace ptm {

struct CglPolicy : ReadsInPlace<PolicyBase> {
  static inline SpinLock global_lock;
  static inline thread_local UndoFilter logged;

  static void begin(TxThread &tx) {
    global_lock.lock();
    tx.undo.clear();
    logged.start();
  }
  static void begin_irrevocable(TxThread &tx) { begin(tx); }
  static bool become_irrevocable(TxThread &) { return true; }

  static bool commit(TxThread &tx) {
    stat_add(tx.stats->log_entries, tx.undo.size());
    tx.undo.clear();
    global_lock.unlock();
    return true;
  }

  static void rollback(TxThread &tx) {
    stat_add(tx.stats->log_entries, tx.undo.size());
    tx.undo.rollback(tx.stack_lo, tx.stack_mark, &tx.kept);
    global_lock.unlock();
  }

  template <class T>
  __attribute__((always_inline)) static void write(TxThread &tx, T *addr,
                                                   T value) {
    if (!logged.logged_or_record(reinterpret_cast<uintptr_t>(addr),
                                 sizeof value))
      tx.undo.append_value(addr);
    memcpy(addr, &value, sizeof value);
  }

  // A span (memcpy, memset, a large value) saves no old bytes in the
  // attempt's private stack (dead after it).
  static void write_bytes(TxThread &tx, void *tm, const void *priv, size_t n) {
    if (!PrivateStack::of(tx).holds(reinterpret_cast<uintptr_t>(tm), n))
      tx.undo.append_span(tm, n);
    memmove(tm, priv, n);
  }
};

} // namespace ptm

#endif // PTM_LIBS_CGL_POLICY_H
