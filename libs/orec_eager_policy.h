//===- orec_eager_policy.h - encounter-time locking, undo log ---*- C++ -*-===//
//
// orec_eager (GCC-TM / TinySTM-ETL): a write locks the orecs of its granules
// at once, logs the old bytes (undo) and writes in place; a read checks the
// orec's version against the snapshot (extending it when possible). Commit:
// a writer takes a commit time, validates its reads if others committed
// meanwhile, and releases its orecs with that time; then waits for the
// attempts running at that moment (quiescence: a doomed attempt's undo must
// not land on memory the writer privatized). Abort: undo, release with a
// fresh time (readers may have seen the in-place values).
//
//   made of: OrecTx (orec_table.h) + UndoLog + GlobalClock + Hourglass +
//            Quiescence
//
//===----------------------------------------------------------------------===//
#ifndef PTM_LIBS_OREC_EAGER_POLICY_H
#define PTM_LIBS_OREC_EAGER_POLICY_H

#include "runtime/orec_table.h"
#include "runtime/quiescence.h"
#include "runtime/stm_policy.h"

namespace ptm {

struct OrecEagerPolicy : StmPolicyBase {
  using Self = OrecEagerPolicy;
  static inline thread_local OrecTx ot;

  static void free_thread() { ot.free_buffers(); }

  static void begin(TxThread &tx) {
    stm_thread.cleanup = free_thread;
    Hourglass::enter(tx, stm_thread);
    tx.undo.clear();
    ot.begin(stm_thread.slot);
  }
  static void begin_irrevocable(TxThread &tx) {
    stm_thread.cleanup = free_thread;
    Hourglass::enter_serial(tx, stm_thread);
    tx.undo.clear();
    ot.begin(stm_thread.slot);
  }
  static bool become_irrevocable(TxThread &tx) {
    Hourglass::serialize<Self>(tx, stm_thread,
                               [](TxThread &) { return ot.validate(); });
    return true;
  }

  static bool commit(TxThread &tx) {
    StmThread &st = stm_thread;
    if (ot.locks.empty()) {
      tx.undo.clear();
      Hourglass::leave(st);
      return true;
    }
    uint64_t time = GlobalClock::tick();
    if (!st.serial && time != ot.start + 1 && !ot.validate())
      return false;
    stat_add(tx.stats->log_entries, tx.undo.size());
    tx.undo.clear();
    ot.release_all(time);
    bool quiesce = !st.serial;
    Hourglass::leave(st);
    if (quiesce)
      Quiescence::wait(st);
    return true;
  }

  static void rollback(TxThread &tx) {
    undo_writes(tx);
    if (!ot.locks.empty())
      ot.release_all(GlobalClock::tick());
    Hourglass::leave_after_abort(stm_thread);
  }

  static void read_bytes(TxThread &tx, void *priv, const void *tm, size_t n) {
    if (serial())
      return (void)memcpy(priv, tm, n);
    auto *d = static_cast<unsigned char *>(priv);
    for_each_granule(reinterpret_cast<uintptr_t>(tm), n,
                     [&](uintptr_t a, size_t k, size_t at) {
                       ot.read_piece<Self>(tx, d + at, a, k);
                     });
  }

  template <class T>
  __attribute__((always_inline)) static T read(TxThread &tx, const T *addr) {
    if (serial())
      return serial_read(addr);
    T value;
    auto a = reinterpret_cast<uintptr_t>(addr);
    if (__builtin_expect((a & (kGranule - 1)) + sizeof(T) <= kGranule, 1))
      ot.read_piece<Self>(tx, &value, a, sizeof(T));
    else
      read_bytes(tx, &value, addr, sizeof(T));
    return value;
  }

  static void lock_all(TxThread &tx, uintptr_t a, size_t n) {
    for_each_granule(a, n, [&](uintptr_t g, size_t, size_t) {
      ot.lock_or_abort<Self>(tx, g);
    });
  }

  template <class T>
  __attribute__((always_inline)) static void write(TxThread &tx, T *addr,
                                                   T value) {
    if (serial())
      return serial_write(tx, addr, value);
    lock_all(tx, reinterpret_cast<uintptr_t>(addr), sizeof(T));
    tx.undo.append_value(addr);
    memcpy(addr, &value, sizeof value);
  }

  static void write_bytes(TxThread &tx, void *tm, const void *priv, size_t n) {
    if (!serial())
      lock_all(tx, reinterpret_cast<uintptr_t>(tm), n);
    serial_write_bytes(tx, tm, priv, n);
  }
};

} // namespace ptm

#endif // PTM_LIBS_OREC_EAGER_POLICY_H
