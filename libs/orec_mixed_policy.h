//===- orec_mixed_policy.h - encounter-time locking, redo log ---*- C++ -*-===//
//
// orec_mixed (Mnemosyne-style): a write locks the orecs of its granules at
// once but buffers the value in a redo log. A read of a granule whose orec we
// hold is the only one that needs the redo log (memory under our lock is
// stable); other reads are TL2 consistent reads. Commit: take a commit time,
// validate if needed, write back, release with the time, quiesce. Abort:
// release with the old versions (memory was not touched).
//
//   made of: OrecTx (orec_table.h) + RedoLog + GlobalClock + Hourglass +
//            Quiescence; LOGGING (stm_logging.h) holds the write set and
//            writes it back (p_orec_mixed: in the pool slot, Listing 1's lazy
//            commit with the commit time as the commit order)
//
//===----------------------------------------------------------------------===//
#ifndef PTM_LIBS_OREC_MIXED_POLICY_H
#define PTM_LIBS_OREC_MIXED_POLICY_H

#include "libs/orec_redo_core.h"
#include "libs/stm_logging.h"
#include "runtime/base/hot_cold.h"
#include "runtime/stm/orec_table.h"

namespace ptm {

template <class Self, template <class> class Logging>
struct OrecMixedT : OrecRedoCore<Self, Logging> {
  using Core = OrecRedoCore<Self, Logging>;
  using Log = typename Core::Log;
  using Core::G;
  using Core::ot;
  using Core::redo;
  using Core::serial;
  using Core::serial_read;

  static bool commit(TxThread &tx) {
    StmThread &st = stm_thread;
    Log::commit_begin(tx);
    if (ot.locks.empty()) {
      redo.clear();
      return Core::commit_read_only(tx);
    }
    Log::redo_announce(tx);
    uint64_t time = GlobalClock::tick();
    if (!st.serial && time != ot.start + 1 && !ot.validate())
      return false;
    stat_add(tx.stats->log_entries, tx.undo.size());
    tx.undo.clear();
    // Writers hold their orecs until after the tick.
    return Core::publish(tx, time);
  }

  static void rollback(TxThread &tx) {
    bool wrote_in_place = !tx.undo.empty();
    Log::undo_writes(tx);
    if (wrote_in_place) // serial mode: readers may have seen the values
      ot.release_all(GlobalClock::tick());
    else
      ot.release_all_unchanged();
    Core::end_rollback(tx);
  }

  static void read_bytes(TxThread &tx, void *priv, const void *tm, size_t n) {
    if (serial())
      return (void)memcpy(priv, tm, n);
    auto *d = static_cast<unsigned char *>(priv);
    for_each_block<G>(reinterpret_cast<uintptr_t>(tm), n,
                      [&](uintptr_t a, size_t k, size_t at) {
                        if (ot.template read_piece<Self>(tx, d + at, a, k))
                          redo.overlay(d + at, a, k);
                      });
  }

  // Fast path: one granule, its orec readable and not ours (under our lock
  // the redo log may hold the bytes: the slow path overlays it).
  template <class T> PTM_INLINE static T read(TxThread &tx, const T *addr) {
    T value;
    auto a = reinterpret_cast<uintptr_t>(addr);
    if (__builtin_expect(!serial() && in_one_granule(a, sizeof(T)) &&
                             ot.template try_read<false>(value, a),
                         1))
      return value;
    return read_slow(tx, addr);
  }
  template <class T> PTM_SLOW static T read_slow(TxThread &tx, const T *addr) {
    if (serial())
      return serial_read(addr);
    T value;
    read_bytes(tx, &value, addr, sizeof(T));
    return value;
  }

  // Writes lock their orecs at once (the redo log keeps the values): every
  // block of the conflict span; one granule's span is one block.
  static void before_write(TxThread &tx, uintptr_t a, size_t n) {
    AccessSpan sp = Log::conflict_span(a, n);
    for (uintptr_t b = sp.lo & ~(G - 1); b < sp.lo + sp.n; b += G)
      ot.template lock_or_abort<Self>(tx, b);
  }
  PTM_INLINE static bool try_before_write(TxThread &, uintptr_t a, size_t) {
    return ot.try_lock(a);
  }
};

struct OrecMixedPolicy : OrecMixedT<OrecMixedPolicy, StmLogging> {};

} // namespace ptm

#endif // PTM_LIBS_OREC_MIXED_POLICY_H
