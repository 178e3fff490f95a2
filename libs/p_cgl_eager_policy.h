//===- p_cgl_eager_policy.h - global lock + persistent undo log -*- C++ -*-===//
//
// p_cgl_eager: the paper's "p-lock-eager". One global lock serializes
// transactions; writes go in place after their old value is logged in the
// thread's pool slot (PersistentUndoLog: Listing 1's eager sequence, W+3
// sfence and 2W+2 clwb for W written words). Reads are plain loads. A
// rollback restores memory from the volatile undo log (which knows dead
// stack frames and in-flight exception objects), then writes the restored
// words back and marks the slot idle.
//
//===----------------------------------------------------------------------===//
#ifndef PTM_LIBS_P_CGL_EAGER_POLICY_H
#define PTM_LIBS_P_CGL_EAGER_POLICY_H

#include "libs/persistent_policy_base.h"
#include "libs/spin_lock.h"
#include "runtime/persistent_undo_log.h"

#include <cstring>

namespace ptm {

struct PCglEagerPolicy : PersistentPolicyBase<PCglEagerPolicy> {
  static constexpr bool kReadsInPlace = true;

  static inline SpinLock global_lock;

  static void begin(TxThread &tx) {
    pool::SlotHandle &s = pool::enter_tx();
    global_lock.lock();
    tx.undo.clear();
    PersistentUndoLog::begin(s);
  }

  static bool commit(TxThread &tx) {
    pool::SlotHandle &s = pool::tls_slot;
    apply_frees(tx);
    flush_allocs(tx);
    PersistentUndoLog::commit(s);
    tx.undo.clear();
    global_lock.unlock();
    pool::leave_tx(s);
    return true;
  }

  static void rollback(TxThread &tx) {
    pool::SlotHandle &s = pool::tls_slot;
    tx.undo.rollback(stack_position(), tx.stack_mark, &tx.kept);
    PersistentUndoLog::rollback(s);
    global_lock.unlock();
    pool::leave_tx(s);
  }

  template <class T>
  __attribute__((always_inline)) static T read(TxThread &, const T *addr) {
    T value;
    memcpy(&value, addr, sizeof value);
    return value;
  }

  template <class T>
  __attribute__((always_inline)) static void write(TxThread &tx, T *addr,
                                                   T value) {
    pool::SlotHandle &s = pool::tls_slot;
    PersistentUndoLog::log_old(s, addr, sizeof(T));
    persist::sfence();
    tx.undo.append_value(addr);
    memcpy(addr, &value, sizeof value);
    persist::flush_range(addr, sizeof(T));
  }

  static void read_bytes(TxThread &, void *priv, const void *tm, size_t n) {
    memcpy(priv, tm, n);
  }

  static void write_bytes(TxThread &tx, void *tm, const void *priv, size_t n) {
    if (n == 0)
      return;
    pool::SlotHandle &s = pool::tls_slot;
    PersistentUndoLog::log_old(s, tm, n);
    persist::sfence();
    tx.undo.append_span(tm, n);
    memmove(tm, priv, n);
    persist::flush_range(tm, n);
  }
};

} // namespace ptm

#endif // PTM_LIBS_P_CGL_EAGER_POLICY_H
