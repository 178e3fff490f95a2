//===- quiescence.h - wait for the attempts running now to end --*- C++ -*-===//
//
// Privatization safety for the algorithms that need it (orec_eager,
// orec_lazy, orec_mixed). A writer that has committed (and left its slot)
// waits until every attempt that was running at that moment has ended (by
// commit or abort): a doomed attempt can then no longer write back, undo or
// read what the committed writer made private, e.g. a node it unlinked and
// that its thread now changes or frees outside any transaction.
//
// Epoch-based: every attempt announces a fresh number in its slot
// (tx_slots.h); a slot that still shows the number seen at the start of the
// wait is the same attempt. Attempts that begin later see the writer's
// effects and need no waiting.
//
//===----------------------------------------------------------------------===//
#ifndef PTM_RUNTIME_QUIESCENCE_H
#define PTM_RUNTIME_QUIESCENCE_H

#include "runtime/stm/tx_slots.h"

namespace ptm {

struct Quiescence {
  static __attribute__((noinline)) void wait(const StmThread &st) {
    // Our write-back and lock releases before the announcements we read.
    std::atomic_thread_fence(std::memory_order_seq_cst);
    unsigned n = TxSlots::high_water.load(std::memory_order_acquire);
    for (unsigned i = 0; i < n; ++i) {
      if (static_cast<int>(i) == st.slot)
        continue;
      std::atomic<uint64_t> &active = TxSlots::slots[i].active;
      uint64_t seen = active.load(std::memory_order_seq_cst);
      if (seen == 0)
        continue;
      for (unsigned spins = 0; active.load(std::memory_order_acquire) == seen;)
        spin_pause(spins);
    }
  }
};

} // namespace ptm

#endif // PTM_RUNTIME_QUIESCENCE_H
