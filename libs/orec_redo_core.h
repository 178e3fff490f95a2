//===- orec_redo_core.h - orec + redo log transaction setup -----*- C++ -*-===//
//
// What orec_lazy and orec_mixed share on top of RedoCore (redo_core.h): the
// per-thread orec state, which an attempt begins with a snapshot and which
// validates the reads when the attempt serializes. They differ in when orecs
// are locked and how reads consult the redo log, which stays in each policy.
//
//===----------------------------------------------------------------------===//
#ifndef PTM_LIBS_OREC_REDO_CORE_H
#define PTM_LIBS_OREC_REDO_CORE_H

#include "libs/redo_core.h"
#include "libs/stm_logging.h"
#include "runtime/stm/orec_table.h"

namespace ptm {

template <class Self, template <class> class Logging>
struct OrecRedoCore : RedoCore<Self, Logging> {
  using Redo = RedoCore<Self, Logging>;
  using Log = typename Redo::Log;
  // One orec per block of the log granularity (Logging::kConflictGranule).
  static constexpr uintptr_t G = Log::kConflictGranule;
  static inline thread_local OrecTx<G> ot;

  static void free_thread() {
    ot.free_buffers();
    Redo::redo.release();
  }
  static void start(TxThread &) { ot.begin(stm_thread.slot); }
  static bool still_valid(TxThread &) { return ot.validate(); }

  // A writer's commit once its orecs are locked and its reads validated:
  // write back with TIME (the clock orders conflicting writers: the commit
  // order), release the orecs with it, quiesce unless serial.
  static bool publish(TxThread &tx, uint64_t time) {
    bool quiesce = !stm_thread.serial;
    Log::redo_commit(tx, Redo::redo, time);
    ot.release_all(time);
    return Redo::end_commit(tx, quiesce);
  }
};

} // namespace ptm

#endif // PTM_LIBS_OREC_REDO_CORE_H
