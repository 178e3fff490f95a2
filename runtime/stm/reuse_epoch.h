//===- reuse_epoch.h - when freed memory may be reused ----------*- C++ -*-===//
//
// Deferred reuse of freed memory, without making committers wait. A block a
// transaction frees may still be read by attempts that began before the
// free committed (doomed ones, which have not noticed the conflict yet). If
// the heap handed it out again at once, its new owner's in-place writes
// (last-allocation tracking) could reach those readers as if they were
// consistent data: a garbage pointer, a crash. Quiescence (quiescence.h)
// prevents that by making the freeing committer wait; the IP model drops it.
//
// Instead, every attempt records in its slot the epoch it began in
// (TxSlots::announce reads TxSlots::epoch_now); a thread whose transaction
// freed pool memory takes a stamp after the commit point, which advances the
// epoch (stamp()); the freed memory is reusable once every attempt still
// running began in a later epoch (passed(stamp)). An attempt that began
// before the commit point announced an epoch <= the stamp, so it holds the
// memory back until it ends; one that began after it cannot reach the block.
// Nobody waits for this except an allocation that finds no other memory
// (pool/heap_adapter.h): it aborts and waits outside any attempt.
//
// passed() is cheap in the common case: it compares with a cached horizon
// (every attempt running at some past moment began at or after it) and scans
// the slots only when the stamp is newer than that.
//
//===----------------------------------------------------------------------===//
#ifndef PTM_RUNTIME_REUSE_EPOCH_H
#define PTM_RUNTIME_REUSE_EPOCH_H

#include "runtime/base/atomic_max.h"
#include "runtime/stm/tx_slots.h"

#include <atomic>
#include <cstdint>

namespace ptm {

struct ReuseEpoch {
  // Attempts announced below the horizon had all ended when it was computed.
  alignas(64) static inline std::atomic<uint64_t> horizon{1};

  // The current epoch: a stamp taken now is at least this.
  static uint64_t now() {
    return TxSlots::epoch_now.load(std::memory_order_acquire);
  }

  // After the commit point of a transaction that freed memory: its stamp.
  // Attempts announced from now on began after the commit point.
  static uint64_t stamp() {
    return TxSlots::epoch_now.fetch_add(1, std::memory_order_acq_rel);
  }

  // True when every attempt running when STAMP was taken has ended.
  static bool passed(uint64_t stamp) {
    return stamp < horizon.load(std::memory_order_acquire) || stamp < refresh();
  }

  // Scans the slots: the smallest epoch of a running attempt (or the current
  // epoch if none runs) is the new horizon.
  static __attribute__((noinline)) uint64_t refresh() {
    uint64_t h = now();
    // The caller's reads of the heap's metadata before the announcements
    // (an attempt not announced yet begins after them: it sees the free).
    std::atomic_thread_fence(std::memory_order_seq_cst);
    unsigned n = TxSlots::high_water.load(std::memory_order_acquire);
    for (unsigned i = 0; i < n; ++i) {
      TxSlot &s = TxSlots::slots[i];
      if (s.active.load(std::memory_order_seq_cst) == 0)
        continue;
      uint64_t e = s.epoch.load(std::memory_order_acquire);
      if (e < h)
        h = e;
    }
    return raise_to(horizon, h);
  }

  // Waits (outside any attempt of the caller) until STAMP has passed.
  static __attribute__((noinline)) void wait(uint64_t stamp) {
    for (unsigned spins = 0; !passed(stamp);)
      spin_pause(spins);
  }
};

} // namespace ptm

#endif // PTM_RUNTIME_REUSE_EPOCH_H
