//===- stm_logging.h - the logging points of a volatile STM -----*- C++ -*-===//
//
// The concurrent STM policies (orec_eager, orec_lazy, orec_mixed, norec,
// tlrw, ring) are templates over their LOGGING: what happens at the points
// where Listing 1 of the paper differs between an STM and its persistent
// transformation. A policy is instantiated as
//
//   struct OrecLazyPolicy : OrecLazyT<OrecLazyPolicy, StmLogging> {};
//   struct POrecLazyPolicy : OrecLazyT<POrecLazyPolicy, PersistentLogging> {};
//
// and LOGGING<Self> is the policy's base class. StmLogging is the volatile
// behaviour (the STM as it was); PersistentLogging (persistent_logging.h)
// puts the log and the status word in the thread's pool slot with Listing 1's
// flushes and fences. The points:
//
//   kIrrevocable              the policy may run uninstrumented code serially
//   attempt_leave / _reenter  out of / back into attempt_begin's state while
//                             begin waits for the hourglass (or null)
//   attempt_begin / _end      first and last thing of an attempt (commit or
//                             rollback)
//   commit_begin              first thing of commit (may still write)
//   eager_begin               an eager attempt starts (before any write)
//   write_in_place(_bytes)    an eager write, the location already locked
//   eager_commit / _rollback  the eager attempt ends, before its locks go
//   Redo                      the lazy write set (RedoLog's interface)
//   redo_announce(tx)         a writer's commit is about to take its commit
//                             order (before its locks and validation)
//   redo_commit(tx, redo, order)  write back the lazy write set (locks held,
//                             validated); ORDER is the commit order
//   redo_discard(tx, redo)    drop it (abort)
//   kQuiesce                  the orec algorithms quiesce after a writer
//                             commits (the IP model turns it off: Section V)
//   redo_released(tx)         after redo_commit, the commit's locks (or
//                             sequence lock, ring entry) are released
//   conflict_span(a, n)       the bytes a write of [a, a+n) locks / signs
//                             (coarse-grained logging: whole chunks, which
//                             its log entries cover)
//   kConflictGranule          the log granularity: 8-byte granules, or the
//                             chunk (coarse-grained logging); the orec
//                             algorithms give each such block one orec
//   kFencePipeline            (tlrw) writes go through pipelined_write(tx,
//                             addr, value, fenced) and every access after its
//                             locks calls pipeline_read / pipeline_drain
//                             (persistent_logging.h, paper IV-C)
//
//===----------------------------------------------------------------------===//
#ifndef PTM_LIBS_STM_LOGGING_H
#define PTM_LIBS_STM_LOGGING_H

#include "runtime/stm/redo_log.h"
#include "runtime/stm/stm_policy.h"

namespace ptm {

template <class Self> struct StmLogging : StmPolicyBase {
  static constexpr bool kLogRing = false; // (no pool)
  static constexpr bool kIrrevocable = true;
  static constexpr bool kFencePipeline = false; // tlrw: persistent only
  static constexpr bool kQuiesce = true;    // privatization safety per commit
  static constexpr bool kCoarseLog = false; // paper IV-B: persistent only
  static constexpr bool kSolo = false;      // solo mode: gp_ and ip_ only
  static constexpr uintptr_t kConflictGranule = kGranule;
  using Redo = RedoLog;

  static AccessSpan conflict_span(uintptr_t a, size_t n) { return {a, n}; }

  static void attempt_begin(TxThread &) {}
  static void attempt_end(TxThread &) {}
  static constexpr void (*attempt_leave)() = nullptr;
  static constexpr void (*attempt_reenter)() = nullptr;
  static void commit_begin(TxThread &) {}

  static void eager_begin(TxThread &tx) { tx.undo.clear(); }
  template <class T>
  __attribute__((always_inline)) static void write_in_place(TxThread &tx,
                                                            T *addr, T value) {
    serial_write(tx, addr, value);
  }
  static void write_bytes_in_place(TxThread &tx, void *tm, const void *priv,
                                   size_t n) {
    serial_write_bytes(tx, tm, priv, n);
  }
  static void eager_commit(TxThread &tx) {
    stat_add(tx.stats->log_entries, tx.undo.size());
    tx.undo.clear();
  }
  static void eager_rollback(TxThread &tx) { undo_writes(tx); }

  static void redo_announce(TxThread &) {}
  static void redo_commit(TxThread &tx, RedoLog &redo, uint64_t) {
    PrivateStack stack = PrivateStack::of(tx);
    redo.write_back(stack.lo, stack.hi);
    stat_add(tx.stats->log_entries, redo.size());
    redo.clear();
  }
  static void redo_released(TxThread &) {}
  static void redo_discard(TxThread &tx, RedoLog &redo) {
    stat_add(tx.stats->log_entries, redo.size());
    redo.clear();
  }
};

} // namespace ptm

#endif // PTM_LIBS_STM_LOGGING_H
