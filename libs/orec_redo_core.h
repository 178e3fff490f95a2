//===- orec_redo_core.h - orec + redo log transaction setup -----*- C++ -*-===//
//
// What orec_lazy and orec_mixed share: per-thread orec state and redo log,
// and how an attempt begins, begins serially, and becomes irrevocable
// (serialize, validate the orec snapshot, write the redo log back in place
// with undo entries). They differ in when orecs are locked and how reads
// consult the redo log, which stays in each policy.
//
//===----------------------------------------------------------------------===//
#ifndef PTM_LIBS_OREC_REDO_CORE_H
#define PTM_LIBS_OREC_REDO_CORE_H

#include "libs/stm_logging.h"
#include "runtime/stm/orec_table.h"

namespace ptm {

template <class Self, template <class> class Logging>
struct OrecRedoCore : Logging<Self> {
  using Log = Logging<Self>;
  using Log::serial;
  using Log::serial_read;
  static inline thread_local OrecTx ot;
  static inline thread_local typename Log::Redo redo;

  static void free_thread() {
    ot.free_buffers();
    redo.release();
  }

  static void begin(TxThread &tx) {
    Log::attempt_begin(tx);
    stm_thread.cleanup = free_thread;
    Hourglass::enter(tx, stm_thread);
    tx.undo.clear();
    redo.clear();
    ot.begin(stm_thread.slot);
  }
  static void begin_irrevocable(TxThread &tx) {
    if constexpr (!Log::kIrrevocable) {
      Log::begin_irrevocable(tx);
    } else {
      stm_thread.cleanup = free_thread;
      Hourglass::enter_serial(tx, stm_thread);
      tx.undo.clear();
      redo.clear();
      ot.begin(stm_thread.slot);
    }
  }
  static bool become_irrevocable(TxThread &tx) {
    if constexpr (!Log::kIrrevocable) {
      return false;
    } else {
      Hourglass::serialize<Self>(tx, stm_thread,
                                 [](TxThread &) { return ot.validate(); });
      PrivateStack stack = PrivateStack::of(tx);
      redo.write_back(stack.lo, stack.hi, &tx.undo);
      redo.clear();
      return true;
    }
  }
};

} // namespace ptm

#endif // PTM_LIBS_OREC_REDO_CORE_H
