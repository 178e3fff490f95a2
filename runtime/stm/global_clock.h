//===- global_clock.h - the global version clock of the orec STMs -*- C++ -*-//
//
// TL2/TinySTM-style time: a transaction's snapshot is the clock value at its
// start; a committing writer takes a fresh value with fetch_add and stamps
// the orecs it releases with it. One clock per library (each library is its
// own program image).
//
//===----------------------------------------------------------------------===//
#ifndef PTM_RUNTIME_GLOBAL_CLOCK_H
#define PTM_RUNTIME_GLOBAL_CLOCK_H

#include <atomic>
#include <cstdint>

namespace ptm {

struct GlobalClock {
  alignas(64) static inline std::atomic<uint64_t> time{0};

  static uint64_t now() { return time.load(std::memory_order_acquire); }
  // A fresh commit time, larger than every snapshot taken before.
  static uint64_t tick() { return time.fetch_add(1) + 1; }
  // The same, for a thread that nobody else can take a time beside (solo
  // mode, solo_owner.h): no locked instruction.
  static uint64_t tick_alone() {
    uint64_t t = time.load(std::memory_order_relaxed) + 1;
    time.store(t, std::memory_order_release);
    return t;
  }
};

} // namespace ptm

#endif // PTM_RUNTIME_GLOBAL_CLOCK_H
