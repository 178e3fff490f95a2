//===- orec_lazy_policy.h - commit-time locking, redo log (TL2) -*- C++ -*-===//
//
// orec_lazy (TL2-style): writes go to a redo log; a read looks in the redo
// log first, else reads memory between two loads of the granule's orec and
// extends the snapshot when the version is newer. Commit: lock the orecs of
// the write set (busy: abort; bounded spin), take a commit time, validate the
// read set unless nobody committed since the snapshot, write back, release
// with the commit time, then quiesce (privatization safety: a doomed
// writer's write-back must not land on memory the committer privatized).
//
//   made of: OrecTx (orec_table.h) + RedoLog + GlobalClock + Hourglass +
//            Quiescence
//
//===----------------------------------------------------------------------===//
#ifndef PTM_LIBS_OREC_LAZY_POLICY_H
#define PTM_LIBS_OREC_LAZY_POLICY_H

#include "runtime/orec_table.h"
#include "runtime/quiescence.h"
#include "runtime/redo_log.h"
#include "runtime/stm_policy.h"

namespace ptm {

struct OrecLazyPolicy : StmPolicyBase {
  using Self = OrecLazyPolicy;
  static inline thread_local OrecTx ot;
  static inline thread_local RedoLog redo;

  static void free_thread() {
    ot.free_buffers();
    redo.release();
  }

  static void begin(TxThread &tx) {
    stm_thread.cleanup = free_thread;
    Hourglass::enter(tx, stm_thread);
    tx.undo.clear();
    redo.clear();
    ot.begin(stm_thread.slot);
  }
  static void begin_irrevocable(TxThread &tx) {
    stm_thread.cleanup = free_thread;
    Hourglass::enter_serial(tx, stm_thread);
    tx.undo.clear();
    redo.clear();
    ot.begin(stm_thread.slot);
  }
  static bool become_irrevocable(TxThread &tx) {
    Hourglass::serialize<Self>(tx, stm_thread,
                               [](TxThread &) { return ot.validate(); });
    PrivateStack stack = PrivateStack::of(tx);
    redo.write_back(stack.lo, stack.hi, &tx.undo);
    redo.clear();
    return true;
  }

  static bool commit(TxThread &tx) {
    StmThread &st = stm_thread;
    if (redo.empty()) {
      tx.undo.clear();
      Hourglass::leave(st);
      return true;
    }
    for (size_t i = 0; i < redo.entries.size; ++i) {
      OrecTx::LockResult r = ot.lock(redo.entries[i].granule);
      if (r == OrecTx::LockResult::Busy)
        tx_conflict<Self>(tx, AbortCause::WriteConflict);
      if (r == OrecTx::LockResult::Stale)
        return false;
    }
    uint64_t time = GlobalClock::tick();
    if (time != ot.start + 1 && !ot.validate())
      return false;
    PrivateStack stack = PrivateStack::of(tx);
    redo.write_back(stack.lo, stack.hi);
    stat_add(tx.stats->log_entries, redo.size());
    ot.release_all(time);
    redo.clear();
    Hourglass::leave(st);
    Quiescence::wait(st);
    return true;
  }

  static void rollback(TxThread &tx) {
    undo_writes(tx);
    ot.release_all_unchanged();
    stat_add(tx.stats->log_entries, redo.size());
    redo.clear();
    Hourglass::leave_after_abort(stm_thread);
  }

  static void read_bytes(TxThread &tx, void *priv, const void *tm, size_t n) {
    if (serial())
      return (void)memcpy(priv, tm, n);
    auto *d = static_cast<unsigned char *>(priv);
    for_each_granule(
        reinterpret_cast<uintptr_t>(tm), n,
        [&](uintptr_t a, size_t k, size_t at) {
          RedoEntry *e = redo.find(granule_of(a));
          unsigned off = static_cast<unsigned>(a & 7);
          uint32_t want = ((1u << k) - 1) << off;
          if (e && (e->mask & want) == want) {
            memcpy(d + at, reinterpret_cast<unsigned char *>(&e->value) + off,
                   k);
            return;
          }
          ot.read_piece<Self>(tx, d + at, a, k);
          if (e)
            redo.overlay(d + at, a, k);
        });
  }

  template <class T>
  __attribute__((always_inline)) static T read(TxThread &tx, const T *addr) {
    if (serial())
      return serial_read(addr);
    T value;
    auto a = reinterpret_cast<uintptr_t>(addr);
    if (__builtin_expect((a & (kGranule - 1)) + sizeof(T) <= kGranule &&
                             !redo.may_contain(granule_of(a)),
                         1))
      ot.read_piece<Self>(tx, &value, a, sizeof(T));
    else
      read_bytes(tx, &value, addr, sizeof(T));
    return value;
  }

  template <class T>
  __attribute__((always_inline)) static void write(TxThread &tx, T *addr,
                                                   T value) {
    if (serial())
      return serial_write(tx, addr, value);
    redo.put(reinterpret_cast<uintptr_t>(addr), &value, sizeof value);
  }

  static void write_bytes(TxThread &tx, void *tm, const void *priv, size_t n) {
    if (serial())
      return serial_write_bytes(tx, tm, priv, n);
    redo.put(reinterpret_cast<uintptr_t>(tm), priv, n);
  }
};

} // namespace ptm

#endif // PTM_LIBS_OREC_LAZY_POLICY_H
