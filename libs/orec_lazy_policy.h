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
//            Quiescence; LOGGING (stm_logging.h) holds the write set and
//            writes it back (p_orec_lazy: in the pool slot, Listing 1's lazy
//            commit with the commit time as the commit order)
//
//===----------------------------------------------------------------------===//
#ifndef PTM_LIBS_OREC_LAZY_POLICY_H
#define PTM_LIBS_OREC_LAZY_POLICY_H

#include "libs/orec_redo_core.h"
#include "libs/stm_logging.h"
#include "runtime/stm/orec_table.h"

namespace ptm {

template <class Self, template <class> class Logging>
struct OrecLazyT : OrecRedoCore<Self, Logging> {
  using Core = OrecRedoCore<Self, Logging>;
  using Log = typename Core::Log;
  using Core::ot;
  using Core::redo;
  using Core::serial;
  using Core::serial_read;

  static bool commit(TxThread &tx) {
    Log::commit_begin(tx);
    if (redo.empty())
      return Core::commit_read_only(tx);
    for (size_t i = 0; i < redo.size(); ++i) {
      // (coarse-grained logging: an entry is a chunk, locked whole)
      AccessSpan sp = Log::conflict_span(redo.granule(i), 1);
      for (uintptr_t g = sp.lo; g < sp.lo + sp.n; g += kGranule) {
        OrecTx::LockResult r = ot.lock(g);
        if (r == OrecTx::LockResult::Busy)
          tx_conflict<Self>(tx, AbortCause::WriteConflict);
        if (r == OrecTx::LockResult::Stale)
          return false;
      }
    }
    uint64_t time = GlobalClock::tick();
    if (time != ot.start + 1 && !ot.validate())
      return false;
    return Core::publish(tx, time);
  }

  static void rollback(TxThread &tx) {
    Log::undo_writes(tx);
    ot.release_all_unchanged();
    Core::end_rollback(tx);
  }

  static void read_bytes(TxThread &tx, void *priv, const void *tm, size_t n) {
    if (serial())
      return (void)memcpy(priv, tm, n);
    auto *d = static_cast<unsigned char *>(priv);
    for_each_granule(reinterpret_cast<uintptr_t>(tm), n,
                     [&](uintptr_t a, size_t k, size_t at) {
                       bool logged = redo.may_contain(granule_of(a));
                       if (logged && redo.overlay(d + at, a, k))
                         return; // every byte written by this transaction
                       ot.template read_piece<Self>(tx, d + at, a, k);
                       if (logged)
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
      ot.template read_piece<Self>(tx, &value, a, sizeof(T));
    else
      read_bytes(tx, &value, addr, sizeof(T));
    return value;
  }

  __attribute__((always_inline)) static void before_write(TxThread &, uintptr_t,
                                                          size_t) {}
};

struct OrecLazyPolicy : OrecLazyT<OrecLazyPolicy, StmLogging> {};

} // namespace ptm

#endif // PTM_LIBS_OREC_LAZY_POLICY_H
