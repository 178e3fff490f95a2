//===- stm_policy.h - what every concurrent STM policy shares ---*- C++ -*-===//
//
// StmPolicyBase: the per-thread scheduling state (StmThread), the hourglass
// hook for exception unwinds, and the serial (irrevocable) mode that every
// concurrent STM switches to when it must run uninstrumented code: once
// Hourglass::serialize has made the transaction run alone, reads are plain
// loads and writes are in place with an undo log (tx.undo), so an exception
// can still roll the transaction back.
//
//===----------------------------------------------------------------------===//
#ifndef PTM_RUNTIME_STM_POLICY_H
#define PTM_RUNTIME_STM_POLICY_H

#include "runtime/base/policy_base.h"
#include "runtime/base/stats.h"
#include "runtime/base/tx_thread.h"
#include "runtime/stm/hourglass.h"
#include "runtime/stm/stm_access.h"
#include "runtime/stm/tx_slots.h"

#include <cstring>

namespace ptm {

inline thread_local StmThread stm_thread;

struct StmPolicyBase : PolicyBase {
  static __attribute__((always_inline)) void on_event(TxThread &, Event e,
                                                      uintptr_t) {
    Hourglass::on_event(stm_thread, e);
  }

  static __attribute__((always_inline)) bool serial() {
    return __builtin_expect(stm_thread.serial, 0);
  }

  template <class T> static T serial_read(const T *addr) {
    T value;
    memcpy(&value, addr, sizeof value);
    return value;
  }
  template <class T> static void serial_write(TxThread &tx, T *addr, T value) {
    tx.undo.append_value(addr);
    memcpy(addr, &value, sizeof value);
  }
  static void serial_write_bytes(TxThread &tx, void *tm, const void *priv,
                                 size_t n) {
    tx.undo.append_span(tm, n);
    memmove(tm, priv, n);
  }

  // Rolls back in-place writes (eager algorithms, serial mode).
  static void undo_writes(TxThread &tx) {
    stat_add(tx.stats->log_entries, tx.undo.size());
    tx.undo.rollback(tx.stack_lo, tx.stack_mark, &tx.kept);
  }
};

} // namespace ptm

#endif // PTM_RUNTIME_STM_POLICY_H
